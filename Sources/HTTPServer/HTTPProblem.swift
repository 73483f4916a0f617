import Foundation

/// An RFC 9457 problem detail, rendered as `application/problem+json`. Every error the service answers is one.
public struct HTTPProblem: HTTPResponseError, Sendable, Equatable {
    /// One invalid field of a request body or query, for `422` answers.
    public struct FieldError: Codable, Sendable, Equatable {
        public var field: String
        public var message: String
        public init(field: String, message: String) { self.field = field; self.message = message }
    }

    public var status: HTTPStatus
    /// A URI naming the kind of problem; `about:blank` when the status says it all (RFC 9457 §4.2.1).
    public var type: String
    public var title: String
    public var detail: String?
    /// A stable machine word (`notPermitted`, `validationFailed`, …) that clients can switch on.
    public var code: String?
    public var errors: [FieldError]?
    /// Headers the answer needs beside the body (`Allow` for 405, `Retry-After` for 429).
    public var headers: HTTPHeaders

    public init(
        status: HTTPStatus, code: String? = nil, title: String? = nil, detail: String? = nil,
        errors: [FieldError]? = nil, headers: HTTPHeaders = HTTPHeaders()
    ) {
        self.status = status
        self.code = code
        self.type = code.map { "urn:bgemu:problem:\($0)" } ?? "about:blank"
        self.title = title ?? status.reasonPhrase
        self.detail = detail
        self.errors = errors
        self.headers = headers
    }

    public static func == (lhs: HTTPProblem, rhs: HTTPProblem) -> Bool {
        lhs.status == rhs.status && lhs.type == rhs.type && lhs.title == rhs.title && lhs.detail == rhs.detail
            && lhs.code == rhs.code && lhs.errors == rhs.errors
    }

    public func response() -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/problem+json", bytes: body(), headers: headers)
    }

    /// The JSON body; keys in a fixed order so answers are byte-for-byte repeatable.
    public func body() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let wire = Wire(type: type, title: title, status: status.code, detail: detail, code: code, errors: errors)
        return Array((try? encoder.encode(wire)) ?? Data())
    }

    private struct Wire: Encodable {
        var type: String
        var title: String
        var status: Int
        var detail: String?
        var code: String?
        var errors: [FieldError]?
    }
}
