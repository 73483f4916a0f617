@testable import HTTPServer
import Testing

@Suite("Router matching")
struct RouterMatchingTests {
    typealias T = RouterTestSupport

    static func deviceRouter() -> any HTTPResponder {
        var router = Router()
        router.get("/", use: T.echo("root"))
        router.get("/v1/devices", use: T.echo("list"))
        router.get("/v1/devices/current", use: T.echo("current"))
        router.get("/v1/devices/{deviceId}", use: T.echo("device"))
        router.get("/v1/devices/{deviceId}/apps/{bundleId}", use: T.echo("app"))
        return router.buildResponder()
    }

    @Test func literalBeatsParameterAtTheSameDepth() throws {
        let responder = Self.deviceRouter()
        #expect(T.text(try T.send(responder, .get, "/v1/devices/current")) == "current /v1/devices/current")
        #expect(
            T.text(try T.send(responder, .get, "/v1/devices/dev_1")) == "device /v1/devices/{deviceId} deviceId=dev_1")
    }

    @Test func backtracksToTheParameterWhenTheLiteralBranchLeadsNowhere() throws {
        var router = Router()
        router.get("/a/b", use: T.echo("literal"))
        router.get("/a/{x}/c", use: T.echo("param"))
        let responder = router.buildResponder()
        #expect(T.text(try T.send(responder, .get, "/a/b")) == "literal /a/b")
        #expect(T.text(try T.send(responder, .get, "/a/b/c")) == "param /a/{x}/c x=b")
    }

    @Test func parametersArePercentDecodedPerSegment() throws {
        let responder = Self.deviceRouter()
        let response = try T.send(responder, .get, "/v1/devices/a%2Fb/apps/com.example%20app+1?x=%2F")
        #expect(
            T.text(response)
                == "app /v1/devices/{deviceId}/apps/{bundleId} deviceId=a/b bundleId=com.example app+1")
    }

    @Test func rootAndQueryStrings() throws {
        let responder = Self.deviceRouter()
        #expect(T.text(try T.send(responder, .get, "/")) == "root /")
        #expect(T.text(try T.send(responder, .get, "/?a=b")) == "root /")
        #expect(T.text(try T.send(responder, .get, "/v1/devices?limit=5")) == "list /v1/devices")
    }

    @Test(arguments: ["/v1/devices/", "/v1//devices", "//", "/v1/devices/dev_1/", "/v1/devices//apps/x", "/v2", "",
        "*", "/v1/devices/dev_1/apps", "/v1/devices/dev_1/apps/b/extra"])
    func unmatchedPathsAre404(target: String) throws {
        let problem = #expect(throws: HTTPProblem.self) { try T.send(Self.deviceRouter(), .get, target) }
        #expect(problem?.status == .notFound)
        #expect(problem?.code == "notFound")
    }

    @Test func anEmptySegmentWhereAParameterBelongsNamesIt() throws {
        let problem = #expect(throws: HTTPProblem.self) {
            try T.send(Self.deviceRouter(), .get, "/v1/devices//apps/com.example.app")
        }
        #expect(problem?.status == .notFound)
        #expect(problem?.detail?.contains("deviceId") == true)
        #expect(problem?.detail?.contains("/v1/devices/{deviceId}/apps/{bundleId}") == true)
        // An empty segment no route explains stays a plain 404.
        let plain = #expect(throws: HTTPProblem.self) { try T.send(Self.deviceRouter(), .get, "/v1//x") }
        #expect(plain?.detail?.contains("belongs") == false)
    }

    @Test(arguments: ["/v1/devices/%ZZ", "/v1/devices/%F", "/v1/devices/%FF%FE", "/v1/devices/ok/apps/%C3"])
    func undecodableParameterIs400(target: String) throws {
        let problem = #expect(throws: HTTPProblem.self) { try T.send(Self.deviceRouter(), .get, target) }
        #expect(problem?.status == .badRequest)
        #expect(problem?.code == "invalidPath")
    }

    @Test func eachMethodBindsItsOwnParameterNames() throws {
        var router = Router()
        router.get("/items/{id}", use: T.echo("get"))
        router.delete("/items/{key}", use: T.echo("delete"))
        let responder = router.buildResponder()
        #expect(T.text(try T.send(responder, .get, "/items/7")) == "get /items/{id} id=7")
        #expect(T.text(try T.send(responder, .delete, "/items/7")) == "delete /items/{key} key=7")
    }

    @Test func literalsMatchTheEncodedPathByteForByte() throws {
        var router = Router()
        router.get("/a:b/c@d", use: T.echo("odd"))
        let responder = router.buildResponder()
        #expect(T.text(try T.send(responder, .get, "/a:b/c@d")) == "odd /a:b/c@d")
        #expect(throws: HTTPProblem.self) { try T.send(responder, .get, "/A:b/c@d") }
    }

    @Test func fallbackAnswersUnmatchedPathsOnly() throws {
        var router = Router()
        router.get("/v1/devices", use: T.echo("list"))
        router.fallback = HTTPClosureResponder { request, context in
            .text("fallback \(request.path) \(context.route ?? "nil")")
        }
        let responder = router.buildResponder()
        #expect(T.text(try T.send(responder, .get, "/index.html")) == "fallback /index.html nil")
        #expect(T.text(try T.send(responder, .get, "/v1/devices/")) == "fallback /v1/devices/ nil")
        #expect(T.text(try T.send(responder, .get, "/v1/devices")) == "list /v1/devices")
        let problem = #expect(throws: HTTPProblem.self) { try T.send(responder, .post, "/v1/devices") }
        #expect(problem?.status == .methodNotAllowed)
    }

    @Test func patternsAreValidated() throws {
        #expect(try RoutePattern("/").segments.isEmpty)
        #expect(try RoutePattern("/a/{b}").segments == [.literal(Array("a".utf8)), .parameter("b")])
        #expect(try RoutePattern("/a/{b}").shape == "/a/{}")
        for bad in ["", "a", "/a/", "//", "/a//b", "/{}", "/{a", "/{a}x", "/x{a}", "/{a-b}", "/{a}/{a}", "/a b", "/..",
            "/."]
        {
            #expect(throws: RoutePattern.Invalid.self, "\(bad)") { try RoutePattern(bad) }
        }
    }

    @Test func registeringTheSameShapeTwiceStopsTheProgram() async {
        await #expect(processExitsWith: .failure) {
            var router = Router()
            router.get("/a/{x}") { _, _ in .text("1") }
            router.get("/a/{y}") { _, _ in .text("2") }
        }
    }
}
