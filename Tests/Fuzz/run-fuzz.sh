#!/usr/bin/env bash
# Coverage-guided fuzzing of the HTTP request parser (Sources/HTTPServer/Parser) with libFuzzer.
#
# Builds Tests/Fuzz/*.swift together with the parser's own sources (and the few value types it uses) into one
# fuzzer with `swiftc -O -sanitize=fuzzer,address`, in .build-fuzz/ (git-ignored), then runs it for SECONDS
# (default 60) on one core, starting from the seed corpus in Tests/Fuzz/corpus plus whatever earlier runs added in
# .build-fuzz/corpus. Needs only the Swift toolchain (it ships libFuzzer, AddressSanitizer and lld); no apt packages.
#
# Exits non-zero when the fuzzer finds a crash, a sanitizer error, a broken invariant, a hang or a leak; the input
# is saved in .build-fuzz/artifacts/ and the line to reproduce it is printed.
# Usage: Tests/Fuzz/run-fuzz.sh [SECONDS] [more libFuzzer options, such as -runs=10000000 or -seed=1]
set -euo pipefail
cd "$(dirname "$0")/../.."

duration=${1:-60}
shift || true
[[ "$duration" =~ ^[0-9]+$ ]] || { echo "run-fuzz: SECONDS must be a whole number, not '$duration'" >&2; exit 2; }

out=.build-fuzz
fuzzer="$out/http-request-parser-fuzzer"
mkdir -p "$out/corpus" "$out/artifacts"

# The parser and exactly what it needs: its status, method, version, request and header types, and the gzip
# decoder of request bodies (with the system zlib, through the CLibz module map).
parser_sources=(Sources/HTTPServer/Parser/*.swift)
support_sources=(
    Sources/HTTPServer/HTTPStatus.swift Sources/HTTPServer/HTTPMethod.swift Sources/HTTPServer/HTTPVersion.swift
    Sources/HTTPServer/HTTPRequest.swift Sources/HTTPServer/HTTPHeaders.swift Sources/HTTPServer/PercentDecoding.swift
    Sources/HTTPServer/Writer/Gzip.swift Sources/HTTPServer/Writer/Gzip+Bounded.swift
)
echo "run-fuzz: building $fuzzer"
swiftc -swift-version 6 -enable-upcoming-feature ExistentialAny -warnings-as-errors \
    -O -sanitize=fuzzer,address -use-ld=lld -parse-as-library -module-name HTTPRequestParserFuzz -I Sources/CLibz \
    "${parser_sources[@]}" "${support_sources[@]}" Tests/Fuzz/*.swift -o "$fuzzer"

# The Swift runtime's own crash handler would fight AddressSanitizer's; libFuzzer reports crashes itself.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"

log="$out/fuzz.log"
echo "run-fuzz: fuzzing for ${duration}s (log: $log)"
status=0
"$fuzzer" "$out/corpus" Tests/Fuzz/corpus \
    -dict=Tests/Fuzz/http.dict -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
    -max_total_time="$duration" -print_final_stats=1 -artifact_prefix="$out/artifacts/" \
    "$@" >"$log" 2>&1 || status=$?

# libFuzzer's pulse lines, and its final statistics.
grep -E '^#[0-9]+[[:space:]]+(INITED|DONE|pulse)' "$log" | tail -3 || true
grep -E '^stat::' "$log" || true
if [ "$status" -ne 0 ]; then
    sed -n '/ERROR\|invariant broken\|deadly signal/,$p' "$log" | head -60 >&2
    artifact=$(grep -o "Test unit written to .*" "$log" | tail -1 | sed 's/Test unit written to //' || true)
    echo "run-fuzz: FAILED (exit $status); the input is ${artifact:-in $out/artifacts/}" >&2
    [ -n "$artifact" ] && echo "run-fuzz: reproduce with: SWIFT_BACKTRACE=enable=no $fuzzer $artifact" >&2
    exit "$status"
fi
echo "run-fuzz: no crash in $(grep -oE '^stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$') inputs"
