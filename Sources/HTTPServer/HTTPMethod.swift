/// An HTTP request method (RFC 9110 §9). An open vocabulary: any token the parser accepts is a method,
/// and the server answers `501` for the ones no route knows.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let get = HTTPMethod("GET")
    public static let head = HTTPMethod("HEAD")
    public static let post = HTTPMethod("POST")
    public static let put = HTTPMethod("PUT")
    public static let patch = HTTPMethod("PATCH")
    public static let delete = HTTPMethod("DELETE")
    public static let options = HTTPMethod("OPTIONS")
    /// Known, and allowed on no route: a route answers them `405` with `Allow` rather than `501`.
    public static let trace = HTTPMethod("TRACE")
    /// The safe method with a body (draft-ietf-httpbis-safe-method-w-body).
    public static let query = HTTPMethod("QUERY")

    /// The methods this server knows; any other is answered `501 Not Implemented` (RFC 9110 §15.6.2).
    /// TRACE and QUERY are known so that a route answers them `405 Method Not Allowed` (RFC 9110 §15.5.6):
    /// no 5xx for a standard method.
    public static let implemented: Set<HTTPMethod> = [
        .get, .head, .post, .put, .patch, .delete, .options, .trace, .query,
    ]
}
