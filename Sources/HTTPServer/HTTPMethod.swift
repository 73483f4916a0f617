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

    /// The methods this server implements; any other is answered `501 Not Implemented` (RFC 9110 §15.6.2).
    public static let implemented: Set<HTTPMethod> = [.get, .head, .post, .put, .patch, .delete, .options]
}
