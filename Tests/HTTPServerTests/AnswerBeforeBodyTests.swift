import Glibc
import HTTPServer
import Testing

/// A request whose answer its head settles (no route, a wrong method, a refused credential, a body too large)
/// is answered at once with `Connection: close`, without waiting for a body that has not arrived.
@Suite struct AnswerBeforeBodyTests {
    /// Refuses requests without `X-Key: good` from the head alone, as an authentication middleware would.
    struct KeyMiddleware: HTTPMiddleware {
        func handle(
            _ request: HTTPRequest, context: HTTPRequestContext,
            next: (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse
        ) throws -> HTTPResponse {
            guard request.headers["X-Key"] == "good" else { throw HTTPProblem(status: .unauthorized, detail: "No key.") }
            return try next(request, context)
        }

        func judgeHead(_ head: HTTPRequest, context: HTTPRequestContext) -> HTTPHeadVerdict {
            head.headers["X-Key"] == "good" ? .passes : .answers
        }
    }

    /// A middleware that does not say how it judges a head: it gets the body first, whatever it is.
    struct OpaqueMiddleware: HTTPMiddleware {
        func handle(
            _ request: HTTPRequest, context: HTTPRequestContext,
            next: (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse
        ) throws -> HTTPResponse {
            try next(request, context)
        }
    }

    private func server(_ middleware: any HTTPMiddleware = KeyMiddleware()) throws -> CoreTestServer {
        var router = Router()
        router.add(middleware: middleware)
        router.post("/things") { request, _ in
            HTTPResponse(status: .ok, contentType: "text/plain", bytes: Array("got \(request.body.count)".utf8))
        }
        return try CoreTestServer(responder: router.buildResponder())
    }

    /// Sends a head announcing a 100,000-byte body and 10 bytes of it, then reads the answer the server gives
    /// without the rest (the client waits 2 s).
    private func answerToPartialBody(
        _ server: CoreTestServer, _ method: String, _ target: String, headers: String = "X-Key: good\r\n"
    ) throws -> (response: HTTPTestResponse, closed: Bool) {
        let client = try server.client(timeout: .seconds(2))
        try client.send("\(method) \(target) HTTP/1.1\r\nHost: a\r\n\(headers)Content-Length: 100000\r\n\r\n0123456789")
        let response = try client.readResponse()
        return (response, client.isClosedByServer())
    }

    @Test func unknownPathIs404BeforeTheBody() throws {
        let server = try server()
        defer { server.stop() }
        let (response, closed) = try answerToPartialBody(server, "POST", "/nowhere")
        #expect(response.status == 404)
        #expect(response.header("Connection") == "close")
        #expect(closed)
    }

    @Test func wrongMethodIs405BeforeTheBody() throws {
        let server = try server()
        defer { server.stop() }
        let (response, closed) = try answerToPartialBody(server, "PUT", "/things")
        #expect(response.status == 405)
        #expect(response.header("Allow") == "OPTIONS, POST")
        #expect(response.header("Connection") == "close")
        #expect(closed)
    }

    @Test func refusedCredentialIs401BeforeTheBody() throws {
        let server = try server()
        defer { server.stop() }
        let (response, closed) = try answerToPartialBody(server, "POST", "/things", headers: "X-Key: bad\r\n")
        #expect(response.status == 401)
        #expect(response.header("Connection") == "close")
        #expect(closed)
    }

    @Test func tooLargeBodyIs413BeforeTheBody() throws {
        let server = try server()
        defer { server.stop() }
        let client = try server.client(timeout: .seconds(2))
        try client.send("POST /things HTTP/1.1\r\nHost: a\r\nX-Key: good\r\nContent-Length: 2000000\r\n\r\n0123456789")
        let response = try client.readResponse()
        #expect(response.status == 413)
        #expect(response.header("Connection") == "close")
    }

    @Test func expectContinueToAnUnknownPathGetsTheAnswerInsteadOf100() throws {
        let server = try server()
        defer { server.stop() }
        let client = try server.client(timeout: .seconds(2))
        try client.send("POST /nowhere HTTP/1.1\r\nHost: a\r\nX-Key: good\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
        #expect(try client.readResponse().status == 404)
    }

    @Test func aRouteThatReadsTheBodyWaitsForIt() throws {
        let server = try server()
        defer { server.stop() }
        let client = try server.client(timeout: .seconds(2))
        try client.send("POST /things HTTP/1.1\r\nHost: a\r\nX-Key: good\r\nContent-Length: 20\r\n\r\n0123456789")
        #expect(!client.hasInput(within: .milliseconds(300)), "nothing is answered before the body is complete")
        try client.send("0123456789")
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "got 20")
        #expect(response.header("Connection") != "close")
    }

    @Test func aWholeBodyAlreadyReceivedIsReadAndTheConnectionKept() throws {
        let server = try server()
        defer { server.stop() }
        let client = try server.client(timeout: .seconds(2))
        try client.request("POST", "/nowhere", headers: [("X-Key", "good")], body: Array("0123456789".utf8))
        #expect(try client.readResponse().status == 404)
        try client.request("POST", "/things", headers: [("X-Key", "good")], body: Array("abc".utf8))
        #expect(try client.readResponse().text == "got 3")
    }

    @Test func aMiddlewareThatMayReadTheBodyGetsItFirst() throws {
        let server = try server(OpaqueMiddleware())
        defer { server.stop() }
        let client = try server.client(timeout: .seconds(2))
        try client.send("POST /nowhere HTTP/1.1\r\nHost: a\r\nContent-Length: 20\r\n\r\n0123456789")
        #expect(!client.hasInput(within: .milliseconds(300)))
        try client.send("0123456789")
        let response = try client.readResponse()
        #expect(response.status == 404)
        #expect(response.header("Connection") != "close")
    }
}
