#!/usr/bin/env bash
# Soak (issue 9, long form): starts a throw-away server (own SQLite data directory, loopback
# only), issues a key, measures the maximum rate of the mixed load with a ramp (tools/loadmix:
# steps of RAMP_STEP, x1.25, until p99 > 1 s or any 5xx), then runs the mix at FRACTION of it
# for DURATION, sampling /metrics every 10 s. Exits 1 on any 5xx, RSS or goroutines growing
# > 10 % after warm-up, or p99 drift (tools/loadmix/mix.DefaultBounds).
#
#   scripts/reliability/soak.sh [DURATION]        default 30m
#   FRACTION=0.7 RAMP_STEP=15s BIN=bin/einvoice SHARED=../shared scripts/reliability/soak.sh 30m
#
# The whole output (ramp, samples, table) is also written to $OUT (default soak-<date>.txt).
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION=${1:-30m}
FRACTION=${FRACTION:-0.7}
RAMP_STEP=${RAMP_STEP:-15s}
BIN=${BIN:-bin/einvoice}
SHARED=${SHARED:-../shared}
OUT=${OUT:-soak-$(date -u +%Y%m%dT%H%M%SZ).txt}
[ -x "$BIN" ] || make build >/dev/null
work=$(mktemp -d)
go build -o "$work/loadmix" ./tools/loadmix
"$BIN" serve --addr 127.0.0.1:0 --data-dir "$work/data" --shared "$SHARED" >"$work/server.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT
addr=""
for _ in $(seq 600); do
  addr=$(sed -n 's/.*"msg":"listening".*"addr":"\([^"]*\)".*/\1/p' "$work/server.log" | head -n1)
  [ -n "$addr" ] && break
  kill -0 $pid 2>/dev/null || { cat "$work/server.log" >&2; exit 2; }
  sleep 0.2
done
[ -n "$addr" ] || { echo "soak: server did not listen" >&2; exit 2; }
key=$("$BIN" keys create --name soak --data-dir "$work/data" | tail -n 1)
echo "soak: server pid $pid on $addr; $DURATION at $FRACTION of the maximum; output in $OUT" >&2
set +e
"$work/loadmix" -url "http://$addr" -key "$key" -shared "$SHARED" -ramp -ramp-step "$RAMP_STEP" \
  -soak "$FRACTION" -duration "$DURATION" -sample 10s | tee "$OUT"
rc=${PIPESTATUS[0]}
set -e
echo "soak: loadmix exit $rc; server max RSS (VmHWM): $(grep VmHWM /proc/$pid/status | awk '{print $2, $3}')" | tee -a "$OUT"
exit "$rc"
