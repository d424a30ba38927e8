#!/usr/bin/env bash
# Property-based API testing with schemathesis (from PyPI) against /openapi.json, with a valid key.
# Usage: scripts/schemathesis.sh BINARY SHARED_DIR [EXAMPLES] [MAX_TIME_SECONDS]
# Checks: no server error (5xx; the documented 501 of a not-landed operation is listed, not failed), status codes, content types and bodies conform to the document.
# The quick form (make test) runs a few examples per operation; `make reliability` runs many.
set -euo pipefail
bin=$(realpath "$1"); shared=$(realpath "$2"); examples=${3:-10}; maxtime=${4:-300}
here=$(cd "$(dirname "$0")" && pwd)
venv=${EINVOICE_ST_VENV:-$HOME/.cache/einvoice-schemathesis}
if [ ! -x "$venv/bin/st" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q 'schemathesis==4.32.5'
fi
work=$(mktemp -d); trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; rm -rf "$work"' EXIT
key=$("$bin" keys create --name schemathesis --data-dir "$work/data" | tail -n 1)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$bin" serve --addr "127.0.0.1:$port" --data-dir "$work/data" --shared "$shared" --log-level warn 2>"$work/serve.log" &
pid=$!
for _ in $(seq 1 100); do curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break; sleep 0.1; done
export EINVOICE_ST_NOT_LANDED="$work/not-landed.txt"
rc=0
cd "$work" # schemathesis keeps its state under the working directory
# One worker: with two, schemathesis's data generation (Hypothesis describing its strategies with
# ast.parse on two threads) hit CPython 3.11's thread-unsafe AST recursion counter once in a CI run
# ("SystemError: AST constructor recursion depth mismatch", python/cpython#106905), an error of the
# tool's generator that fails the run although every request passed its checks.
SCHEMATHESIS_HOOKS="$here/schemathesis/hooks.py" "$venv/bin/st" run "http://127.0.0.1:$port/openapi.json" \
  -H "x-api-key:$key" \
  --checks no_server_error_but_not_landed,status_code_conformance,content_type_conformance,response_schema_conformance \
  --max-examples "$examples" --max-time "$maxtime" --seed "${ST_SEED:-20261121}" --workers 1 \
  --phases examples,coverage,fuzzing --suppress-health-check all --request-timeout 60 || rc=$?
if [ -s "$work/not-landed.txt" ]; then
  sort -u "$work/not-landed.txt" | sed 's/^/schemathesis: not landed (501), only input checks tested: /' >&2
fi
if grep -q '"level":"ERROR"' "$work/serve.log"; then
  echo "schemathesis: the server logged errors:" >&2; grep '"level":"ERROR"' "$work/serve.log" | head -20 >&2; exit 1
fi
exit $rc
