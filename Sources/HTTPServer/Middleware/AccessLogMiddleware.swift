import Logging

/// Logs one line per request through `context.logger` (which already carries the request id): method, target
/// with secrets redacted, status, body size when sized, duration and route pattern.
///
/// The line reads `GET /v1/events?access_token=REDACTED 200`, with the details as metadata `http.method`,
/// `http.target`, `http.status`, `http.bytes`, `http.duration_ms` and `http.route`. When the chain inside
/// throws, the line carries the status the server will answer (an `HTTPResponseError`'s, else `500`) and the
/// error is rethrown untouched.
public struct AccessLogMiddleware: HTTPMiddleware {
    /// The level of every line.
    public let level: Logger.Level
    /// Query parameter names whose values never reach the log (`access_token`, which EventSource clients must
    /// send in the URL because they cannot set headers).
    public let redactedQueryNames: Set<String>
    /// Writes the lines in the server's own format instead of through `context.logger` (nil: the logger).
    public let writer: (any AccessLogWriter)?

    /// A middleware logging at `level`, replacing the values of `redactedQueryNames` with `REDACTED`, through
    /// `writer` when given (a line formatted straight into bytes), else through the request's logger.
    public init(
        level: Logger.Level = .info, redactedQueryNames: Set<String> = ["access_token"], writer: (any AccessLogWriter)? = nil
    ) {
        self.level = level
        self.redactedQueryNames = redactedQueryNames
        self.writer = writer
    }

    /// `.passes`: logging needs no body, and an answer given before the body is logged like any other.
    public func judgeHead(_ head: HTTPRequest, context: HTTPRequestContext) -> HTTPHeadVerdict { .passes }

    /// Times `next`, then logs its outcome.
    public func handle(
        _ request: HTTPRequest, context: HTTPRequestContext,
        next: (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse
    ) throws -> HTTPResponse {
        let start = ContinuousClock.now
        let response: HTTPResponse
        do {
            response = try next(request, context)
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            log(request, context, status: status, bytes: nil, duration: ContinuousClock.now - start)
            throw error
        }
        var bytes: Int?
        if case .bytes(let body) = response.body { bytes = body.count }
        log(request, context, status: response.status, bytes: bytes, duration: ContinuousClock.now - start)
        return response
    }

    private func log(
        _ request: HTTPRequest, _ context: HTTPRequestContext, status: HTTPStatus, bytes: Int?, duration: Duration
    ) {
        guard context.logs(at: level) else { return }  // nothing to redact or time for a level that is off
        let target = Self.redact(request.target, names: redactedQueryNames)
        if let writer {
            writer.write(AccessLogLine(
                level: level, method: request.method, target: target, status: status, bytes: bytes,
                duration: duration, route: context.route, metadata: context.logMetadata))
            return
        }
        context.logger.log(
            level: level, "\(request.method) \(target) \(status.code)",
            metadata: {
                var metadata: Logger.Metadata = [
                    "http.method": .string(request.method.rawValue),
                    "http.target": .string(target),
                    "http.status": .stringConvertible(status.code),
                    "http.duration_ms": .string(Self.milliseconds(duration)),
                ]
                if let bytes { metadata["http.bytes"] = .stringConvertible(bytes) }
                if let route = context.route { metadata["http.route"] = .string(route) }
                return metadata
            }())
    }

    /// `target` with the value of every query parameter named in `names` replaced by `REDACTED`; names are
    /// compared after percent-decoding, so `access%5Ftoken` is caught too.
    static func redact(_ target: String, names: Set<String>) -> String {
        guard !names.isEmpty, let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return target }
        let query = target[target.index(after: mark)...]
        let pairs = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> Substring in
            guard let equals = pair.firstIndex(of: "=") else { return pair }
            let rawName = pair[..<equals]
            let name = PercentDecoding.decode(String(rawName), plusAsSpace: true) ?? String(rawName)
            return names.contains(name) ? rawName + "=REDACTED" : pair
        }
        return target[...mark] + pairs.joined(separator: "&")
    }

    /// `duration` in whole microseconds, at least 0.
    static func microseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
    }

    /// `duration` in milliseconds with three decimals (`12.345`).
    ///
    /// Written as digits into a buffer on the stack: a duration of up to 11 digits is a small string, so making one
    /// allocates nothing (each access line makes one).
    static func milliseconds(_ duration: Duration) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { text in
            var count = 0
            writeMilliseconds(microseconds: microseconds(duration)) { byte in
                text[count] = byte
                count += 1
            }
            return String(decoding: UnsafeBufferPointer(rebasing: text[..<count]), as: UTF8.self)
        }
    }

    /// `microseconds` (at least 0) as milliseconds with three decimals, `12.345`, a byte at a time (at most 20): the
    /// one spelling of `http.duration_ms`, for the `Logger` path's string and for a writer of its own
    /// (``AccessLogLine/durationMicroseconds``).
    @inlinable
    public static func writeMilliseconds(microseconds: Int64, _ put: (UInt8) -> Void) {
        let whole = microseconds / 1000
        var divisor: Int64 = 1
        while whole / divisor >= 10 { divisor *= 10 }
        repeat {
            put(UInt8(ascii: "0") + UInt8(whole / divisor % 10))
            divisor /= 10
        } while divisor > 0
        put(UInt8(ascii: "."))
        put(UInt8(ascii: "0") + UInt8(microseconds / 100 % 10))
        put(UInt8(ascii: "0") + UInt8(microseconds / 10 % 10))
        put(UInt8(ascii: "0") + UInt8(microseconds % 10))
    }
}
