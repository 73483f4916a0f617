import HTTPServer

/// The access log's lines written straight into bytes: the line ``ServiceLogHandler`` would write for the same
/// request through `context.logger` (`LogLineTests` holds the two to the same bytes), without the
/// `Logger.Metadata` dictionary that path builds, merges and sorts for every request, and without sorting here:
/// the `http.*` pairs are written in their sorted order, merged with the request's own (its id, its tenant)
/// sorted as they come. At the default `--log-level info` the dictionary path was a sixth of a `/healthz`
/// answer's CPU.
///
/// It writes the request's metadata only: the service's root logger carries none of its own.
struct ServiceAccessLogWriter: AccessLogWriter {
    /// The label of the service's logger.
    let label: String

    /// Formats the line on the stack (``LineCursor``), then appends it to the log's buffer in one copy.
    func write(_ line: AccessLogLine) {
        let stamp = LogTimestamp.stamp()
        let urgent = line.level >= .warning
        withBytes(line, timestamp: stamp) { LogSink.shared.append($0, urgent: urgent) }
    }

    /// The line's bytes after `timestamp` (the tests hold them to the `Logger` path's).
    func bytes(_ line: AccessLogLine, timestamp: [UInt8]) -> [UInt8] {
        var out = timestamp
        withBytes(line, timestamp: nil) { out.append(contentsOf: $0) }
        return out
    }

    /// The line (after `timestamp` when given), to its newline: the `http.*` pairs in their sorted order (bytes,
    /// duration_ms, method, route, status, target), the request's own merged in before the first key they sort
    /// before, then the message.
    private func withBytes<Result>(
        _ line: borrowing AccessLogLine, timestamp: LogTimestamp.Stamp?, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        // The request id, then the tenant: already in order, the usual case sorts nothing.
        let own = Self.isSorted(line.metadata) ? line.metadata : line.metadata.sorted { $0.key < $1.key }
        // Every piece's size, and room to spare for the keys, separators, digits and timestamp.
        var capacity = 200 + label.utf8.count + 2 * line.target.utf8.count
            + (line.route?.utf8.count ?? 0) + 2 * line.method.rawValue.utf8.count + line.level.rawValue.utf8.count
        for pair in own { capacity += pair.key.utf8.count + pair.value.utf8.count + 2 }
        // The pieces as locals: the closure below captures them, not the line (whose copies, one per capture, were
        // half of what the line cost, callgrind).
        let level = line.level.rawValue, method = line.method.rawValue, target = line.target, route = line.route
        let size = line.bytes, status = line.status.code, micros = line.durationMicroseconds
        return LineCursor.withLine(capacity: capacity, { out in
            if let timestamp { LogTimestamp.put(timestamp, to: &out) }
            out.put(UInt8(ascii: " "))
            out.put(level)
            out.put(UInt8(ascii: " "))
            out.put(label)
            out.put(UInt8(ascii: ":"))
            var next = 0
            /// The request's pairs whose keys sort before `key` (all that are left when nil).
            func ownPairs(before key: String?, _ out: inout LineCursor) {
                while next < own.count, key.map({ own[next].key < $0 }) ?? true {
                    out.put(UInt8(ascii: " "))
                    out.put(own[next].key)
                    out.put(UInt8(ascii: "="))
                    out.put(own[next].value)
                    next += 1
                }
            }
            /// An `http.*` pair's key, after the request's pairs that sort before it; its value is written next.
            func key(_ key: String, _ out: inout LineCursor) {
                ownPairs(before: key, &out)
                out.put(UInt8(ascii: " "))
                out.put(key)
                out.put(UInt8(ascii: "="))
            }
            if let size {
                key("http.bytes", &out)
                out.putDecimal(size)
            }
            key("http.duration_ms", &out)
            AccessLogMiddleware.writeMilliseconds(microseconds: micros) { out.put($0) }
            key("http.method", &out)
            out.put(method)
            if let route {
                key("http.route", &out)
                out.put(route)
            }
            key("http.status", &out)
            out.putDecimal(status)
            key("http.target", &out)
            out.put(target)
            ownPairs(before: nil, &out)
            out.put(UInt8(ascii: " "))
            out.put(method)
            out.put(UInt8(ascii: " "))
            out.put(target)
            out.put(UInt8(ascii: " "))
            out.putDecimal(status)
            out.put(UInt8(ascii: "\n"))
        }, body)
    }

    private static func isSorted(_ pairs: [(key: String, value: String)]) -> Bool {
        pairs.indices.dropFirst().allSatisfy { pairs[$0 - 1].key <= pairs[$0].key }
    }
}
