import HTTPServer
import Testing

@Suite("Router middleware")
struct RouterMiddlewareTests {
    typealias T = RouterTestSupport

    /// Records when it is entered and left, and what the context says the route is.
    struct Step: HTTPMiddleware {
        let name: String
        let recorder: RouterTestRecorder
        func handle(
            _ request: HTTPRequest, context: HTTPRequestContext,
            next: (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse
        ) throws -> HTTPResponse {
            recorder.append("\(name) in \(context.route ?? "nil")")
            defer { recorder.append("\(name) out") }
            return try next(request, context)
        }
    }

    static func router(_ recorder: RouterTestRecorder, fallback: Bool) -> any HTTPResponder {
        var router = Router()
        router.add(middleware: Step(name: "A", recorder: recorder))
        router.get("/x/{id}") { _, context in
            recorder.append("handler \(context.parameters["id"] ?? "")")
            return .text("ok")
        }
        router.add(middleware: Step(name: "B", recorder: recorder))
        if fallback {
            router.fallback = HTTPClosureResponder { _, _ in
                recorder.append("fallback")
                return .text("fallback")
            }
        }
        return router.buildResponder()
    }

    @Test func middlewareRunsInOrderAddedOutermostFirstWithTheRouteKnown() throws {
        let recorder = RouterTestRecorder()
        _ = try T.send(Self.router(recorder, fallback: false), .get, "/x/7")
        #expect(recorder.all == ["A in /x/{id}", "B in /x/{id}", "handler 7", "B out", "A out"])
    }

    @Test func middlewareWrapsTheFallback() throws {
        let recorder = RouterTestRecorder()
        _ = try T.send(Self.router(recorder, fallback: true), .get, "/elsewhere")
        #expect(recorder.all == ["A in nil", "B in nil", "fallback", "B out", "A out"])
    }

    @Test func middlewareWrapsTheRoutersOwnAnswers() throws {
        let recorder = RouterTestRecorder()
        let responder = Self.router(recorder, fallback: false)
        #expect(throws: HTTPProblem.self) { try T.send(responder, .get, "/elsewhere") }
        #expect(throws: HTTPProblem.self) { try T.send(responder, .post, "/x/1") }
        #expect(throws: HTTPProblem.self) { try T.send(responder, .get, "/x/%zz") }
        _ = try T.send(responder, .options, "/x/1")
        #expect(
            recorder.all == [
                "A in nil", "B in nil", "B out", "A out",
                "A in /x/{id}", "B in /x/{id}", "B out", "A out",
                "A in /x/{id}", "B in /x/{id}", "B out", "A out",
                "A in /x/{id}", "B in /x/{id}", "B out", "A out",
            ])
    }

    @Test func middlewareMayAnswerWithoutCallingNext() throws {
        struct Gate: HTTPMiddleware {
            func handle(
                _ request: HTTPRequest, context: HTTPRequestContext,
                next: (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse
            ) throws -> HTTPResponse {
                request.headers["Authorization"] == nil ? .text("denied", status: .unauthorized) : try next(request, context)
            }
        }
        var router = Router()
        router.add(middleware: Gate())
        router.get("/", use: T.echo("root"))
        let responder = router.buildResponder()
        #expect(try T.send(responder, .get, "/").status == .unauthorized)
        #expect(try T.send(responder, .get, "/", headers: ["Authorization": "Bearer x"]).status == .ok)
    }
}
