#!/usr/bin/env bash
# Every profile against the reference, in the same run (issue 4): for each profile of DECISIONS.md,
# on its example document (internal/profilecases), runs
#   1. ours: BenchmarkProfiles/<profile>/Whole (informative), then <profile>/Schematron (-cpu 1,
#      CPU time per op), then
#   2. the reference: the same .sch stages, in order, through `oracle.jar bench` (Saxon-HE, warm,
#      median of N transforms, parse excluded), then
#   3. ours again (Schematron),
# one profile after the other, so both sides of a row ran in the same minute. Prints a Markdown
# table (ratio = reference median / our CPU per op; the target is 30x) and the load average.
#
#   scripts/profilebench.sh                  BENCHTIME=1000x COUNT=5 WHOLETIME=100x N=500 WARMUP=500 SETTLE=2
#   ONLY='cii_xrechnung|ubl_peppol' scripts/profilebench.sh
#
# Our side is built as the product is (make build): with the profile-guided build's profile,
# PGO (default tools/einvoice/default.pgo, made by make pgo; PGO=off for a plain build).
# Needs the generated rule tables (make generate), ../shared (or EINVOICE_SHARED) and the oracle
# jar (make oracle). Raw outputs are kept in $OUT (default a new temp directory).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
SHARED=$(cd "${EINVOICE_SHARED:-../shared}" && pwd)
export EINVOICE_SHARED=$SHARED
BENCHTIME=${BENCHTIME:-1000x}
# Our side is the median of 2 x COUNT counts of BENCHTIME ops (~0.1-0.3 s each), COUNT before the
# reference and COUNT after it, each count a process of its own; the reference's the median of N
# transforms after WARMUP, which take several seconds. On this VM one of the two vCPUs runs our
# single-threaded benchmark at up to twice its time on the other, for tens of seconds at a time
# (`taskset -c 0`: 131-138 µs a document on RO_CIUS, `-c 1`: 122-240 µs), and a process tends
# to stay on one vCPU, while the reference's threads move between both over its seconds of
# transforms (pinned to either it gave 6.2-7.0 ms, unpinned 6.7). So ours is sampled in as many
# processes as counts, around the reference's run. SETTLE seconds of quiet before each side.
COUNT=${COUNT:-5}
WHOLETIME=${WHOLETIME:-100x}
SETTLE=${SETTLE:-2}
N=${N:-500}
WARMUP=${WARMUP:-500}
ONLY=${ONLY:-.*}
JAR=$root/conformance/oracle/target/oracle.jar
CACHE=$root/conformance/oracle/target/cache
[ -f "$JAR" ] || { echo "profilebench: $JAR missing: run make oracle" >&2; exit 1; }
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"

PGO=${PGO:-tools/einvoice/default.pgo}
if [ "$PGO" != off ]; then
  [ -f "$PGO" ] || { echo "profilebench: $PGO missing: run make pgo (or PGO=off)" >&2; exit 1; }
  PGO=$(cd "$(dirname "$PGO")" && pwd)/$(basename "$PGO")
fi
go test -c -pgo="$PGO" -o "$OUT/engineval.test" ./httpapi/ops/engineval
pkg=$root/httpapi/ops/engineval
# The cases and the .sch stages our profile ran on each document (the test fails if a document
# has not the verdict the case declares).
(cd "$pkg" && PROFILEBENCH_LIST=1 "$OUT/engineval.test" -test.run '^TestProfileBenchCases$') |
  grep '^PROFILE ' | grep -E "^PROFILE ($ONLY) " >"$OUT/cases"

# median of the numbers on stdin
median() { sort -g | awk '{v[NR]=$1} END {if (NR) print v[int((NR+1)/2)]}'; }
# metric BENCH FILE UNIT: the values of UNIT for sub-benchmark BENCH, one per count
metric() {
  awk -v b="BenchmarkProfiles/$1" -v u="$3" '$1 ~ "^"b"(-[0-9]+)?$" {for (i = 2; i <= NF; i++) if ($(i+1) == u) print $i}' "$2"
}
ms() { awk '{printf "%.3f", $1 / 1e6}'; }

load_before=$(uptime)
started=$(date -u +%H:%M:%S)
# ours PROFILE: COUNT counts of our Schematron step, each a process of its own, after SETTLE s.
ours() {
  sleep "$SETTLE"
  for _ in $(seq "$COUNT"); do
    (cd "$pkg" && "$OUT/engineval.test" -test.run '^$' -test.bench "^BenchmarkProfiles\$/^$1\$/Schematron" \
      -test.cpu 1 -test.benchtime "$BENCHTIME")
  done
}
rows=()
while read -r _ name version doc stages; do
  # Ours, the reference, ours again, for this profile; the whole validation (informative) once.
  (cd "$pkg" && "$OUT/engineval.test" -test.run '^$' -test.bench "^BenchmarkProfiles\$/^${name}\$/Whole" \
    -test.cpu 1 -test.benchtime "$WHOLETIME" -test.count 3) >"$OUT/$name.go.txt"
  ours "$name" >>"$OUT/$name.go.txt"
  sch=()
  for s in $stages; do sch+=(--sch "$s"); done
  sleep "$SETTLE"
  (cd "$SHARED" && java -jar "$JAR" bench --cache "$CACHE" "${sch[@]}" --n "$N" --warmup "$WARMUP" "$doc") \
    >"$OUT/$name.ref.json"
  ours "$name" >>"$OUT/$name.go.txt"
  sch_cpu=$(metric "$name/Schematron" "$OUT/$name.go.txt" cpu-ns/op | median)
  sch_min=$(metric "$name/Schematron" "$OUT/$name.go.txt" min-ns/op | median)
  whole_cpu=$(metric "$name/Whole" "$OUT/$name.go.txt" cpu-ns/op | median)
  ref_med=$(sed -E 's/.*"median_ms":([0-9.]+).*/\1/' "$OUT/$name.ref.json")
  ref_min=$(sed -E 's/.*"min_ms":([0-9.]+).*/\1/' "$OUT/$name.ref.json")
  ratio=$(awk -v r="$ref_med" -v o="$sch_cpu" 'BEGIN {printf "%.1f", r * 1e6 / o}')
  ratio_whole=$(awk -v r="$ref_med" -v o="$whole_cpu" 'BEGIN {printf "%.1f", r * 1e6 / o}')
  meets=$(awk -v x="$ratio" 'BEGIN {print (x >= 30) ? "yes" : "**no**"}')
  nstages=$(wc -w <<<"$stages")
  rows+=("| ${name/_//} $version | \`${doc#corpus/}\` | $nstages | $(ms <<<"$sch_cpu") (min $(ms <<<"$sch_min")) | $(ms <<<"$whole_cpu") | $ref_med (min $ref_min) | **${ratio}×** | ${ratio_whole}× | $meets |")
  echo "profilebench: $name done ($(date -u +%H:%M:%S), $(uptime | sed 's/.*load/load/'))" >&2
done <"$OUT/cases"
load_after=$(uptime)

echo "Run $(date -u +%F) $started–$(date -u +%H:%M:%S) UTC; BENCHTIME=$BENCHTIME COUNT=$COUNT (before and after the reference) WHOLETIME=$WHOLETIME N=$N WARMUP=$WARMUP SETTLE=$SETTLE; built with -pgo=$PGO; raw outputs in $OUT"
echo "Load before: $load_before"
echo "Load after:  $load_after"
echo
echo "| profile | document (shared/corpus) | .sch stages | ours: Schematron step, CPU ms/op (median of the counts before and after) | ours: whole validation, CPU ms/op | reference: Schematron stages, median ms | ratio (Schematron) | ratio (our whole vs their Schematron) | ≥ 30× |"
echo "|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
