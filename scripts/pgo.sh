#!/usr/bin/env bash
# Records the CPU profile the product is built with (Go profile-guided optimisation): the
# training workload httpapi/ops/engineval's BenchmarkPGOTraining (every UBL, CII and Order-X
# document of the corpus through every profile the service offers, the profile benchmarks'
# own documents held out), PGO_TIME long, on one CPU. Writes OUT (default
# tools/einvoice/default.pgo, git-ignored: a build output, like the rule tables), which
# `make build` passes to `go build -pgo`. See docs/PERFORMANCE.md "Profile-guided build".
#
#   scripts/pgo.sh [OUT]          PGO_TIME=30s
#
# Needs the generated rule tables (make generate) and ../shared (or EINVOICE_SHARED).
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=$(cd "${EINVOICE_SHARED:-../shared}" && pwd)
export EINVOICE_SHARED=$SHARED
OUT=${1:-tools/einvoice/default.pgo}
PGO_TIME=${PGO_TIME:-30s}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/engineval.test" ./httpapi/ops/engineval
if ! (cd httpapi/ops/engineval && "$tmp/engineval.test" -test.run '^$' -test.bench '^BenchmarkPGOTraining$' \
  -test.benchtime "$PGO_TIME" -test.cpu 1 -test.cpuprofile "$tmp/default.pgo") >"$tmp/log" 2>&1; then
  cat "$tmp/log" >&2
  echo "pgo: the training workload failed" >&2
  exit 1
fi
grep '^BenchmarkPGOTraining' "$tmp/log" >&2 || true
# Replaced in one rename, so that a build reading OUT never sees half a profile.
cp "$tmp/default.pgo" "$OUT.tmp"
mv -f "$OUT.tmp" "$OUT"
