#!/usr/bin/env bash
# Load run on loopback with wrk (Debian package): starts a throw-away server with its own data
# directory, issues a key, and drives the given routes for DURATION each. Bounded in time; only
# 127.0.0.1 is ever targeted.
#
#   scripts/loadtest.sh [DURATION]          default 60s
#   THREADS=2 CONNS=32 scripts/loadtest.sh 30s
#
# Prints wrk's summary (requests/s, latency distribution incl. p99) per route.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-60s}
THREADS=${THREADS:-2}
CONNS=${CONNS:-32}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
BIN=${BIN:-bin/einvoice}
[ -x "$BIN" ] || make build >/dev/null
work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# A generous rate limit: this run measures the server, not the limiter.
EINVOICE_RATE_LIMIT=1000000 EINVOICE_RATE_BURST=1000000 \
  "$BIN" serve --addr "127.0.0.1:$port" --data-dir "$work/data" >"$work/server.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break; sleep 0.1; done
key=$("$BIN" keys create --name loadtest --data-dir "$work/data" | tail -n 1)
base="http://127.0.0.1:$port"

# Every run counts responses per HTTP status (the summary's "Non-2xx" line
# cannot tell an expected 501 from a 401 or a 5xx).
status_lua() {
  cat <<'LUA'
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) statuses = {} end
function response(status, headers, body) statuses[status] = (statuses[status] or 0) + 1 end
function done(summary, latency, requests)
  local total = {}
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("statuses")) do total[k] = (total[k] or 0) + v end
  end
  for k, v in pairs(total) do io.write(string.format("status %d: %d\n", k, v)) end
end
LUA
}

post_lua() { # $1 content type, $2 body file, $3 api key (may be empty)
  status_lua
  cat <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "$1"
$( [ -n "$3" ] && echo "wrk.headers[\"x-api-key\"] = \"$3\"" )
local f = io.open("$2", "rb"); wrk.body = f:read("*a"); f:close()
LUA
}

run() { # $1 label, rest: wrk args
  local label=$1; shift
  echo "== $label ($DURATION, $THREADS threads, $CONNS connections)"
  wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency "$@"
}

ROUTES=${ROUTES:-health,protected501,validate}
IFS=, read -ra want <<<"$ROUTES"
for r in "${want[@]}"; do
  case $r in
    health)
      status_lua >"$work/h.lua"
      run "GET /health" -s "$work/h.lua" "$base/health" ;;
    protected501)
      echo '{"invoice":{}}' >"$work/body.json"
      post_lua application/json "$work/body.json" "$key" >"$work/p.lua"
      run "POST /v1/generate/facturae (protected, not landed: 501)" -s "$work/p.lua" "$base/v1/generate/facturae" ;;
    validate)
      doc=${DOC:-${EINVOICE_SHARED:-../shared}/corpus/en16931/ubl/examples/ubl-tc434-example1.xml}
      post_lua application/xml "$doc" "" >"$work/v.lua"
      run "POST /v1/validate/ubl?profile=en16931 ($(basename "$doc"))" -s "$work/v.lua" "$base/v1/validate/ubl?profile=en16931" ;;
    generate) # a 10-line invoice in the canonical model; totals computed by the server
      python3 - "$work/g.json" <<'PY'
import json, sys
lines = [{"id": str(i), "quantity": str(i), "unit_code": "H87", "net_price": "%d.50" % (10 + i),
          "vat_category_code": "S", "vat_rate": "19", "item": {"name": "Item %d" % i}} for i in range(1, 11)]
inv = {"id": "LOAD-1", "issue_date": "2026-11-21", "type_code": "380", "currency_code": "EUR",
       "due_date": "2026-12-21", "buyer_reference": "LOAD", "payment_terms": "Net 30 days",
       "seller": {"name": "Seller GmbH", "vat_id": "DE123456789", "electronic_address": {"id": "4000001000005", "scheme_id": "0088"},
                  "address": {"line1": "Hauptstr. 1", "city": "Berlin", "post_code": "10115", "country_code": "DE"}},
       "buyer": {"name": "Buyer BV", "electronic_address": {"id": "4000001000012", "scheme_id": "0088"},
                 "address": {"line1": "Kade 2", "city": "Amsterdam", "post_code": "1011", "country_code": "NL"}},
       "payment_instructions": {"means_code": "58", "credit_transfers": [{"account_id": "DE89370400440532013000"}]},
       "lines": lines}
json.dump({"invoice": inv}, open(sys.argv[1], "w"))
PY
      post_lua application/json "$work/g.json" "$key" >"$work/g.lua"
      IFS=, read -ra profs <<<"${GEN_PROFILES:-en16931,peppol}"
      for prof in "${profs[@]}"; do
        run "POST /v1/generate/ubl?profile=$prof (10 lines, validated)" -s "$work/g.lua" "$base/v1/generate/ubl?profile=$prof"
      done ;;
  esac
done
