#!/usr/bin/env bash
# Runs the scene-based example app's tests against a live bgemu: starts the debug service (built by `swift build` in the
# repository's root) on a free loopback port with a throw-away database, points BGEMU_URL and BGEMU_API_KEY at it,
# and runs `swift test` in Examples/SceneApp. Extra arguments go to `swift test` (e.g. `--filter Refresh`).
# Usage, from the repository's root: Examples/SceneApp/test-against-bgemu.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=.build/debug/bgemu
NAME=sceneapp
[ -x "$BIN" ] || { echo "$NAME: $BIN not built (run swift build)" >&2; exit 1; }
# shellcheck source=../../Tests/Contract/live-service.sh
. Tests/Contract/live-service.sh
export BGEMU_URL="$BASE" BGEMU_API_KEY="$API_KEY"
swift test --package-path Examples/SceneApp "$@"
