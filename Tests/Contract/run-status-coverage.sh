#!/usr/bin/env bash
# Status coverage: start the debug binary on a free port with a throw-away database, then provoke every
# (method, path, status) the contract documents and check each answer against its documented response
# (Tests/Contract/status_coverage.py). Exits non-zero when a documented status is not provoked, a provocation
# gets another status, an answer is off its schema, or a recipe provokes a status the contract does not list.
# Usage: Tests/Contract/run-status-coverage.sh [status_coverage.py options, such as --only REGEX or --strict]
#        (from the repository's root, after `swift build`)
set -euo pipefail
cd "$(dirname "$0")/../.."

BIN=${BGEMU_BIN:-.build/debug/bgemu}
[ -x "$BIN" ] || { echo "run-status-coverage: $BIN not built (run swift build)" >&2; exit 1; }
python3 -c 'import yaml, jsonschema, referencing' 2>/dev/null \
    || { echo "run-status-coverage: needs PyYAML and jsonschema (pip install schemathesis brings both)" >&2; exit 1; }

WORK=$(mktemp -d)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
API_KEY="bgemu_coverage_$(date +%s)_$$"
ADMIN_TOKEN="admin_coverage_$(date +%s)_$$"
BASE="http://127.0.0.1:$PORT"

BGEMU_API_KEY="$API_KEY" "$BIN" serve --host 127.0.0.1 --port "$PORT" --database "$WORK/bgemu.sqlite" \
    --admin-token "$ADMIN_TOKEN" --openapi openapi.yaml --log-level warning >"$WORK/server.log" 2>&1 &
SERVER=$!
cleanup() {
    kill "$SERVER" 2>/dev/null || true
    wait "$SERVER" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

for _ in $(seq 1 300); do   # up to 30 s
    curl -fsS "$BASE/healthz" >/dev/null 2>&1 && break
    kill -0 "$SERVER" 2>/dev/null || { cat "$WORK/server.log" >&2; echo "run-status-coverage: the service exited" >&2; exit 1; }
    sleep 0.1
done
curl -fsS "$BASE/healthz" >/dev/null || { cat "$WORK/server.log" >&2; echo "run-status-coverage: /healthz never answered" >&2; exit 1; }

status=0
# Bounded: a hung run fails CI after 5 minutes instead of eating its budget (a run takes well under one).
timeout 300 python3 Tests/Contract/status_coverage.py --base "$BASE" --api-key "$API_KEY" \
    --admin-token "$ADMIN_TOKEN" --bin "$BIN" --spec openapi.yaml "$@" || status=1

if ! kill -0 "$SERVER" 2>/dev/null; then
    echo "run-status-coverage: the service died during the run" >&2; cat "$WORK/server.log" >&2; status=1
fi
exit "$status"
