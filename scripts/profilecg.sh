#!/usr/bin/env bash
# Instructions of one step of each profile's rule sets (issue 4's profile rows), counted by
# callgrind: rulesets' BenchmarkProfileSteps (the documents of scripts/profilebench.sh; parse and
# XSD excluded), N steps inside rulesets.profileStep, divided (a b.Loop benchmark runs its body
# once: no extra run of one). Unlike a timing on a shared
# machine, the count does not move with the load (repeatable to ~0.02 %): compare two commits
# with it, then time them against the reference with scripts/profilebench.sh.
#
#   scripts/profilecg.sh                       N=100 JOBS=2, every profile
#   ONLY='cii_br_fr|ubl_xrechnung' scripts/profilecg.sh
#   PGO=tools/einvoice/default.pgo scripts/profilecg.sh   built with that profile, as make build
#                                              builds the product (default: a plain build, so
#                                              that two commits compare on the same footing)
#
# Needs valgrind, the generated rule tables (make generate) and ../shared (or EINVOICE_SHARED).
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=$(cd "${EINVOICE_SHARED:-../shared}" && pwd)
export EINVOICE_SHARED=$SHARED
N=${N:-100}
JOBS=${JOBS:-2}
ONLY=${ONLY:-.*}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c ${PGO:+-pgo="$(cd "$(dirname "$PGO")" && pwd)/$(basename "$PGO")"} -o "$tmp/rulesets.test" ./rulesets
# The profiles, as the benchmark names them (one quick step each, outside callgrind).
names=$(cd rulesets && "$tmp/rulesets.test" -test.run '^$' -test.bench '^BenchmarkProfileSteps$' -test.benchtime 1x |
  sed -n 's|^BenchmarkProfileSteps/\([a-z_0-9]*\).*|\1|p' | grep -E "^($ONLY)\$")
count() {
  (cd rulesets && GOGC=off GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file="$tmp/$1.out" \
    --toggle-collect='github.com/einvoice-dev/einvoice/rulesets.profileStep' "$tmp/rulesets.test" -test.run '^$' \
    -test.bench "^BenchmarkProfileSteps\$/^$1\$" -test.cpu 1 -test.benchtime "${N}x" >/dev/null 2>&1)
  awk -v n="$N" -v c="$1" '/^summary/ {printf "%s %.0f\n", c, $2 / n; exit}' "$tmp/$1.out"
}
export -f count
export tmp N
echo "$names" | xargs -P "$JOBS" -I{} bash -c 'count {}' | sort
