#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer of one of three readers of untrusted bytes:
#   http   the HTTP request parser (Sources/HTTPServer/Parser), the default;
#   zip    the zip reader that reads uploaded .ipa files (Sources/ZipArchive);
#   plist  the Info.plist reader (InfoPlist.parse in Sources/Emulation, over Foundation's PropertyListSerialization).
#
# Builds the target's harness (Tests/Fuzz/*.swift for http, Tests/Fuzz/ZipArchive/ or Tests/Fuzz/InfoPlist/) together
# with the reader's own sources into one fuzzer with `swiftc -O -sanitize=fuzzer,address`, in .build-fuzz/ (git-ignored),
# then runs it for SECONDS (default 60) on one core, starting from its seed corpus (http: Tests/Fuzz/corpus; zip: the
# archives in Tests/Fixtures/Archives and the crash archives of issue 26 in Tests/Fixtures/ArchiveCrashes; plist: the
# real projects' Info.plists in Tests/Fixtures/RealProjects, their binary forms in Tests/Fuzz/InfoPlist/corpus and the
# plists that crashed Foundation in Tests/Fixtures/PlistCrashes)
# plus whatever earlier runs added (.build-fuzz/corpus for http, .build-fuzz/TARGET/corpus for the others).
# Needs only the Swift toolchain (it ships libFuzzer, AddressSanitizer and lld); no apt packages.
#
# Exits non-zero when the fuzzer finds a crash, a sanitizer error, a broken invariant, a hang or a leak (not for plist,
# whose leaks are Foundation's own and known: Tests/Fuzz/InfoPlist/known-leaks/README.md); the input is saved in the
# target's artifacts/ folder and the line to reproduce it is printed.
# Usage: Tests/Fuzz/run-fuzz.sh [--target http|zip|plist] [SECONDS] [more libFuzzer options, such as -runs=10000000]
set -euo pipefail
cd "$(dirname "$0")/../.."

target=http
leaks=1
if [ "${1:-}" = "--target" ]; then
    target=${2:-}
    shift 2 || { echo "run-fuzz: --target needs a name: http, zip or plist" >&2; exit 2; }
fi
duration=${1:-60}
shift || true
[[ "$duration" =~ ^[0-9]+$ ]] || { echo "run-fuzz: SECONDS must be a whole number, not '$duration'" >&2; exit 2; }

case "$target" in
http)
    out=.build-fuzz
    fuzzer="$out/http-request-parser-fuzzer"
    module=HTTPRequestParserFuzz
    # The parser and exactly what it needs: its status, method, version, request and header types, and the gzip
    # decoder of request bodies (with the system zlib, through the CLibz module map).
    sources=(
        Sources/HTTPServer/Parser/*.swift
        Sources/HTTPServer/HTTPStatus.swift Sources/HTTPServer/HTTPMethod.swift Sources/HTTPServer/HTTPVersion.swift
        Sources/HTTPServer/HTTPRequest.swift Sources/HTTPServer/HTTPHeaders.swift Sources/HTTPServer/PercentDecoding.swift
        Sources/HTTPServer/Writer/Gzip.swift Sources/HTTPServer/Writer/Gzip+Bounded.swift
        Tests/Fuzz/*.swift
    )
    corpora=(Tests/Fuzz/corpus)
    options=(-dict=Tests/Fuzz/http.dict -max_len=8192)
    ;;
zip)
    out=.build-fuzz/zip
    fuzzer="$out/zip-reader-fuzzer"
    module=ZipReaderFuzz
    # Inputs up to 128 KiB: past the 65,557 bytes the end record is looked for in.
    sources=(Sources/ZipArchive/*.swift Tests/Fuzz/ZipArchive/*.swift Tests/Fuzz/FuzzCheck.swift)
    corpora=(Tests/Fixtures/Archives Tests/Fixtures/ArchiveCrashes)
    options=(-dict=Tests/Fuzz/ZipArchive/zip.dict -max_len=131072)
    ;;
plist)
    out=.build-fuzz/plist
    fuzzer="$out/info-plist-fuzzer"
    module=InfoPlistFuzz
    # The whole Emulation module (InfoPlist.parse and the build settings it expands), which imports only Foundation.
    mapfile -t sources < <(find Sources/Emulation -name '*.swift' | sort)
    sources+=(Tests/Fuzz/InfoPlist/*.swift Tests/Fuzz/FuzzCheck.swift)
    corpora=(Tests/Fixtures/RealProjects Tests/Fuzz/InfoPlist/corpus Tests/Fixtures/PlistCrashes)
    options=(-dict=Tests/Fuzz/InfoPlist/plist.dict -max_len=65536)
    # Foundation's plist parser leaks on damaged input (Tests/Fuzz/InfoPlist/known-leaks/README.md): leaks are not
    # looked for here, crashes, sanitizer errors and hangs are.
    options+=(-detect_leaks=0)
    leaks=0
    ;;
*)
    echo "run-fuzz: no target '$target': http, zip or plist" >&2
    exit 2
    ;;
esac
mkdir -p "$out/corpus" "$out/artifacts"

echo "run-fuzz: building $fuzzer"
swiftc -swift-version 6 -enable-upcoming-feature ExistentialAny -warnings-as-errors \
    -O -sanitize=fuzzer,address -use-ld=lld -parse-as-library -module-name "$module" -I Sources/CLibz \
    "${sources[@]}" -o "$fuzzer"

# The Swift runtime's own crash handler would fight AddressSanitizer's; libFuzzer reports crashes itself.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=$leaks}"

log="$out/fuzz.log"
echo "run-fuzz: fuzzing $target for ${duration}s (log: $log)"
status=0
"$fuzzer" "$out/corpus" "${corpora[@]}" \
    "${options[@]}" -timeout=10 -rss_limit_mb=2048 \
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
