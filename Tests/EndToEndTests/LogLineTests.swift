@testable import bgemu
import HTTPServer
import Logging
import Testing

/// Issue 29: an access line written straight into bytes (`ServiceAccessLogWriter`, the default) is byte for byte
/// the line `ServiceLogHandler` writes for the same request through the request's logger.
@Suite struct LogLineTests {
    static let timestamp = Array("2026-12-01T19:15:18.123Z".utf8)

    @Test func theAccessWritersLineIsTheLogHandlersLineByteForByte() {
        let cases = [
            AccessLogLine(
                level: .info, method: .get, target: "/v1/devices/d1?access_token=REDACTED", status: .ok, bytes: 512,
                duration: .microseconds(42), route: "/v1/devices/{deviceId}",
                metadata: [("request-id", "fe466f-1-df1e5"), ("tenant", "ten_3f9c")]),
            AccessLogLine(
                level: .info, method: .post, target: "/nowhere", status: .notFound, bytes: nil,
                duration: .microseconds(12_345), route: nil, metadata: [("request-id", "r-2")]),
            AccessLogLine(
                level: .notice, method: .get, target: "/healthz", status: .ok, bytes: 15, duration: .nanoseconds(999),
                route: "/healthz", metadata: [("request-id", "a b=c")]),
            // Request metadata whose keys sort before, between and after the http.* keys, given unsorted.
            AccessLogLine(
                level: .info, method: .delete, target: "/v1/devices/x", status: .noContent, bytes: 0,
                duration: .milliseconds(1), route: "/v1/devices/{deviceId}",
                metadata: [("zeta", "last"), ("request-id", "r-4"), ("alpha", "first"), ("http.m", "between")]),
            AccessLogLine(
                level: .info, method: .get, target: "/", status: .ok, bytes: 1_234_567_890_123, duration: .seconds(86_400) + .microseconds(1),
                route: nil, metadata: []),
        ]
        let writer = ServiceAccessLogWriter(label: "bgemu")
        for line in cases {
            // The Logger path: the request's metadata on the logger's handler, the http.* pairs on the event.
            var handler = ServiceLogHandler(label: "bgemu", level: .trace)
            for (key, value) in line.metadata { handler[metadataKey: key] = .string(value) }
            var eventMetadata: Logger.Metadata = [
                "http.method": .string(line.method.rawValue), "http.target": .string(line.target),
                "http.status": .stringConvertible(line.status.code), "http.duration_ms": .string(line.durationMilliseconds),
            ]
            if let bytes = line.bytes { eventMetadata["http.bytes"] = .stringConvertible(bytes) }
            if let route = line.route { eventMetadata["http.route"] = .string(route) }
            let event = LogEvent(
                level: line.level, message: "\(line.message)", metadata: eventMetadata, source: nil, file: #fileID,
                function: #function, line: #line)
            let viaLogger = handler.line(event, timestamp: Self.timestamp)
            let direct = writer.bytes(line, timestamp: Self.timestamp)
            #expect(direct == viaLogger, "\(String(decoding: direct, as: UTF8.self)) vs \(String(decoding: viaLogger, as: UTF8.self))")
        }
        let first = String(decoding: writer.bytes(cases[0], timestamp: Self.timestamp), as: UTF8.self)
        #expect(first == "2026-12-01T19:15:18.123Z info bgemu: http.bytes=512 http.duration_ms=0.042 http.method=GET "
            + "http.route=/v1/devices/{deviceId} http.status=200 http.target=/v1/devices/d1?access_token=REDACTED "
            + "request-id=fe466f-1-df1e5 tenant=ten_3f9c GET /v1/devices/d1?access_token=REDACTED 200\n")
    }
}
