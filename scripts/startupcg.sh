#!/bin/bash
# Instructions of one server start, exec to the "rule sets and schemas compiled" log line
# (issue 4's start-up figure, without the machine's load in it): runs `BINARY serve` under
# callgrind on one core, dumps the counts when the line appears, then kills the server.
#
# usage: scripts/startupcg.sh BINARY OUT [VAR=value...]   (SHARED=../shared by default)
#   prints the instruction total; OUT.<pid>.1 is the callgrind file (callgrind_annotate it)
set -euo pipefail
bin=$1 out=$2
shift 2
shared=${SHARED:-../shared}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
env "$@" GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file="$out.%p" \
  "$bin" serve --addr 127.0.0.1:0 --data-dir "$dir/data" --shared "$shared" > "$dir/log" 2>&1 &
pid=$!
for _ in $(seq 1 6000); do
  grep -q 'schemas compiled' "$dir/log" && break
  kill -0 "$pid" 2>/dev/null || { cat "$dir/log" >&2; exit 1; }
  sleep 0.02
done
callgrind_control -d "$pid" > /dev/null 2>&1
sleep 2
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
callgrind_annotate "$out.$pid.1" 2>/dev/null | grep 'PROGRAM TOTALS'
