#!/usr/bin/env bash
# govulncheck over the repository (issue 9), with its vulnerability database built from the
# Go module proxy: vuln.go.dev does not resolve where we build, proxy.golang.org does, and it
# serves the database's source, the golang.org/x/vulndb module (data/osv/GO-*.json, BSD).
#
#   scripts/govulncheck.sh [package patterns]      (default ./...; `make govulncheck`)
#
# 1. installs the pinned govulncheck (go install, through the proxy) once per version;
# 2. downloads the pinned golang.org/x/vulndb (go mod download, checksum-verified by sum.golang.org);
# 3. once per pinned version, builds the v1 database with tools/vulndb and checks it with
#    vulndb's own validator (cmd/checkdb: database.Load, the format vuln.go.dev serves);
# 4. prints the database date and runs `govulncheck -db file://...` (symbol level, its default).
# Exit status: govulncheck's (0 clean, 3 a vulnerability our code reaches), else 1.
# Everything lives under ${EINVOICE_VULNDB_CACHE:-~/.cache/einvoice-vulndb}, keyed by the pins;
# nothing is written into the repository.
#
# Bumping the pins (docs/SECURITY.md):
#   VULNDB_VERSION       go mod download -json golang.org/x/vulndb@master   ("Version")
#   GOVULNCHECK_VERSION  go list -m -versions golang.org/x/vuln, the newest that installs:
#                        v1.9.0 does not (the proxy answers 403 for the golang.org/x/telemetry
#                        pseudo-version it requires)
# then run this script and `go test ./tools/vulndb` (its tests read GOVULNCHECK_VERSION here).
set -euo pipefail

VULNDB_VERSION=v0.0.0-20260813214354-9de686e1fb00
GOVULNCHECK_VERSION=v1.8.0

GO=${GO:-go}
repo=$(cd "$(dirname "$0")/.." && pwd)
cache=${EINVOICE_VULNDB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/einvoice-vulndb}
bin=$cache/govulncheck-$GOVULNCHECK_VERSION/govulncheck
db=$cache/db-$VULNDB_VERSION
mkdir -p "$cache"
export GOWORK=off

if [[ ! -x $bin ]]; then
  echo "govulncheck.sh: installing golang.org/x/vuln/cmd/govulncheck@$GOVULNCHECK_VERSION" >&2
  (cd "$cache" && GOBIN=$(dirname "$bin") $GO install "golang.org/x/vuln/cmd/govulncheck@$GOVULNCHECK_VERSION")
fi

if [[ ! -f $db/index/db.json ]]; then
  src=$(cd "$cache" && $GO mod download -json "golang.org/x/vulndb@$VULNDB_VERSION" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')
  [[ -d $src/data/osv ]] || { echo "govulncheck.sh: golang.org/x/vulndb@$VULNDB_VERSION has no data/osv ($src)" >&2; exit 1; }
  work=$(mktemp -d "$cache/.build-XXXXXX")
  trap 'rm -rf "$work"' EXIT
  (cd "$repo" && $GO run ./tools/vulndb -osv "$src/data/osv" -version "$VULNDB_VERSION" -out "$work/db")
  echo "govulncheck.sh: checking the database with golang.org/x/vulndb/cmd/checkdb" >&2
  $GO -C "$src" run ./cmd/checkdb "$work/db"
  # A concurrent run may have put the same database in place first.
  mv -T "$work/db" "$db" 2>/dev/null || [[ -f $db/index/db.json ]]
fi

modified=$(sed -n 's/^{"modified":"\([^"]*\)"}$/\1/p' "$db/index/db.json")
[[ -n $modified ]] || { echo "govulncheck.sh: no date in $db/index/db.json" >&2; exit 1; }
entries=$(find "$db/ID" -name '*.json' | wc -l)
age=$(( ($(date -u +%s) - $(date -u -d "$modified" +%s)) / 86400 ))
echo "govulncheck.sh: database golang.org/x/vulndb@$VULNDB_VERSION, modified $modified ($age days ago), $entries entries"
echo "govulncheck.sh: govulncheck $GOVULNCHECK_VERSION, $($GO env GOVERSION)"

cd "$repo"
status=0
"$bin" -db "file://$db" "${@:-./...}" || status=$?
if (( status != 0 )); then
  echo "govulncheck.sh: FAILED (exit $status): fix by upgrading the module (go get module@fixed) or Go; see docs/SECURITY.md" >&2
fi
exit "$status"
