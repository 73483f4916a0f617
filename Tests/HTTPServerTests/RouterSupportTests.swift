import Foundation
import HTTPServer
import Logging

/// Helpers shared by the router, middleware, static file and SSE tests.
enum RouterTestSupport {
    /// A fresh context as the server would hand it to the router.
    static func context(logger: Logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        -> HTTPRequestContext
    {
        HTTPRequestContext(requestId: "req-1", logger: logger, remoteAddress: "127.0.0.1")
    }

    /// Sends `method target` to `responder`.
    static func send(
        _ responder: any HTTPResponder, _ method: HTTPMethod, _ target: String, headers: HTTPHeaders = HTTPHeaders()
    ) throws -> HTTPResponse {
        try responder.respond(to: HTTPRequest(method: method, target: target, headers: headers), context: context())
    }

    /// The body of a sized response as text.
    static func text(_ response: HTTPResponse) -> String? {
        guard case .bytes(let bytes) = response.body else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A handler answering `tag route key=value …` so tests can see which route ran and what it bound.
    static func echo(_ tag: String) -> Router.Handler {
        { _, context in
            let parameters = context.parameters.all.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
            return .text("\(tag) \(context.route ?? "-") \(parameters)".trimmingCharacters(in: .whitespaces))
        }
    }
}

/// A thread-safe list of strings that tests append to from handlers and middleware.
/// `@unchecked Sendable`: `entries` is only touched while holding `lock`.
final class RouterTestRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    func append(_ entry: String) { lock.withLock { entries.append(entry) } }
    var all: [String] { lock.withLock { entries } }
}
