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

    func write(_ line: AccessLogLine) {
        LogSink.shared.append(bytes(line, timestamp: LogTimestamp.now()), urgent: line.level >= .warning)
    }

    func bytes(_ line: AccessLogLine, timestamp: [UInt8]) -> [UInt8] {
        var out = timestamp
        out.reserveCapacity(160 + 2 * line.target.utf8.count)
        out.append(UInt8(ascii: " "))
        out.append(contentsOf: line.level.rawValue.utf8)
        out.append(UInt8(ascii: " "))
        out.append(contentsOf: label.utf8)
        out.append(UInt8(ascii: ":"))
        // The http.* keys in sorted order: bytes, duration_ms, method, route, status, target.
        var http: [(key: String, value: Value)] = []
        http.reserveCapacity(6)
        if let bytes = line.bytes { http.append(("http.bytes", .number(bytes))) }
        http.append(("http.duration_ms", .text(line.durationMilliseconds)))
        http.append(("http.method", .text(line.method.rawValue)))
        if let route = line.route { http.append(("http.route", .text(route))) }
        http.append(("http.status", .number(line.status.code)))
        http.append(("http.target", .text(line.target)))
        let own = line.metadata.count > 1 ? line.metadata.sorted { $0.key < $1.key } : line.metadata
        var h = 0, o = 0
        while h < http.count || o < own.count {
            let takeOwn = o < own.count && (h == http.count || own[o].key < http[h].key)
            out.append(UInt8(ascii: " "))
            if takeOwn {
                append(own[o].key, own[o].value, to: &out)
                o += 1
            } else {
                let (key, value) = http[h]
                out.append(contentsOf: key.utf8)
                out.append(UInt8(ascii: "="))
                value.append(to: &out)
                h += 1
            }
        }
        out.append(UInt8(ascii: " "))
        out.append(contentsOf: line.method.rawValue.utf8)
        out.append(UInt8(ascii: " "))
        out.append(contentsOf: line.target.utf8)
        out.append(UInt8(ascii: " "))
        Value.number(line.status.code).append(to: &out)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    private func append(_ key: String, _ value: String, to out: inout [UInt8]) {
        out.append(contentsOf: key.utf8)
        out.append(UInt8(ascii: "="))
        out.append(contentsOf: value.utf8)
    }

    /// A value of an `http.*` pair: text as it is, or a number in decimal digits (as `String(n)`).
    private enum Value {
        case text(String)
        case number(Int)

        func append(to out: inout [UInt8]) {
            switch self {
            case .text(let text):
                out.append(contentsOf: text.utf8)
            case .number(let number):
                guard number > 0 else {
                    if number == 0 { out.append(UInt8(ascii: "0")) } else { out.append(contentsOf: String(number).utf8) }
                    return
                }
                var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                             UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                var count = 0
                var rest = number
                withUnsafeMutableBytes(of: &digits) { buffer in
                    while rest > 0 {
                        buffer[19 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                        rest /= 10
                        count += 1
                    }
                    out.append(contentsOf: buffer[(20 - count)...])
                }
            }
        }
    }
}
