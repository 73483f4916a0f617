import HTTPServer
import Testing

/// `context.parameters.require(_:)`: what a route's pattern bound, or an error that says the handler and its
/// pattern disagree.
@Suite("Route parameters")
struct RouteParameterTests {
    typealias T = RouterTestSupport

    @Test func requireAnswersWhatThePatternBound() throws {
        var router = Router()
        router.get("/devices/{deviceId}/apps/{bundleId}") { _, context in
            .text("\(try context.parameters.require("deviceId")) \(try context.parameters.require("bundleId"))")
        }
        #expect(T.text(try T.send(router.buildResponder(), .get, "/devices/d%201/apps/com.a")) == "d 1 com.a")
    }

    /// Only a route table can cause it: the handler asks for a name its pattern does not have.
    @Test func requireOfANameThePatternDoesNotBindThrowsMissingRouteParameter() throws {
        var router = Router()
        router.get("/devices/{id}") { _, context in .text(try context.parameters.require("deviceId")) }
        router.get("/") { _, context in .text(try context.parameters.require("deviceId")) }
        let responder = router.buildResponder()
        let missing = #expect(throws: MissingRouteParameter.self) { try T.send(responder, .get, "/devices/d1") }
        #expect(missing == MissingRouteParameter(name: "deviceId", bound: ["id"]))
        #expect(missing?.description == "the route binds no parameter {deviceId} (it binds {id}): its handler and its pattern disagree")
        let none = #expect(throws: MissingRouteParameter.self) { try T.send(responder, .get, "/") }
        #expect(none?.bound == [])
    }

    /// The server answers it as the defect it is: a logged `500` problem, never a `4xx` blaming the client.
    @Test func aMissingRouteParameterIsAnswered500() throws {
        var router = Router()
        router.get("/devices/{id}") { _, context in .text(try context.parameters.require("deviceId")) }
        let server = try CoreTestServer(responder: router.buildResponder())
        defer { server.stop() }
        let client = try server.client()
        try client.send("GET /devices/d1 HTTP/1.1\r\nHost: a\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 500)
        #expect(response.header("Content-Type") == "application/problem+json")
    }
}
