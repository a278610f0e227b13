#!/usr/bin/env bash
# One run of the image as the platform's Docker Runner runs a component (spec 07 §2.1): the
# runner's uid:gid (not the image's 1000), a fresh, empty /tmp (a tmpfs that does not copy the
# image's /tmp, as the runner's mounted folder does not; the root file system read-only,
# so /data and /tmp are the only places it can write), the component's memory limit, the KBC_*
# variables, no command override.
#   run.sh LABEL DATADIR [extra podman run flags...]      (DATADIR = $KBC_DATADIR when empty)
# Env: IMAGE, RUN_UID (default 1234), MEMORY (default: component.json's requiredMemory),
#      NETWORK (default host), FIGURES (a file to append the figures line to), OWN_DATA=0 to
#      leave DATADIR's owner as it is (the unwritable-/data case).
# Prints stdout/stderr of the run to LOGS/LABEL.{stdout,stderr} and one figures line:
#   LABEL  rc=…  wall=…s  peak=…MiB  (peak: the run's cgroup, page cache included)
# and exits with the container's exit code.
set -uo pipefail
label="$1"; data="${2:-${KBC_DATADIR:-}}"; shift 2 || shift $#
root="$(cd "$(dirname "$0")/../.." && pwd)"
IMAGE="${IMAGE:-localhost/ex-generic-ts:image-test}"
RUN_UID="${RUN_UID:-1234}"
MEMORY="${MEMORY:-$(node -p 'require(process.argv[1]).requiredMemory' "$root/component.json")}"
LOGS="${LOGS:-$(mktemp -d)}"
mkdir -p "$LOGS"
[ -n "$data" ] && [ -d "$data" ] || { echo "run.sh: no data folder" >&2; exit 2; }
data="$(cd "$data" && pwd)"
# The runner creates /data owned by the user it starts the container as (§2.1 item 3).
[ "${OWN_DATA:-1}" = 1 ] && chown -R "$RUN_UID:$RUN_UID" "$data"

cgroup="ex_generic_image_test_${label//[^A-Za-z0-9_]/_}_$$"
start=$(date +%s%N)
podman run --rm --network="${NETWORK:-host}" --cgroup-parent="/$cgroup" \
  --user "$RUN_UID:$RUN_UID" --read-only --tmpfs /tmp:rw,mode=1777,notmpcopyup --memory="$MEMORY" \
  -v "$data:/data" -e KBC_DATADIR=/data/ -e KBC_RUNID=1234567 -e KBC_PROJECTID=123 -e KBC_STACKID=connection.keboola.com \
  -e KBC_CONFIGID=456 -e KBC_CONFIGVERSION=1 -e KBC_COMPONENTID=keboola.ex-generic-ts -e KBC_COMPONENT_RUN_MODE=run \
  -e KBC_STAGING_FILE_PROVIDER=aws -e KBC_PROJECT_FEATURE_GATES= \
  "$@" "$IMAGE" >"$LOGS/$label.stdout" 2>"$LOGS/$label.stderr"
rc=$?
end=$(date +%s%N)
peak=''
for f in "/sys/fs/cgroup/memory/$cgroup/memory.max_usage_in_bytes" "/sys/fs/cgroup/$cgroup/memory.peak"; do
  [ -r "$f" ] && peak=$(($(cat "$f") / 1048576)) && break
done
for d in /sys/fs/cgroup/*/"$cgroup" "/sys/fs/cgroup/$cgroup"; do
  [ -d "$d" ] && find "$d" -depth -type d -exec rmdir {} \; 2>/dev/null
done
line=$(printf '%-22s rc=%s  wall=%d.%02ds  peak=%sMiB' "$label" "$rc" $(((end - start) / 1000000000)) \
  $((((end - start) / 10000000) % 100)) "${peak:-n/a}")
echo "$line"
[ -n "${FIGURES:-}" ] && echo "$line" >>"$FIGURES"
exit "$rc"
