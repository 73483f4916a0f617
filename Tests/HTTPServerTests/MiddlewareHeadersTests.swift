import HTTPServer
import Testing

@Suite("Headers middleware")
struct MiddlewareHeadersTests {
    typealias T = RouterTestSupport

    static func responder() -> any HTTPResponder {
        var router = Router()
        router.add(middleware: HeadersMiddleware(["X-Content-Type-Options": "nosniff", "Cache-Control": "no-store"]))
        router.get("/plain") { _, _ in .text("hi") }
        router.get("/cached") { _, _ in
            HTTPResponse(contentType: "text/plain", bytes: [], headers: ["cache-control": "max-age=60"])
        }
        return router.buildResponder()
    }

    @Test func addsTheFieldsToResponses() throws {
        let response = try T.send(Self.responder(), .get, "/plain")
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        #expect(response.headers["Cache-Control"] == "no-store")
        #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
    }

    @Test func keepsFieldsTheHandlerSet() throws {
        let response = try T.send(Self.responder(), .get, "/cached")
        #expect(response.headers.values("Cache-Control") == ["max-age=60"])
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
    }

    @Test func addsTheFieldsToThrownProblems() throws {
        let problem = #expect(throws: HTTPProblem.self) { try T.send(Self.responder(), .post, "/plain") }
        #expect(problem?.headers["X-Content-Type-Options"] == "nosniff")
        #expect(problem?.headers["Allow"] == "GET, HEAD, OPTIONS")
        #expect(problem?.response().headers["X-Content-Type-Options"] == "nosniff")
    }
}
