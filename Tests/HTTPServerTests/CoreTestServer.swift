import HTTPServer
import Logging

/// A server on an ephemeral loopback port for one test, with a closure responder.
final class CoreTestServer {
    let server: HTTPServer

    /// Starts a server; `configure` adjusts the test configuration (port 0, one loop, short timeouts unchanged).
    convenience init(
        configure: (inout HTTPServerConfiguration) -> Void = { _ in },
        responder: @escaping @Sendable (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse
    ) throws {
        try self.init(configure: configure, responder: HTTPClosureResponder(responder))
    }

    /// Starts a server answering with `responder` (a router's, say).
    init(configure: (inout HTTPServerConfiguration) -> Void = { _ in }, responder: any HTTPResponder) throws {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, eventLoopCount: 1)
        configure(&configuration)
        server = HTTPServer(
            configuration: configuration, responder: responder,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        try server.start()
    }

    var port: Int { server.localPort }

    /// A new client connected to the server.
    func client(timeout: Duration = .seconds(5), receiveBufferSize: Int32? = nil) throws -> HTTPTestConnection {
        try HTTPTestConnection(port: port, timeout: timeout, receiveBufferSize: receiveBufferSize)
    }

    /// Shuts down and waits for the loops to exit.
    func stop(grace: Duration = .seconds(1)) {
        server.shutdown(gracePeriod: grace)
        server.waitUntilStopped()
    }

    /// A responder for wire-level tests: `/echo` answers the body it got (with the method, target and body
    /// length in headers); anything else answers `ok` as text.
    static let echo: @Sendable (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse = { request, context in
        var headers = HTTPHeaders()
        headers.add("X-Method", request.method.rawValue)
        headers.add("X-Target", request.target)
        headers.add("X-Body-Length", String(request.body.count))
        headers.add("X-Context-Id", context.requestId)
        if request.path == "/echo" {
            return HTTPResponse(status: .ok, contentType: "application/octet-stream", bytes: request.body, headers: headers)
        }
        return HTTPResponse(status: .ok, contentType: "text/plain", bytes: Array("ok".utf8), headers: headers)
    }
}
