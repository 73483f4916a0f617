import Foundation
import HTTPServer
import Synchronization
import Testing

/// The metrics hook: the router reports each answer with its route template, and the server counts connections.
@Suite("Route observer and server statistics")
struct RouteObserverTests {
    typealias T = RouterTestSupport

    /// Keeps every recorded answer as `METHOD route STATUS`, and which routes recorders were asked for.
    final class Observer: HTTPRouteObserver {
        let answers = Mutex<[String]>([])
        let resolved = Mutex<[String]>([])

        func recorder(forRoute route: String?) -> any HTTPRouteRecorder {
            resolved.withLock { $0.append(route ?? "nil") }
            return Recorder(route: route ?? "nil", observer: self)
        }

        struct Recorder: HTTPRouteRecorder {
            let route: String
            let observer: Observer
            func record(method: HTTPMethod, status: Int, seconds: Double) {
                precondition(seconds >= 0 && seconds < 60)
                observer.answers.withLock { $0.append("\(method) \(route) \(status)") }
            }
        }
    }

    static func router(_ observer: Observer) -> any HTTPResponder {
        var router = Router()
        router.observer = observer
        router.get("/v1/devices/{deviceId}") { _, _ in .text("ok") }
        router.post("/v1/devices/{deviceId}") { _, _ in throw HTTPProblem(status: .conflict, detail: "busy") }
        router.get("/boom") { _, _ in throw CancellationError() }
        return router.buildResponder()
    }

    @Test func answersAreRecordedByRouteTemplateNeverByRawPath() throws {
        let observer = Observer()
        let responder = Self.router(observer)
        _ = try T.send(responder, .get, "/v1/devices/dev_1?x=1")
        _ = try T.send(responder, .get, "/v1/devices/dev_2")
        _ = try T.send(responder, .head, "/v1/devices/dev_3")
        _ = try? T.send(responder, .post, "/v1/devices/dev_4")
        _ = try? T.send(responder, .delete, "/v1/devices/dev_5")
        _ = try T.send(responder, .options, "/v1/devices/dev_6")
        _ = try? T.send(responder, .get, "/boom")
        _ = try? T.send(responder, .get, "/nowhere/dev_7")
        _ = try? T.send(responder, .get, "/v1/devices/%FF")
        #expect(observer.answers.withLock { $0 } == [
            "GET /v1/devices/{deviceId} 200", "GET /v1/devices/{deviceId} 200", "HEAD /v1/devices/{deviceId} 200",
            "POST /v1/devices/{deviceId} 409", "DELETE /v1/devices/{deviceId} 405", "OPTIONS /v1/devices/{deviceId} 204",
            "GET /boom 500", "GET nil 404", "GET nil 400",
        ])
    }

    @Test func recordersAreResolvedWhenTheRouterIsBuiltNotPerRequest() throws {
        let observer = Observer()
        let responder = Self.router(observer)
        let before = observer.resolved.withLock { $0.count }
        #expect(before > 0)
        for _ in 0..<20 { _ = try T.send(responder, .get, "/v1/devices/dev_1") }
        _ = try? T.send(responder, .get, "/nowhere")
        #expect(observer.resolved.withLock { $0.count } == before)
        #expect(Set(observer.resolved.withLock { $0 }) == ["/v1/devices/{deviceId}", "/boom", "nil"])
    }

    @Test func theServerCountsOpenAndAcceptedConnectionsAndRequestsItRefusesItself() throws {
        let server = try CoreTestServer { _, _ in .text("ok") }
        defer { server.stop() }
        #expect(server.server.statistics == HTTPServerStatistics())
        let first = try server.client()
        try first.request("GET", "/")
        _ = try first.readResponse()
        let second = try server.client()
        try second.request("GET", "/")
        _ = try second.readResponse()
        #expect(server.server.statistics.openConnections == 2)
        #expect(server.server.statistics.acceptedConnections == 2)
        // A malformed request is answered by the server itself, before routing, and counted by status.
        try second.send("GET / HTTP/1.1\r\nHost: a\r\nHost b\r\n\r\n")
        #expect(try second.readResponse().status == 400)
        try waitUntil { server.server.statistics.openConnections == 1 }
        #expect(server.server.statistics.refusedRequests == [400: 1])
        #expect(server.server.statistics.acceptedConnections == 2)
    }

    private func waitUntil(_ condition: () -> Bool) throws {
        let deadline = ContinuousClock.now + .seconds(30)  // returns as soon as it holds
        while !condition() {
            try #require(ContinuousClock.now < deadline, "condition not met in time")
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
}
