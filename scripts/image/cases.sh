# The cases of scripts/image/test.sh (sourced by it: $work, $LOGS, $IMAGE, $RUN_UID, fail,
# expect_rc, one_error_line, demo_data come from there). Each runs scripts/image/run.sh.

# The demo's mock API in a container without a network: the extraction joins its network
# namespace (--network=container:…), where 127.0.0.1 is the mock server, as in docker-compose.yml.
start_mock() {
  local port; port=$(node -p 'new URL(require("./data/config.json").parameters.api.baseUrl).port')
  mock="ex-generic-image-test-mock-$$"
  podman run -d --name "$mock" --network=none --user "$RUN_UID:$RUN_UID" --read-only \
    -v "$root/data/mock-api:/mock:ro" --entrypoint node "$IMAGE" \
    /app/dist/mock-server/cli.js --dir /mock --port "$port" --host 127.0.0.1 >/dev/null
  for _ in $(seq 1 100); do
    podman logs "$mock" 2>/dev/null | grep -q '^listening ' && return
    sleep 0.1
  done
  fail "the mock server did not start: $(podman logs "$mock" 2>&1 | tail -3)"
}

# Starts a server on this machine in the background (LOG, then a sed expression that prints the
# port from its output, then the command) and waits up to 10 s for the port: sets server_pid, and
# server_port (empty if it never came).
start_host_server() {
  local log="$1" port_of="$2"
  shift 2
  # The log exists before the server starts: sed must not race the background shell's redirect
  # (under set -e its "can't read" ended the whole test).
  : >"$log"
  "$@" >"$log" 2>&1 &
  server_pid=$!
  server_port=''
  for _ in $(seq 1 100); do
    server_port=$(sed -n "$port_of" "$log")
    [ -n "$server_port" ] && return
    sleep 0.1
  done
}

# The demo's tables as dist/cli.js writes them on this machine (its own mock server on a free port).
host_demo_tables() {
  local dir="$1" pid port
  demo_data "$dir"
  start_host_server "$work/host-mock.out" 's/^listening 127\.0\.0\.1:\([0-9]*\)$/\1/p' \
    node dist/mock-server/cli.js --dir data/mock-api --port 0 --host 127.0.0.1
  pid=$server_pid port=$server_port
  node -e 'const fs = require("fs"); const [f, port] = process.argv.slice(1); const c = JSON.parse(fs.readFileSync(f));
    const u = new URL(c.parameters.api.baseUrl); u.port = port; c.parameters.api.baseUrl = u.href; fs.writeFileSync(f, JSON.stringify(c));' \
    "$dir/config.json" "$port"
  KBC_DATADIR="$dir" node dist/cli.js >"$work/host-demo.log" 2>&1 || { kill "$pid"; fail "the demo on this machine: $(tail -3 "$work/host-demo.log")"; }
  kill "$pid"
  wait "$pid" 2>/dev/null || true
}

case_demo() {
  local rc=0
  demo_data "$work/demo"
  NETWORK="container:$mock" bash scripts/image/run.sh demo "$work/demo" >/dev/null || rc=$?
  expect_rc demo "$rc" 0
  [ ! -s "$LOGS/demo.stderr" ] || fail "demo: stderr is not empty: $(head -3 "$LOGS/demo.stderr")"
  host_demo_tables "$work/host-demo"
  diff -r "$work/host-demo/out/tables" "$work/demo/out/tables" >"$work/demo.diff" || fail "demo: tables differ: $(head -20 "$work/demo.diff")"
  [ -s "$work/demo/out/state.json" ] || fail "demo: no out/state.json"
  echo "image-test: demo: $(find "$work/demo/out/tables" -type f | wc -l) files in out/tables, byte for byte as on this machine; out/state.json written"
}

# The shipped compile cache is read under the runner's uid with a fresh /tmp (Node reports each
# accepted cache with NODE_DEBUG_NATIVE). Its gain, measured inside one container so that the
# container's start does not drown it: `validate` (Node's start and the extractor's load) with a
# fresh /tmp each time, with the shipped cache and without it (EX_GENERIC_COMPILE_CACHE empty: a
# cold compile, as every job had it before); 9 runs each, interleaved, median.
case_compile_cache() {
  local rc=0 leftovers
  # Whatever the image leaves in /tmp is hidden by the runner's mount: it must be empty.
  leftovers=$(podman run --rm --entrypoint sh "$IMAGE" -c 'ls -A /tmp')
  [ -z "$leftovers" ] || fail "the image's /tmp is not empty: $leftovers"
  demo_data "$work/cache"
  NETWORK="container:$mock" FIGURES='' bash scripts/image/run.sh cache-debug "$work/cache" -e NODE_DEBUG_NATIVE=COMPILE_CACHE >/dev/null || rc=$?
  expect_rc cache-debug "$rc" 0
  grep -q 'code cache for script /app/dist/extractor.cjs was accepted' "$LOGS/cache-debug.stderr" \
    || fail "compile cache: not read: $(grep -m3 'compile cache' "$LOGS/cache-debug.stderr")"
  podman run --rm --network=none --user "$RUN_UID:$RUN_UID" --read-only --tmpfs /tmp:rw,mode=1777,notmpcopyup \
    -v "$work/cache:/data:ro" --entrypoint sh "$IMAGE" -c '
      ms() { s=$(date +%s%N); node /app/dist/cli.js validate >/dev/null || exit 1; echo $((($(date +%s%N) - s) / 1000000)); }
      for i in 1 2 3 4 5 6 7 8 9; do
        rm -rf /tmp/node-compile-cache; echo "with $(ms)"
        rm -rf /tmp/node-compile-cache; echo "without $(EX_GENERIC_COMPILE_CACHE= ms)"
      done' >"$work/cache.times" || fail "compile cache timing: $(tail -3 "$work/cache.times")"
  local with without
  with=$(awk '$1 == "with" { print $2 }' "$work/cache.times" | sort -n | sed -n 5p)
  without=$(awk '$1 == "without" { print $2 }' "$work/cache.times" | sort -n | sed -n 5p)
  echo "compile-cache          read under uid $RUN_UID; validate in one container, median of 9: ${with} ms with the shipped cache, ${without} ms without" | tee -a "$FIGURES"
}

case_conformance() {
  local harness="$root/../shared/conformance/run.mjs" example=021-basic-child-job
  if [ ! -f "$harness" ]; then
    echo "conformance            SKIPPED: $harness is missing" | tee -a "$FIGURES"
    return
  fi
  node "$harness" --only "^$example\$" --jobs 1 --cmd "bash scripts/image/run.sh conformance-$example ''" >"$work/conformance.log" 2>&1 || true
  grep -q '^1 passed' "$work/conformance.log" || fail "conformance $example: $(tail -15 "$work/conformance.log")"
  echo "image-test: conformance $example: out/tables byte for byte as its _sample_out"
}

# The bench's P1 (200 pages × 500 nested records, 34 MB of CSV; bench/server.ts on this machine,
# reached over the host's network) in a container of 96 MiB, a fifth of requiredMemory: it
# completes. Its RSS peaks near 120 MB, ~50 of them the pages of Node's binary, which the kernel
# drops under the limit; the memory guard counted them and ended such a run at its start
# ("uses 82 MiB of the container's memory limit of 96 MiB", issue 28).
case_small_container() {
  local rc=0 pid port rows
  start_host_server "$work/bench-server.out" 's/^port=\([0-9]*\)$/\1/p' node bench/server.ts --max-seconds 300
  pid=$server_pid port=$server_port
  [ -n "$port" ] || { kill "$pid"; fail "small-container: the bench's API did not start: $(cat "$work/bench-server.out")"; }
  mkdir -p "$work/small"
  node -e 'console.log(JSON.stringify({ parameters: { api: { baseUrl: `http://127.0.0.1:${process.argv[1]}/`, pagination: { method: "offset", limit: 500 } },
    config: { outputBucket: "bench", jobs: [{ endpoint: "items", dataField: "items", params: { total: 100000 } }] } } }))' "$port" >"$work/small/config.json"
  MEMORY=96m bash scripts/image/run.sh small-container "$work/small" >/dev/null || rc=$?
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  expect_rc small-container "$rc" 0
  rows=$(($(wc -l <"$work/small/out/tables/bench.items") - 1))
  [ "$rows" = 100000 ] || fail "small-container: $rows rows in bench.items, expected 100000"
  echo "image-test: small-container: 100,000 records (34 MB of CSV) in a container of 96 MiB"
}

case_sync_action() {
  local rc=0
  mkdir -p "$work/sync"
  node -e 'const c = require("./data/config.json"); console.log(JSON.stringify({ action: "test_request",
    parameters: { __SELECTED_JOB: "0", api: c.parameters.api, config: { jobs: [{ endpoint: "users" }] } } }))' >"$work/sync/config.json"
  NETWORK="container:$mock" bash scripts/image/run.sh sync-action "$work/sync" >/dev/null || rc=$?
  expect_rc sync-action "$rc" 0
  node -e 'const out = require("fs").readFileSync(process.argv[1], "utf8"); const answer = JSON.parse(out);
    if (answer.response?.status_code !== 200) throw new Error(`status ${answer.response?.status_code}`)' "$LOGS/sync-action.stdout" \
    || fail "sync-action: stdout is not one JSON answer: $(head -c 300 "$LOGS/sync-action.stdout")"
  [ -z "$(ls -A "$work/sync/out" 2>/dev/null)" ] || fail "sync-action wrote into out/"
}

case_failing_config() {
  local rc=0
  mkdir -p "$work/failing"
  node -e 'const c = require("./data/config.json"); c.parameters.config.jobs[0].endpoint = undefined; console.log(JSON.stringify(c))' \
    >"$work/failing/config.json"
  NETWORK=none bash scripts/image/run.sh failing-config "$work/failing" >/dev/null || rc=$?
  expect_rc failing-config "$rc" 1
  one_error_line failing-config "The 'endpoint' property must be set in job"
  [ -z "$(find "$work/failing" -path '*/out/*' -type f)" ] || fail "failing-config: files written under out/"
}

case_missing_config() {
  local rc=0
  mkdir -p "$work/missing"
  NETWORK=none bash scripts/image/run.sh missing-config "$work/missing" >/dev/null || rc=$?
  expect_rc missing-config "$rc" 2
  one_error_line missing-config "config.json' not found"
}

case_unwritable_data() {
  local rc=0
  demo_data "$work/unwritable"
  chown -R 0:0 "$work/unwritable"
  chmod 0755 "$work/unwritable"
  NETWORK=none OWN_DATA=0 bash scripts/image/run.sh unwritable-data "$work/unwritable" >/dev/null || rc=$?
  expect_rc unwritable-data "$rc" 1
  one_error_line unwritable-data "The data folder cannot be written: /data is not writable by this process (uid $RUN_UID, gid $RUN_UID)"
  [ ! -e "$work/unwritable/out" ] || fail "unwritable-data: out/ was made"
}
