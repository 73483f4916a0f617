import HTTPServer
import Logging
import Testing

/// Route groups: a prefix and middleware of its own around its routes, and around every request whose path
/// lies under the prefix and matches no route.
@Suite("Router groups")
struct RouterGroupTests {
    typealias T = RouterTestSupport
    typealias Step = RouterMiddlewareTests.Step

    /// Refuses from the head (and in `handle`) requests without `X-Key: <key>`.
    struct Gate: HTTPMiddleware {
        let key: String
        func handle(
            _ request: HTTPRequest, context: HTTPRequestContext,
            next: (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse
        ) throws -> HTTPResponse {
            guard request.headers["X-Key"] == key else { throw HTTPProblem(status: .unauthorized, code: "gate-\(key)") }
            return try next(request, context)
        }

        func judgeHead(_ head: HTTPRequest, context: HTTPRequestContext) -> HTTPHeadVerdict {
            head.headers["X-Key"] == key ? .passes : .answers
        }
    }

    /// `A` around everything; `/v1` with `V`; `/v1/admin` beside it with `D`; `/v1/apps` inside `/v1` with `P`.
    static func router(_ recorder: RouterTestRecorder, fallback: Bool = false) -> Router {
        var router = Router()
        router.add(middleware: Step(name: "A", recorder: recorder))
        router.get("/healthz", use: T.echo("health"))
        router.group("/v1/admin") { admin in
            admin.get("/tenants/{tenantId}", use: T.echo("tenant"))
            admin.add(middleware: Step(name: "D", recorder: recorder))
        }
        router.group("/v1") { v1 in
            v1.add(middleware: Step(name: "V", recorder: recorder))
            v1.get("/", use: T.echo("v1"))
            v1.get("/items/{id}", use: T.echo("item"))
            v1.post("/items/{id}/archive", use: T.echo("archive"))
            v1.group("/apps") { apps in
                apps.add(middleware: Step(name: "P", recorder: recorder))
                apps.get("/{bundleId}", use: T.echo("app"))
            }
        }
        if fallback {
            router.fallback = HTTPClosureResponder { _, _ in
                recorder.append("fallback")
                return .text("fallback")
            }
        }
        return router
    }

    /// The middleware names a request passed, in order (the `in` half of `Step`'s record).
    static func passed(_ recorder: RouterTestRecorder) -> [String] {
        recorder.all.filter { $0.contains(" in ") }.map { String($0.prefix(while: { $0 != " " })) }
    }

    @Test func aGroupsRoutesAreItsPrefixFollowedByTheirPatterns() throws {
        let responder = Self.router(RouterTestRecorder()).buildResponder()
        #expect(T.text(try T.send(responder, .get, "/v1/items/7")) == "item /v1/items/{id} id=7")
        #expect(T.text(try T.send(responder, .get, "/v1")) == "v1 /v1", "`/` in a group is its prefix")
        #expect(T.text(try T.send(responder, .get, "/v1/apps/com.a")) == "app /v1/apps/{bundleId} bundleId=com.a")
        #expect(T.text(try T.send(responder, .get, "/v1/admin/tenants/t1")) == "tenant /v1/admin/tenants/{tenantId} tenantId=t1")
        let problem = #expect(throws: HTTPProblem.self) { try T.send(responder, .get, "/items/7") }
        #expect(problem?.status == .notFound)
    }

    @Test func routesListsWholePatternsInRegistrationOrder() {
        let routes = Self.router(RouterTestRecorder()).routes.map { "\($0.method) \($0.pattern)" }
        #expect(
            routes == [
                "GET /healthz", "GET /v1/admin/tenants/{tenantId}", "GET /v1", "GET /v1/items/{id}",
                "POST /v1/items/{id}/archive", "GET /v1/apps/{bundleId}",
            ])
    }

    @Test func aGroupsMiddlewareRunsInsideTheRoutersAndAroundItsRoutesOnly() throws {
        for (target, expected) in [
            ("/healthz", ["A"]), ("/v1/items/1", ["A", "V"]), ("/v1/admin/tenants/t", ["A", "D"]),
            ("/v1/apps/com.a", ["A", "V", "P"]),
        ] {
            let recorder = RouterTestRecorder()
            _ = try T.send(Self.router(recorder).buildResponder(), .get, target)
            #expect(Self.passed(recorder) == expected, "\(target)")
        }
        let recorder = RouterTestRecorder()
        _ = try T.send(Self.router(recorder).buildResponder(), .get, "/v1/items/1")
        #expect(recorder.all == ["A in /v1/items/{id}", "V in /v1/items/{id}", "V out", "A out"])
    }

    @Test func aPathNoRouteTakesRunsThroughTheGroupWithTheLongestPrefixItLiesUnder() throws {
        for (target, expected) in [
            ("/v1/nowhere", ["A", "V"]), ("/v1/admin/nowhere", ["A", "D"]), ("/v1/admin", ["A", "D"]),
            ("/v1/apps/com.a/nowhere", ["A", "V", "P"]), ("/elsewhere", ["A"]),
            // Segment by segment, on the encoded path: neither is under `/v1` nor `/v1/admin`.
            ("/v1x/items", ["A"]), ("/v1/%61dmin/tenants/t", ["A", "V"]),
        ] {
            let recorder = RouterTestRecorder()
            #expect(throws: HTTPProblem.self, "\(target)") { try T.send(Self.router(recorder).buildResponder(), .get, target) }
            #expect(Self.passed(recorder) == expected, "\(target)")
        }
        let recorder = RouterTestRecorder()
        #expect(T.text(try T.send(Self.router(recorder, fallback: true).buildResponder(), .get, "/v1/index.html")) == "fallback")
        #expect(recorder.all == ["A in nil", "V in nil", "fallback", "V out", "A out"])
    }

    @Test func theRoutersOwnAnswersRunThroughTheGroupOfThePath() throws {
        for (method, target, status) in [
            (HTTPMethod.post, "/v1/items/1", HTTPStatus.methodNotAllowed),
            (.get, "/v1/items/%zz", .badRequest),
            (.get, "/v1/items//archive", .notFound),
            (.post, "/v1/admin/tenants/t", .methodNotAllowed),
        ] {
            let recorder = RouterTestRecorder()
            let problem = #expect(throws: HTTPProblem.self) { try T.send(Self.router(recorder).buildResponder(), method, target) }
            #expect(problem?.status == status, "\(target)")
            #expect(Self.passed(recorder) == (target.hasPrefix("/v1/admin") ? ["A", "D"] : ["A", "V"]), "\(target)")
        }
        let recorder = RouterTestRecorder()
        #expect(try T.send(Self.router(recorder).buildResponder(), .options, "/v1/apps/com.a").status == .noContent)
        #expect(Self.passed(recorder) == ["A", "V", "P"])
    }

    @Test func aGroupsMiddlewareJudgesTheHeadsOfItsPathsAlone() {
        var router = Router()
        router.post("/open", use: T.echo("open"))
        router.group("/v1") { v1 in
            v1.add(middleware: Gate(key: "tenant"))
            v1.post("/things", use: T.echo("things"))
        }
        let responder = router.buildResponder()
        func settled(_ target: String, key: String? = nil) -> Bool {
            var headers = HTTPHeaders()
            if let key { headers["X-Key"] = key }
            return responder.answersWithoutBody(HTTPRequest(method: .post, target: target, headers: headers), context: T.context())
        }
        #expect(settled("/v1/things"), "no key: refused from the head")
        #expect(settled("/v1/nowhere"), "refused from the head, as a route there would be")
        #expect(!settled("/v1/things", key: "tenant"), "a key: the route reads the body")
        #expect(settled("/v1/nowhere", key: "tenant"), "a key and no route: 404")
        #expect(!settled("/open"), "outside the group the gate does not judge")
    }

    @Test func aRouteUnderAGroupsPrefixRegisteredOutsideItStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            var router = Router()
            router.group("/v1") { v1 in v1.get("/a", use: RouterTestSupport.echo("a")) }
            router.get("/v1/b", use: RouterTestSupport.echo("b"))
            _ = router.buildResponder()
        }
        await #expect(processExitsWith: .failure) {
            var router = Router()
            router.group("/v1/admin") { _ in }
            router.group("/v1") { v1 in v1.get("/admin/tenants", use: RouterTestSupport.echo("a")) }
            _ = router.buildResponder()
        }
    }

    @Test func aPrefixDeclaredTwiceOrMalformedStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            var router = Router()
            router.group("/v1") { _ in }
            router.group("/v1") { _ in }
        }
        await #expect(processExitsWith: .failure) {
            var router = Router()
            router.group("/v1") { v1 in v1.group("/admin") { _ in } }
            router.group("/v1/admin") { _ in }
        }
        await #expect(processExitsWith: .failure) {
            var router = Router()
            router.group("/v1/{tenant}") { _ in }
        }
        await #expect(processExitsWith: .failure) {
            var router = Router()
            router.group("/v1/") { _ in }
        }
    }

    @Test func theSameRouteInTwoGroupsStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            var router = Router()
            router.group("/v1") { v1 in
                v1.get("/a/{x}", use: RouterTestSupport.echo("1"))
                v1.group("/a") { a in a.get("/{y}", use: RouterTestSupport.echo("2")) }
            }
        }
    }
}
