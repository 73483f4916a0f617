#!/usr/bin/env bash
# Runs one example app's tests against a live bgemu: starts the debug service (built by `swift build` in the
# repository's root) on a free loopback port with a throw-away database, points BGEMU_URL and BGEMU_API_KEY at it,
# and runs `swift test` in Examples/NAME. Extra arguments go to `swift test` (e.g. `--filter Refresh`).
# Usage, from the repository's root: Examples/test-against-bgemu.sh NAME [swift test arguments]
# (each example's own test-against-bgemu.sh calls this with its name).
# BGEMU_EXAMPLES_SCRATCH_PATH=DIR builds every example in DIR instead of its own .build: the examples share bgemu's
# modules, so the second and later build only their own code (CI runs them all this way).
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
# An example with an `.xcconfig` gets its Info.plist, those build settings expanded, beside its test executable:
# Foundation on Linux reads the main bundle's Info.plist from the executable's folder, so that
# `Bundle.main.bundleIdentifier` answers the app's id in the test process.
scratch=()
[ -n "${BGEMU_EXAMPLES_SCRATCH_PATH:-}" ] && scratch=(--scratch-path "$BGEMU_EXAMPLES_SCRATCH_PATH")
for config in "Examples/$example"/*.xcconfig; do
  [ -f "$config" ] && [ -f "Examples/$example/Info.plist" ] || continue
  bin="$(swift build --package-path "Examples/$example" "${scratch[@]}" --show-bin-path)"
  # In a shared folder the next example's tests would read this app's Info.plist: it goes once the tests have run.
  [ ${#scratch[@]} -eq 0 ] || shared_plist="$bin/Info.plist"
  mkdir -p "$bin"
  expand=()
  while IFS='=' read -r key value; do
    key="$(echo "$key" | tr -d '[:space:]')"
    value="$(echo "$value" | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//')"
    [[ "$key" =~ ^[A-Z_][A-Z0-9_]*$ ]] && expand+=(-e "s|\$($key)|$value|g")
  done < <(grep -v '^[[:space:]]*//' "$config")
  sed "${expand[@]}" "Examples/$example/Info.plist" > "$bin/Info.plist"
done
status=0
swift test --package-path "Examples/$example" "${scratch[@]}" "$@" || status=$?
[ -z "${shared_plist:-}" ] || rm -f "$shared_plist"
exit "$status"
