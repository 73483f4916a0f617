#!/usr/bin/env bash
# Contract fuzzing: start the debug binary on a free port with a throw-away database, then let schemathesis
# test every operation of the live contract (GET /openapi.yaml). Exits non-zero when schemathesis finds a
# problem (a 5xx, a response off its schema, an undocumented status, content type or header).
# Usage: Tests/Contract/run-schemathesis.sh [extra `st run` options]   (from the repository's root, after `swift build`)
set -euo pipefail
cd "$(dirname "$0")/../.."

BIN=${BGEMU_BIN:-.build/debug/bgemu}
[ -x "$BIN" ] || { echo "run-schemathesis: $BIN not built (run swift build)" >&2; exit 1; }
# `python3 -m schemathesis.cli` is `st` without relying on pip's script folder being on PATH.
python3 -m schemathesis.cli --version >/dev/null 2>&1 || { echo "run-schemathesis: schemathesis not installed (pip install schemathesis)" >&2; exit 1; }
# Each run is bounded (about 45 s here for run 1): a hung run fails CI after 10 minutes instead of eating its budget.
st() { timeout 600 python3 -m schemathesis.cli --config-file Tests/Contract/schemathesis.toml "$@"; }

NAME=run-schemathesis
source Tests/Contract/live-service.sh

CHECKS=not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance,response_headers_conformance
CHECKS+=,unsupported_method,allow_header_conformance,missing_required_header,ignored_auth
# Valid data is accepted and invalid data refused (the exceptions, with their reasons, are in schemathesis.toml).
CHECKS+=,positive_data_acceptance,negative_data_rejection
COMMON=(--checks "$CHECKS" --seed 20261121 --generation-database none
        --max-examples "${ST_MAX_EXAMPLES:-10}" --request-timeout 10 --workers 1
        --suppress-health-check all --no-color --warnings off)

status=0
# Run 1: the tenant routes with the tenant's API key (the admin routes and /metrics are left to run 2).
st run "$BASE/openapi.yaml" -H "Authorization: Bearer $API_KEY" --exclude-path-regex '^(/v1/admin|/metrics$)' \
    "${COMMON[@]}" "$@" || status=1
# Run 2: the admin routes and /metrics with the admin token.
st run "$BASE/openapi.yaml" -H "Authorization: Bearer $ADMIN_TOKEN" --include-path-regex '^(/v1/admin|/metrics$)' \
    "${COMMON[@]}" "$@" || status=1

if ! kill -0 "$SERVER" 2>/dev/null; then
    echo "run-schemathesis: the service died during the run" >&2; cat "$WORK/server.log" >&2; status=1
fi
if [ "$status" -ne 0 ]; then echo "run-schemathesis: schemathesis found problems" >&2; fi
exit "$status"
