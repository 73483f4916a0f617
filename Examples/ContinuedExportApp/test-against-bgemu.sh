#!/usr/bin/env bash
# Runs this example app's tests against a live bgemu (see Examples/test-against-bgemu.sh); extra arguments go to
# `swift test`. Usage, from anywhere: Examples/ContinuedExportApp/test-against-bgemu.sh
exec "$(dirname "$0")/../test-against-bgemu.sh" ContinuedExportApp "$@"
