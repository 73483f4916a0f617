#!/usr/bin/env bash
# Runs this example app's tests against a live bgemu (see Examples/test-against-bgemu.sh); extra arguments go to
# `swift test`. First its libfaketime test (an XCTest case, the test binary run directly), in BGEmuKit's libfaketime mode: the test process (only it, not the
# service) preloads libfaketime (Debian's `faketime` package) reading the time from a file that BGEmuKit rewrites with
# the device's virtual now (FAKETIME_TIMESTAMP_FILE, re-read at every call: FAKETIME_NO_CACHE=1); the monotonic clock
# stays real (DONT_FAKE_MONOTONIC=1), which co-simulated time reads. Then every test, as any other example.
# Usage, from anywhere: Examples/AsyncNetworkApp/test-against-bgemu.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
libfaketime="$(dpkg -L libfaketime 2>/dev/null | grep '/libfaketime\.so\.1$' | head -1 || true)"
[ -n "$libfaketime" ] || { echo "asyncnetworkapp: libfaketime not found (apt-get install faketime)" >&2; exit 1; }
swift build --build-tests --package-path Examples/AsyncNetworkApp
tests="$(swift build --show-bin-path --package-path Examples/AsyncNetworkApp)/AsyncNetworkAppPackageTests.xctest"
(
  BIN=.build/debug/bgemu
  NAME=asyncnetworkapp-faketime
  [ -x "$BIN" ] || { echo "$NAME: $BIN not built (run swift build)" >&2; exit 1; }
  # shellcheck source=../../Tests/Contract/live-service.sh
  . Tests/Contract/live-service.sh
  stamp="$WORK/faketime"
  echo "+0" >"$stamp"   # the real time until the first device writes its own
  output="$WORK/faketime-test.log"
  # The test binary itself, without arguments (its XCTest cases: the libfaketime test): with libfaketime preloaded a
  # Swift program's CommandLine.arguments comes out empty, so neither `swift test` nor a filter can be used.
  # Bounded, so that a hang can never stall CI: the test takes seconds. (It once hung about one run in three at its
  # end, XCTest's wait for an async test missing its stop under libfaketime: see LibfaketimeTests.swift.)
  status=0
  BGEMU_URL="$BASE" BGEMU_API_KEY="$API_KEY" TZ=UTC LD_PRELOAD="$libfaketime" FAKETIME_TIMESTAMP_FILE="$stamp" \
    FAKETIME_NO_CACHE=1 DONT_FAKE_MONOTONIC=1 \
    timeout 300 "$tests" 2>&1 | tee "$output" || status=$?
  [ "$status" -ne 124 ] || { echo "$NAME: the libfaketime test did not end within 300 s" >&2; exit 1; }
  grep -q "testUnderLibfaketime.*' passed" "$output" || { echo "$NAME: the libfaketime test did not run" >&2; exit 1; }
)
exec Examples/test-against-bgemu.sh AsyncNetworkApp "$@"
