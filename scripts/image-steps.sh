#!/usr/bin/env bash
# The Dockerfile's runtime steps, run without Docker (CI has no Docker engine), on the dist/ that
# `npm run build` produced:
#   1. the production install, exactly as the image does it, into a temporary /app;
#   2. the compile-cache warm-up, into the temporary /app's compile-cache (EX_GENERIC_COMPILE_CACHE);
#   3. the image's entrypoint command on a copy of the demo data folder (data/), with the demo's
#      embedded mock API (data/mock-api) served by the mock server of that same production tree.
# It fails unless the extraction exits 0 and writes the demo tables, manifests and state.
# Node 24: in the image it is the base image; here it is the project's devDependency binary.
#
# Keep INSTALL, WARM_CACHE and ENTRYPOINT identical to the Dockerfile (tests/platform/image.test.ts checks).
set -euo pipefail

INSTALL='npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund'
WARM_CACHE='node /app/dist/cli.js --fill-compile-cache && chmod -R a+rX /app/compile-cache'
ENTRYPOINT='["node", "/app/dist/cli.js"]'

root="$(cd "$(dirname "$0")/.." && pwd)"
node24="$root/node_modules/.bin/node"
[ -x "$node24" ] || { echo "image-steps: $node24 is missing (run npm ci first)" >&2; exit 1; }
[ -f "$root/dist/cli.js" ] || { echo "image-steps: dist/ is missing (run npm run build first)" >&2; exit 1; }
case "$("$node24" --version)" in v24.*) ;; *) echo "image-steps: $node24 is not Node 24" >&2; exit 1 ;; esac
# npm itself runs on the first `node` in PATH: make that Node 24 too, as in the image.
export PATH="$(dirname "$node24"):$PATH"

work="$(mktemp -d)"
mock_pid=''
cleanup() {
  if [ -n "$mock_pid" ]; then kill "$mock_pid" 2>/dev/null || true; wait "$mock_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "image-steps: production install into $work/app"
app="$work/app"
mkdir -p "$app"
cp "$root/package.json" "$root/package-lock.json" "$app/"
(cd "$app" && $INSTALL) >"$work/npm.log" 2>&1 || { cat "$work/npm.log" >&2; exit 1; }
cp -R "$root/dist" "$app/dist"
for dev in typescript esbuild node @types/node @types/ssh2; do
  if [ -e "$app/node_modules/$dev" ]; then echo "image-steps: dev dependency $dev in the production tree" >&2; exit 1; fi
done
echo "image-steps: $(find "$app/node_modules" -maxdepth 2 -name package.json | wc -l) production packages, $(du -sh "$app/node_modules" | cut -f1)"

# The image's compile cache under /app (the Dockerfile's ENV), filled by the warm-up; the
# entrypoint then runs with a fresh, empty /tmp, as the platform runs it.
cache="$app/compile-cache"
tmp="$work/tmp"
mkdir -p "$tmp"
echo "image-steps: ${WARM_CACHE}"
(cd "$app" && env NODE_ENV=production EX_GENERIC_COMPILE_CACHE="$cache" bash -c "${WARM_CACHE//\/app/$app}")
[ -n "$(find "$cache" -type f -print -quit)" ] || { echo "image-steps: the warm-up wrote no compile cache" >&2; exit 1; }

# The entrypoint, with the image's paths and Node mapped onto this machine.
mapfile -t entry < <("$node24" -e 'for (const a of JSON.parse(process.argv[1])) console.log(a)' "$ENTRYPOINT")
entry[0]="$node24"
for i in "${!entry[@]}"; do entry[$i]="${entry[$i]/#\/app/$app}"; done

data="$work/data"
cp -R "$root/data" "$data"
rm -rf "$data/out"

# The mock API on a free port; the copy's baseUrl is pointed at it.
"$node24" "$app/dist/mock-server/cli.js" --dir "$data/mock-api" --port 0 --host 127.0.0.1 >"$work/mock.out" 2>"$work/mock.err" &
mock_pid=$!
port=''
for _ in $(seq 1 100); do
  port="$(sed -n 's/^listening 127\.0\.0\.1:\([0-9][0-9]*\)$/\1/p' "$work/mock.out")"
  [ -n "$port" ] && break
  kill -0 "$mock_pid" 2>/dev/null || { cat "$work/mock.err" >&2; echo "image-steps: mock server exited" >&2; exit 1; }
  sleep 0.1
done
[ -n "$port" ] || { echo "image-steps: mock server did not start" >&2; exit 1; }
"$node24" -e '
  const fs = require("node:fs");
  const [file, port] = process.argv.slice(1);
  const config = JSON.parse(fs.readFileSync(file, "utf8"));
  const url = new URL(config.parameters.api.baseUrl);
  url.port = port;
  config.parameters.api.baseUrl = url.href;
  fs.writeFileSync(file, JSON.stringify(config, null, 2));
' "$data/config.json" "$port"

echo "image-steps: ${ENTRYPOINT} with KBC_DATADIR=/data (here $data)"
status=0
(cd "$app" && env NODE_ENV=production TMPDIR="$tmp" EX_GENERIC_COMPILE_CACHE="$cache" KBC_DATADIR="$data" "${entry[@]}") >"$work/run.log" 2>&1 || status=$?
cat "$work/run.log"
if [ "$status" -ne 0 ]; then
  echo "image-steps: the entrypoint exited with $status" >&2
  cat "$work/mock.err" >&2
  exit 1
fi
for f in out/tables/demo.users out/tables/demo.users.manifest out/tables/demo.orders out/tables/demo.orders.manifest out/state.json; do
  [ -s "$data/$f" ] || { echo "image-steps: $f was not written" >&2; ls -R "$data/out" >&2 || true; exit 1; }
done
[ "$(head -n 1 "$data/out/tables/demo.users")" != '' ] || { echo "image-steps: demo.users has no header" >&2; exit 1; }
users=$(($(wc -l <"$data/out/tables/demo.users") - 1))
orders=$(($(wc -l <"$data/out/tables/demo.orders") - 1))
[ "$users" -gt 0 ] && [ "$orders" -gt 0 ] || { echo "image-steps: empty tables (users $users, orders $orders)" >&2; exit 1; }

# The other commands of the image run from the same production tree.
"$node24" "$app/dist/platform/cli.js" --help >/dev/null
(cd "$app" && "$node24" --input-type=module -e 'const { Client } = await import("ssh2"); if (typeof Client !== "function") process.exit(1);')

echo "image-steps: OK (demo.users $users rows, demo.orders $orders rows, out/state.json written)"
