import Foundation
@testable import HTTPServer
import Logging
import Testing

/// A `LogHandler` keeping every event in memory.
struct MiddlewareMemoryLogHandler: LogHandler {
    /// The events logged through any copy of the handler.
    /// `@unchecked Sendable`: `events` is only touched while holding `lock`.
    final class Store: @unchecked Sendable {
        private let lock = NSLock()
        private var events: [LogEvent] = []
        func append(_ event: LogEvent) { lock.withLock { events.append(event) } }
        var all: [LogEvent] { lock.withLock { events } }
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var event = event
        event.metadata = metadata.merging(event.metadata ?? [:]) { _, new in new }
        store.append(event)
    }
}

@Suite("Access log middleware")
struct MiddlewareAccessLogTests {
    typealias T = RouterTestSupport

    /// A router with the access log around two routes, and the store its lines land in.
    static func setUp(level: Logger.Level = .info, loggerLevel: Logger.Level = .trace)
        -> (any HTTPResponder, MiddlewareMemoryLogHandler.Store, Logger)
    {
        let store = MiddlewareMemoryLogHandler.Store()
        var logger = Logger(label: "access") { _ in MiddlewareMemoryLogHandler(store: store) }
        logger.logLevel = loggerLevel
        var router = Router()
        router.add(middleware: AccessLogMiddleware(level: level))
        router.get("/v1/devices/{deviceId}") { _, _ in .text("hello") }
        router.get("/v1/boom") { _, _ in throw CancellationError() }
        router.get("/v1/events") { _, _ in HTTPResponse(body: .stream(HTTPBodyStream { $0.finish() })) }
        return (router.buildResponder(), store, logger)
    }

    static func send(_ responder: any HTTPResponder, _ logger: Logger, _ method: HTTPMethod, _ target: String) throws
        -> HTTPResponse
    {
        try responder.respond(
            to: HTTPRequest(method: method, target: target), context: T.context(logger: logger))
    }

    @Test func logsOneLineWithStatusBytesDurationRouteAndRequestId() throws {
        let (responder, store, logger) = Self.setUp()
        _ = try Self.send(responder, logger, .get, "/v1/devices/d1?x=1")
        let events = store.all
        try #require(events.count == 1)
        let event = events[0]
        #expect(event.level == .info)
        #expect(event.message.description == "GET /v1/devices/d1?x=1 200")
        let metadata = event.metadata ?? [:]
        #expect(metadata["http.status"]?.description == "200")
        #expect(metadata["http.bytes"]?.description == "5")
        #expect(metadata["http.route"]?.description == "/v1/devices/{deviceId}")
        #expect(metadata["http.method"]?.description == "GET")
        #expect(metadata["request-id"]?.description == "req-1")
        let duration = try #require(metadata["http.duration_ms"]?.description)
        #expect(duration.wholeMatch(of: /\d+\.\d{3}/) != nil)
    }

    @Test func thrownErrorsAreLoggedWithTheStatusTheyWillBecomeAndRethrown() throws {
        let (responder, store, logger) = Self.setUp()
        let problem = #expect(throws: HTTPProblem.self) { try Self.send(responder, logger, .get, "/nowhere") }
        #expect(problem?.status == .notFound)
        #expect(throws: CancellationError.self) { try Self.send(responder, logger, .get, "/v1/boom") }
        #expect(throws: HTTPProblem.self) { try Self.send(responder, logger, .delete, "/v1/boom") }

        let events = store.all
        #expect(events.map(\.message.description) == ["GET /nowhere 404", "GET /v1/boom 500", "DELETE /v1/boom 405"])
        #expect(events[0].metadata?["http.route"] == nil)
        #expect(events[1].metadata?["http.route"]?.description == "/v1/boom")
        #expect(events.allSatisfy { $0.metadata?["http.bytes"] == nil })
    }

    @Test func streamsHaveNoSize() throws {
        let (responder, store, logger) = Self.setUp()
        _ = try Self.send(responder, logger, .get, "/v1/events")
        #expect(store.all.count == 1)
        #expect(store.all.first?.metadata?["http.status"]?.description == "200")
        #expect(store.all.first?.metadata?["http.bytes"] == nil)
    }

    @Test func accessTokensAreRedacted() throws {
        let (responder, store, logger) = Self.setUp()
        _ = try Self.send(responder, logger, .get, "/v1/events?lastEventId=4&access_token=s3cr%2Bet&b")
        _ = try Self.send(responder, logger, .get, "/v1/events?access%5Ftoken=abc")
        let lines = store.all.map(\.message.description)
        #expect(
            lines == [
                "GET /v1/events?lastEventId=4&access_token=REDACTED&b 200",
                "GET /v1/events?access%5Ftoken=REDACTED 200",
            ])
        #expect(store.all.allSatisfy { !($0.metadata?["http.target"]?.description ?? "").contains("s3cr") })
        #expect(store.all.allSatisfy { !($0.metadata?["http.target"]?.description ?? "").contains("abc") })
    }

    @Test func redactionLeavesOtherTargetsAlone() {
        let names: Set<String> = ["access_token"]
        #expect(AccessLogMiddleware.redact("/a", names: names) == "/a")
        #expect(AccessLogMiddleware.redact("/a?", names: names) == "/a?")
        #expect(AccessLogMiddleware.redact("/a?access_token", names: names) == "/a?access_token")
        #expect(AccessLogMiddleware.redact("/a?x=1&&access_token=", names: names) == "/a?x=1&&access_token=REDACTED")
        #expect(AccessLogMiddleware.redact("/a?access_token=1", names: []) == "/a?access_token=1")
    }

    @Test func levelIsConfigurableAndRespectsTheLogger() throws {
        let (responder, store, logger) = Self.setUp(level: .debug, loggerLevel: .info)
        _ = try Self.send(responder, logger, .get, "/v1/devices/d1")
        #expect(store.all.isEmpty)

        let (verbose, verboseStore, verboseLogger) = Self.setUp(level: .debug, loggerLevel: .debug)
        _ = try Self.send(verbose, verboseLogger, .get, "/v1/devices/d1")
        #expect(verboseStore.all.map(\.level) == [.debug])
    }

    @Test func millisecondsAreFormattedWithThreeDecimals() {
        #expect(AccessLogMiddleware.milliseconds(.microseconds(1)) == "0.001")
        #expect(AccessLogMiddleware.milliseconds(.milliseconds(12) + .microseconds(340)) == "12.340")
        #expect(AccessLogMiddleware.milliseconds(.seconds(2)) == "2000.000")
        #expect(AccessLogMiddleware.milliseconds(.zero) == "0.000")
        #expect(AccessLogMiddleware.milliseconds(.seconds(86_400 * 365) + .nanoseconds(999)) == "31536000000.000")
        #expect(AccessLogMiddleware.milliseconds(.microseconds(-5)) == "0.000")
        #expect(AccessLogMiddleware.milliseconds(.nanoseconds(1_234_567_891)) == "1234.567")
    }
}

/// An `AccessLogWriter` keeping every line in memory.
final class MemoryAccessLogWriter: AccessLogWriter, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [AccessLogLine] = []
    func write(_ line: AccessLogLine) { lock.withLock { stored.append(line) } }
    var lines: [AccessLogLine] { lock.withLock { stored } }
}

/// Issue 29: the access log's lines handed to the server's own writer say exactly what the `Logger` path says.
@Suite struct AccessLogWriterTests {
    @Test func aWritersLineCarriesTheLoggerPathsMessageAndEveryMetadataPairTheTenantIncluded() throws {
        let store = MiddlewareMemoryLogHandler.Store()
        let logger = Logger(label: "access") { _ in MiddlewareMemoryLogHandler(store: store) }
        let writer = MemoryAccessLogWriter()
        for middleware in [AccessLogMiddleware(), AccessLogMiddleware(writer: writer)] {
            var router = Router()
            router.add(middleware: middleware)
            router.get("/v1/devices/{deviceId}") { _, context in
                context.addLogMetadata("tenant", "ten_1")
                return .text("hello")
            }
            let context = RouterTestSupport.context(logger: logger)
            _ = try router.buildResponder().respond(
                to: HTTPRequest(method: .get, target: "/v1/devices/d1?access_token=secret"), context: context)
            _ = try? router.buildResponder().respond(to: HTTPRequest(method: .post, target: "/nowhere"), context: context)
        }
        let events = store.all, lines = writer.lines
        try #require(events.count == 2 && lines.count == 2)
        for (event, line) in zip(events, lines) {
            #expect(line.message == event.message.description)
            #expect(line.level == event.level)
            var fromLine: [String: String] = [:]
            for (key, value) in line.allMetadata { fromLine[key] = value }
            var fromEvent = (event.metadata ?? [:]).mapValues(\.description)
            // Durations differ between two runs: each is well formed, and the rest is equal.
            #expect(fromLine.removeValue(forKey: "http.duration_ms")?.wholeMatch(of: /\d+\.\d{3}/) != nil)
            #expect(fromEvent.removeValue(forKey: "http.duration_ms")?.wholeMatch(of: /\d+\.\d{3}/) != nil)
            #expect(fromLine == fromEvent)
        }
        #expect(lines[0].target == "/v1/devices/d1?access_token=REDACTED" && lines[0].metadata.contains { $0 == ("tenant", "ten_1") })
        #expect(lines[1].status == .notFound && lines[1].route == nil)
    }
}
