import HTTPServer
import Testing

@Suite("Router methods")
struct RouterMethodTests {
    typealias T = RouterTestSupport

    static func itemRouter() -> Router {
        var router = Router()
        router.get("/items", use: T.echo("list"))
        router.post("/items", use: T.echo("create"))
        router.get("/items/{id}", use: T.echo("get"))
        router.put("/items/{id}", use: T.echo("put"))
        router.patch("/items/{id}", use: T.echo("patch"))
        router.delete("/items/{id}", use: T.echo("delete"))
        router.post("/items/{id}/archive", use: T.echo("archive"))
        return router
    }

    @Test func eachMethodReachesItsHandler() throws {
        let responder = Self.itemRouter().buildResponder()
        #expect(T.text(try T.send(responder, .get, "/items")) == "list /items")
        #expect(T.text(try T.send(responder, .post, "/items")) == "create /items")
        #expect(T.text(try T.send(responder, .put, "/items/1")) == "put /items/{id} id=1")
        #expect(T.text(try T.send(responder, .patch, "/items/1")) == "patch /items/{id} id=1")
        #expect(T.text(try T.send(responder, .delete, "/items/1")) == "delete /items/{id} id=1")
    }

    @Test func wrongMethodIs405WithSortedAllow() throws {
        let responder = Self.itemRouter().buildResponder()
        let problem = #expect(throws: HTTPProblem.self) { try T.send(responder, .delete, "/items") }
        #expect(problem?.status == .methodNotAllowed)
        #expect(problem?.code == "methodNotAllowed")
        #expect(problem?.headers["Allow"] == "GET, HEAD, OPTIONS, POST")
        #expect(problem?.response().headers["Allow"] == "GET, HEAD, OPTIONS, POST")

        let other = #expect(throws: HTTPProblem.self) { try T.send(responder, .get, "/items/1/archive") }
        #expect(other?.headers["Allow"] == "OPTIONS, POST")

        let unknown = #expect(throws: HTTPProblem.self) { try T.send(responder, HTTPMethod("BREW"), "/items/1") }
        #expect(unknown?.headers["Allow"] == "DELETE, GET, HEAD, OPTIONS, PATCH, PUT")
    }

    @Test func headUsesTheGetHandlerUnlessItHasItsOwn() throws {
        var router = Self.itemRouter()
        router.on(.head, "/items/{id}", use: T.echo("head"))
        let responder = router.buildResponder()
        #expect(T.text(try T.send(responder, .head, "/items")) == "list /items")
        #expect(T.text(try T.send(responder, .head, "/items/1")) == "head /items/{id} id=1")
        let problem = #expect(throws: HTTPProblem.self) { try T.send(responder, .head, "/items/1/archive") }
        #expect(problem?.status == .methodNotAllowed)
    }

    @Test func optionsAnswers204WithAllowUnlessRouted() throws {
        var router = Self.itemRouter()
        router.on(.options, "/items/{id}/archive", use: T.echo("options"))
        let responder = router.buildResponder()
        let response = try T.send(responder, .options, "/items")
        #expect(response.status == .noContent)
        #expect(response.headers["Allow"] == "GET, HEAD, OPTIONS, POST")
        #expect(T.text(response) == "")
        #expect(T.text(try T.send(responder, .options, "/items/9/archive")) == "options /items/{id}/archive id=9")
        let problem = #expect(throws: HTTPProblem.self) { try T.send(responder, .options, "/nowhere") }
        #expect(problem?.status == .notFound)
    }

    @Test func routesListsEveryRegistrationInOrder() {
        var router = Self.itemRouter()
        router.on(.options, "/", use: T.echo("o"))
        let routes = router.routes.map { "\($0.method) \($0.pattern)" }
        #expect(
            routes == [
                "GET /items", "POST /items", "GET /items/{id}", "PUT /items/{id}", "PATCH /items/{id}",
                "DELETE /items/{id}", "POST /items/{id}/archive", "OPTIONS /",
            ])
        #expect(Router().routes.isEmpty)
    }
}
