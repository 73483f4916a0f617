/// Feeds a parser the way the server's event loop does (`EventLoop+Input.swift`): each read is appended to the
/// bytes kept from before, the parser is called until it needs more or fails, and what it did not consume is kept
/// for the next read. Checks the invariants of every call on the way.
struct FuzzFeeder {
    private(set) var parser: HTTPRequestParser
    /// What the parser has not consumed yet: the partial line (or CR) the connection keeps between reads.
    private(set) var kept: [UInt8] = []
    private(set) var outcomes: [FuzzOutcome] = []
    private(set) var failed = false
    /// Every byte received, and how many of them the parser consumed: a request's own bytes are those consumed
    /// between the end of the previous one and the end of it.
    private var stream: [UInt8] = []
    private var consumedTotal = 0
    private var requestStart = 0

    init(limits: HTTPRequestParser.Limits) { parser = HTTPRequestParser(limits: limits) }

    /// One read from the socket. After a failure the server closes the connection and reads nothing more.
    mutating func receive(_ bytes: UnsafeRawBufferPointer) {
        guard !failed else { return }
        stream.append(contentsOf: bytes)
        kept.append(contentsOf: bytes)
        var kept = self.kept
        self.kept = []
        let consumed = kept.withUnsafeBytes { parseAll($0) }
        kept.removeFirst(consumed)
        self.kept = kept
        if !failed { checkKeptIsOnePartialLine() }
    }

    /// Calls the parser on `buffer` until it needs more or fails; returns how many bytes it consumed in all.
    private mutating func parseAll(_ buffer: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        while true {
            let rest = UnsafeRawBufferPointer(rebasing: buffer[offset...])
            let (consumed, event) = parser.parse(rest)
            fuzzCheck(consumed >= 0 && consumed <= rest.count, "consumed \(consumed) of \(rest.count) bytes")
            offset += consumed
            consumedTotal += consumed
            switch event {
            case .needMore:
                fuzzCheck(parser.state != .failed, "needMore from a failed parser")
                return offset
            case .request(let parsed):
                fuzzCheck(consumed > 0, "a request without consuming a byte")
                let chunked = parsed.request.headers.contains("Transfer-Encoding")
                let bytes = stream[requestStart..<consumedTotal]
                let gzipped = rawHeadCodesGzip(bytes) && !parsed.request.headers.contains("Content-Encoding")
                checkRequest(parsed, limits: parser.limits, decoded: gzipped)
                // The raw body the framing gives, decoded when the parser decoded it, is the request's body.
                var framed = FuzzFramingOracle.body(of: bytes, chunked: chunked)
                if gzipped, let raw = framed, !raw.isEmpty {
                    if case .decoded(let body) = Gzip.decompress(raw, limit: Int.max) { framed = body } else { framed = nil }
                }
                fuzzCheck(framed == parsed.request.body,
                          "the request's \(bytes.count) bytes do not frame its body of \(parsed.request.body.count)")
                requestStart = consumedTotal
                fuzzCheck(parser.state == .requestLine && !parser.isMidRequest && parser.body.isEmpty,
                          "the parser is not reset after a request: \(parser.state)")
                outcomes.append(FuzzOutcome(parsed))
            case .failure(let error):
                fuzzCheck((400..<600).contains(error.status.code), "failure status \(error.status.code)")
                fuzzCheck(parser.state == .failed, "a failure leaves state \(parser.state)")
                outcomes.append(FuzzOutcome(error))
                failed = true
                checkStaysFailed(UnsafeRawBufferPointer(rebasing: buffer[offset...]))
                return offset
            default:
                // The head is complete and its body is still to come (`100 Continue` asked for): the server may
                // answer it, then goes on reading. `default`, so that the harness does not depend on that event's
                // exact name and payload. Progress: an event that is not needMore consumed something, or the
                // server would spin.
                fuzzCheck(consumed > 0, "\(event) without consuming a byte")
                fuzzCheck(parser.isReadingBody, "\(event) while not reading a body")
            }
        }
    }

    /// After a failure, whatever follows (the rest of the read, or nothing) is a failure again, consuming nothing.
    private mutating func checkStaysFailed(_ rest: UnsafeRawBufferPointer) {
        for bytes in [rest, UnsafeRawBufferPointer(start: nil, count: 0)] {
            let (consumed, event) = parser.parse(bytes)
            guard case .failure(let error) = event else { fuzzCheck(false, "a failed parser reported \(event)"); return }
            fuzzCheck(consumed == 0, "a failed parser consumed \(consumed) bytes")
            fuzzCheck((400..<600).contains(error.status.code), "failure status \(error.status.code)")
            fuzzCheck(parser.state == .failed, "a failed parser left state failed")
        }
    }

    /// The connection keeps at most one partial line between reads, bounded by the head limit (1 KiB for a chunk
    /// line); body bytes are consumed as they arrive. This is what bounds a connection's memory.
    private func checkKeptIsOnePartialLine() {
        switch parser.state {
        case .requestLine, .headers, .trailers:
            fuzzCheck(!kept.contains(10), "a complete head line was left unconsumed")
            fuzzCheck(parser.headBytes + kept.count <= parser.limits.maxHeaderSize,
                      "kept \(kept.count) bytes of head past the limit \(parser.limits.maxHeaderSize)")
        case .chunkSize:
            fuzzCheck(!kept.contains(10), "a complete chunk line was left unconsumed")
            fuzzCheck(kept.count <= 1024, "kept \(kept.count) bytes of a chunk line")
        case .chunkDataEnd:
            fuzzCheck(kept.count <= 1 && kept.allSatisfy { $0 == 13 }, "kept \(kept) after chunk data")
        case .fixedBody, .chunkData:
            fuzzCheck(kept.isEmpty, "kept \(kept.count) body bytes")
        case .failed:
            break
        }
    }
}
