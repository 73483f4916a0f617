#!/usr/bin/env bash
# Runs one example app's tests against a live bgemu: starts the debug service (built by `swift build` in the
# repository's root) on a free loopback port with a throw-away database, points BGEMU_URL and BGEMU_API_KEY at it,
# and runs `swift test` in Examples/NAME. Extra arguments go to `swift test` (e.g. `--filter Refresh`).
# Usage, from the repository's root: Examples/test-against-bgemu.sh NAME [swift test arguments]
# (each example's own test-against-bgemu.sh calls this with its name).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 NAME [swift test arguments]" >&2; exit 2; }
example="$1"
shift
cd "$(dirname "$0")/.."
[ -d "Examples/$example" ] || { echo "no example Examples/$example" >&2; exit 2; }
BIN=.build/debug/bgemu
NAME="$(echo "$example" | tr '[:upper:]' '[:lower:]')"
[ -x "$BIN" ] || { echo "$NAME: $BIN not built (run swift build)" >&2; exit 1; }
# shellcheck source=../Tests/Contract/live-service.sh
. Tests/Contract/live-service.sh
export BGEMU_URL="$BASE" BGEMU_API_KEY="$API_KEY"
swift test --package-path "Examples/$example" "$@"
