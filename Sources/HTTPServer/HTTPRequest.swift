/// A parsed HTTP request with its whole body (RFC 9112 §3).
public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    /// The request-target as sent, origin-form: path and optional query (`/v1/devices?limit=5`).
    public var target: String
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    /// The body, de-chunked; empty when there was none, and when it was spooled to a file (``spooledBody``):
    /// read ``withBodyBytes(_:)`` to see either.
    public var body: [UInt8]
    /// An upload's spool, admission and pending coding (see ``RequestBodyExtras``); nil for every other request.
    var extras: RequestBodyExtras?

    public init(
        method: HTTPMethod, target: String, version: HTTPVersion = .http1_1,
        headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// The body when it was spooled to a temporary file rather than held in memory (an upload past 1 MiB).
    public var spooledBody: SpooledBody? { extras?.spooled }

    /// The body's size in bytes, wherever it is.
    public var bodyCount: Int { extras?.spooled?.count ?? body.count }

    /// Calls `read` with the body's bytes, without a copy whether they are in ``body`` or mapped from a spool.
    @inline(__always)
    public func withBodyBytes<Result>(_ read: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        if let spooled = extras?.spooled { return try withExtendedLifetime(spooled) { try read(spooled.bytes) } }
        return try body.withUnsafeBytes(read)
    }

    /// The path part of the target, still percent-encoded (`/v1/devices/dev_1`).
    public var path: String {
        if let q = target.utf8.firstIndex(of: UInt8(ascii: "?")) { return String(target[..<q]) }
        return target
    }

    /// The raw query string after `?`, or nil.
    public var query: String? {
        guard let q = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return nil }
        return String(target[target.index(after: q)...])
    }

    /// The query's `name=value` pairs, percent-decoded, `+` read as a space, in order.
    public var queryItems: [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = PercentDecoding.decode(String(parts[0]), plusAsSpace: true) ?? String(parts[0])
            let raw = parts.count > 1 ? String(parts[1]) : ""
            return (name: name, value: PercentDecoding.decode(raw, plusAsSpace: true) ?? raw)
        }
    }

    /// The first query value named `name`.
    public func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }
}
