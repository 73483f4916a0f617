/// What a parser reported for one request, in a form two feeds of the same bytes can be compared by.
/// `100 Continue` is left out: whether it is asked for depends on whether body bytes came with the head.
enum FuzzOutcome: Equatable, CustomStringConvertible {
    case request(method: String, target: String, version: String, fields: [String], body: [UInt8], keepAlive: Bool,
                 clientRequestId: String?)
    case failure(status: Int, detail: String)

    init(_ parsed: HTTPRequestParser.Parsed) {
        let request = parsed.request
        self = .request(
            method: request.method.rawValue, target: request.target, version: request.version.description,
            fields: request.headers.fields.map { "\($0.name): \($0.value)" }, body: request.body,
            keepAlive: parsed.keepAlive, clientRequestId: parsed.clientRequestId)
    }

    init(_ error: HTTPParseError) { self = .failure(status: error.status.code, detail: error.detail) }

    var description: String {
        switch self {
        case let .request(method, target, version, fields, body, keepAlive, _):
            "\(method) \(target) \(version) \(fields) body=\(body.count) keepAlive=\(keepAlive)"
        case let .failure(status, detail):
            "failure \(status) \(detail)"
        }
    }
}
