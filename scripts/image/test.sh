#!/usr/bin/env bash
# `npm run image-test`: builds the image from this tree and runs it as the platform's runner does
# (scripts/image/run.sh: another uid than the image's 1000, read-only root, a tmpfs /tmp, the
# component's memory limit), then checks each answer:
#   demo           the bundled example against its mock API: tables byte for byte as a run of
#                  dist/cli.js on this machine writes them; the shipped compile cache is read
#   conformance    one example of the conformance harness (../shared/conformance), byte for byte
#   sync-action    test_request: exactly one JSON value on stdout, exit 0
#   failing-config exit 1, one ERROR line, no stack trace, nothing written
#   missing-config exit 2 (the reference's application error), one ERROR line, no stack trace
#   unwritable-data /data not writable by the run's uid: exit 1, one ERROR line naming the fix
# and prints the figures: build time, image size, per run wall time, peak memory, exit code.
# Installs podman from Debian's packages when it is missing and this is root; builds the base
# image locally (scripts/image/base.sh) when the Dockerfile's base cannot be pulled.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
export PATH="$root/node_modules/.bin:$PATH"
export IMAGE="${IMAGE:-localhost/ex-generic-ts:image-test}" RUN_UID="${RUN_UID:-1234}"
work="$(mktemp -d /var/tmp/ex-generic-image-test.XXXXXX)"
export LOGS="$work/logs" FIGURES="$work/figures"
mock=''
cleanup() {
  [ -n "$mock" ] && podman rm -f "$mock" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "image-test: FAIL: $*" >&2; exit 1; }
note() { echo "image-test: $*"; }
seconds() { echo "$(($(date +%s) - $1)) s"; }

ensure_podman() {
  if ! command -v podman >/dev/null || ! command -v debootstrap >/dev/null; then
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || fail "podman is missing; install it (Debian: apt-get install podman runc uidmap debootstrap)"
    local t; t=$(date +%s)
    note "installing podman, runc, uidmap, debootstrap from Debian's packages"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      podman runc uidmap debootstrap >/dev/null
    note "podman installed in $(seconds "$t")"
  fi
  # runc, file events, ulimits a sandbox can set: see scripts/image/containers.conf.
  if [ ! -e /etc/containers/containers.conf ] && [ "$(id -u)" = 0 ]; then
    install -D -m 0644 scripts/image/containers.conf /etc/containers/containers.conf
  fi
}

# The Dockerfile's base if a registry has it, else the local stand-in of scripts/image/base.sh.
base_image() {
  local default; default=$(sed -n 's/^ARG NODE_IMAGE=//p' Dockerfile)
  if podman image exists "$default" || timeout 120 podman pull -q "$default" >/dev/null 2>&1; then echo "$default"; return; fi
  local stand_in; stand_in="localhost/ex-generic-base:node-$(node -p 'require("./package.json").devDependencies.node')"
  if ! podman image exists "$stand_in"; then
    local t; t=$(date +%s)
    BASE_IMAGE="$stand_in" bash scripts/image/base.sh >&2
    echo "image-test: base image built locally in $(seconds "$t")" >&2
  fi
  echo "$stand_in"
}

build_image() {
  local base="$1" npmrc="$work/build-npmrc" ca=() cafile
  # A machine whose outbound TLS is re-signed by a local CA: `npm ci` inside the build needs the
  # CA file this machine's npm uses; it is mounted for the build's RUN steps only, never copied.
  cafile="${NODE_EXTRA_CA_CERTS:-$(npm config get cafile 2>/dev/null || true)}"
  if [ -n "$cafile" ] && [ "$cafile" != null ] && [ -r "$cafile" ]; then
    printf 'cafile=/run/build-ca.crt\n' >"$npmrc"
    ca=(-v "$cafile:/run/build-ca.crt:ro" -v "$npmrc:/usr/local/etc/npmrc:ro")
  fi
  local t previous; t=$(date +%s%N)
  previous=$(podman image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null || true)
  podman build -q --pull=never --network=host "${ca[@]}" --build-arg "NODE_IMAGE=$base" -t "$IMAGE" . >"$work/build.log" 2>&1 \
    || { tail -30 "$work/build.log" >&2; fail "podman build"; }
  BUILD_SECONDS=$(((($(date +%s%N) - t) / 100000000)))
  # The image this tag named before: untagged now, nothing else uses it.
  if [ -n "$previous" ] && [ "$previous" != "$(podman image inspect --format '{{.Id}}' "$IMAGE")" ]; then
    podman rmi "$previous" >/dev/null 2>&1 || true
  fi
  IMAGE_MB=$(($(podman image inspect --format '{{.Size}}' "$IMAGE") / 1000000))
}

# A copy of the demo's data folder with config.json alone.
demo_data() {
  mkdir -p "$1"
  cp data/config.json "$1/"
}

# ERROR lines of a run's log; fails unless exactly one, without a stack trace.
one_error_line() {
  local label="$1" pattern="$2" errors
  errors=$(grep -c '\.ERROR:' "$LOGS/$label.stdout" || true)
  [ "$errors" = 1 ] || fail "$label: $errors ERROR lines: $(cat "$LOGS/$label.stdout")"
  grep -q -- "$pattern" "$LOGS/$label.stdout" || fail "$label: no '$pattern' in: $(cat "$LOGS/$label.stdout")"
  ! grep -qE '"trace"|^\s+at ' "$LOGS/$label.stdout" "$LOGS/$label.stderr" || fail "$label: a stack trace"
}

expect_rc() { [ "$2" = "$3" ] || fail "$1: exit code $2, expected $3 ($(tail -3 "$LOGS/$1.stdout" "$LOGS/$1.stderr"))"; }

source "$root/scripts/image/cases.sh"

ensure_podman
npm run build >/dev/null
t0=$(date +%s)
base=$(base_image)
note "base image: $base"
build_image "$base"
note "image $IMAGE built in $((BUILD_SECONDS / 10)).$((BUILD_SECONDS % 10)) s, $IMAGE_MB MB"
start_mock
case_demo
case_compile_cache
case_conformance
case_small_container
case_sync_action
case_failing_config
case_missing_config
case_unwritable_data
echo
echo "image-test: figures (uid $RUN_UID, --read-only, tmpfs /tmp, --memory $(node -p 'require("./component.json").requiredMemory'); small-container: --memory 96m)"
echo "  build $((BUILD_SECONDS / 10)).$((BUILD_SECONDS % 10)) s (podman reuses the layers of an earlier build), image $IMAGE_MB MB"
sed 's/^/  /' "$FIGURES"
note "OK in $(seconds "$t0")"
