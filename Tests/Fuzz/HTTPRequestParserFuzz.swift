/// The libFuzzer entry point for the HTTP request parser (`Sources/HTTPServer/Parser`), built by `run-fuzz.sh`
/// from the parser's own sources, so the module's API is unchanged.
///
/// Each input is one connection's bytes. They are fed as the server would receive them, twice: whole, in one read,
/// and split into reads at positions derived from the input (one byte at a time, small pieces or large ones), so
/// the incremental paths run. Every call's invariants are checked on the way (`FuzzFeeder`, `checkRequest`), and
/// both feeds must report the same requests and the same failure: how TCP happens to segment a stream must never
/// change what the server reads from it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequestParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    var random = SplitMix64(seed: SplitMix64.seed(of: input))
    let limits = fuzzLimits(&random)

    var whole = FuzzFeeder(limits: limits)
    whole.receive(input)

    var split = FuzzFeeder(limits: limits)
    let largestRead = [1, 2, 7, 64, 1024][Int(random.next() % 5)]
    var offset = 0
    while offset < size {
        let count = min(random.next(upTo: largestRead), size - offset)
        split.receive(UnsafeRawBufferPointer(rebasing: input[offset..<offset + count]))
        offset += count
    }

    fuzzCheck(whole.outcomes == split.outcomes, """
        whole and split feeds differ (reads of at most \(largestRead) bytes):
        whole: \(whole.outcomes)
        split: \(split.outcomes)
        """)
    fuzzCheck(whole.failed == split.failed, "one feed failed and the other did not")
    return 0
}

/// Limits drawn per input: the server's defaults, or small ones so that the 413, 414 and 431 paths run; and a
/// route (`POST /upload`) with its own larger body limit, and one (`/none`) that allows no body.
private func fuzzLimits(_ random: inout SplitMix64) -> HTTPRequestParser.Limits {
    let maxHeaderSize = [16 * 1024, 512, 64][Int(random.next() % 3)]
    let maxBodySize = [1 << 20, 32, 0][Int(random.next() % 3)]
    return HTTPRequestParser.Limits(maxHeaderSize: maxHeaderSize, maxBodySize: maxBodySize) { method, path in
        switch path {
        case "/upload" where method == .post: 4096
        case "/none": -1
        default: nil
        }
    }
}
