import Foundation
import Glibc
import Logging
import Testing
@testable import API
@testable import HTTPServer

/// Authentication and routing judge a request from its head: a client without a valid key, or a request no
/// route takes, is answered before its body is read, so it cannot hold a connection by trickling one.
@Suite struct AuthBeforeBodyTests {
    private func head(_ method: HTTPMethod, _ target: String, key: String? = nil) -> HTTPRequest {
        var headers = HTTPHeaders()
        if let key { headers["Authorization"] = "Bearer \(key)" }
        headers["Content-Type"] = "application/json"
        return HTTPRequest(method: method, target: target, headers: headers)
    }

    private func judges(_ harness: APIHarness, _ request: HTTPRequest) -> Bool {
        harness.responder.answersWithoutBody(request, context: HTTPRequestContext(requestId: "test", logger: Logger(label: "test")))
    }

    @Test func missingOrUnknownKeyIsSettledByTheHead() throws {
        let harness = try APIHarness()
        let (_, key) = try harness.makeTenant("acme")
        #expect(judges(harness, head(.post, "/v1/devices")))
        #expect(judges(harness, head(.post, "/v1/devices", key: "bgk_unknown")))
        #expect(judges(harness, head(.post, "/v1/admin/tenants", key: key)), "a tenant key is not the admin token")
        #expect(!judges(harness, head(.post, "/v1/devices", key: key)), "a valid key leaves the answer to the route")
        #expect(!judges(harness, head(.post, "/v1/admin/tenants", key: APIHarness.adminToken)))
        #expect(judges(harness, head(.post, "/v1/nowhere", key: key)), "no route: 404")
        #expect(judges(harness, head(.put, "/v1/devices", key: key)), "wrong method: 405")
        #expect(judges(harness, head(.post, "/healthz")), "wrong method on an open route: 405")
    }

    @Test func unauthenticatedSlowBodyIsAnswered401AtOnce() throws {
        let harness = try APIHarness()
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, eventLoopCount: 1),
            responder: harness.responder, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        try server.start()
        defer {
            server.shutdown(gracePeriod: .seconds(1))
            server.waitUntilStopped()
        }
        // The head announces 100,000 bytes and one is sent: the answer must not wait for the rest.
        let answer = try RawSocket.exchange(
            port: server.localPort,
            "POST /v1/devices HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")
        #expect(answer.hasPrefix("HTTP/1.1 401 "))
        #expect(answer.contains("Connection: close\r\n"))
        #expect(answer.contains("application/problem+json"))
    }

}

/// `AuthMiddleware.bearerToken`: the `Bearer` scheme in any case, the token without the blanks around it.
@Suite struct BearerTokenTests {
    @Test func theTokenOfABearerHeaderAndNothingForAnotherScheme() {
        #expect(AuthMiddleware.bearerToken("Bearer bgk_abc") == "bgk_abc")
        #expect(AuthMiddleware.bearerToken("bearer   bgk_abc  ") == "bgk_abc")
        #expect(AuthMiddleware.bearerToken("BEARER\tbgk_abc") == "bgk_abc")
        #expect(AuthMiddleware.bearerToken("Bearer bgk_é") == "bgk_é")
        #expect(AuthMiddleware.bearerToken("Bearer") == nil)
        #expect(AuthMiddleware.bearerToken("Bearer   ") == nil)
        #expect(AuthMiddleware.bearerToken("Basic dXNlcjpwYXNz") == nil)
        #expect(AuthMiddleware.bearerToken("Bearerx abc") == nil)
        #expect(AuthMiddleware.bearerToken("") == nil)
    }
}
