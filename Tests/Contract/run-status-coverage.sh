#!/usr/bin/env bash
# Status coverage: start the debug binary on a free port with a throw-away database, then provoke every
# (method, path, status) the contract documents and check each answer against its documented response
# (Tests/Contract/status_coverage.py). Exits non-zero when a documented status is not provoked, a provocation
# gets another status, an answer is off its schema, or a recipe provokes a status the contract does not list.
# Usage: Tests/Contract/run-status-coverage.sh [status_coverage.py options, such as --only REGEX]
#        (from the repository's root, after `swift build`)
set -euo pipefail
cd "$(dirname "$0")/../.."

BIN=${BGEMU_BIN:-.build/debug/bgemu}
[ -x "$BIN" ] || { echo "run-status-coverage: $BIN not built (run swift build)" >&2; exit 1; }
python3 -c 'import yaml, jsonschema, referencing' 2>/dev/null \
    || { echo "run-status-coverage: needs PyYAML and jsonschema (pip install schemathesis brings both)" >&2; exit 1; }

NAME=run-status-coverage
source Tests/Contract/live-service.sh

status=0
# Bounded: a hung run fails CI after 5 minutes instead of eating its budget (a run takes well under one).
timeout 300 python3 Tests/Contract/status_coverage.py --base "$BASE" --api-key "$API_KEY" \
    --admin-token "$ADMIN_TOKEN" --bin "$BIN" --spec openapi.yaml "$@" || status=1

if ! kill -0 "$SERVER" 2>/dev/null; then
    echo "run-status-coverage: the service died during the run" >&2; cat "$WORK/server.log" >&2; status=1
fi
exit "$status"
