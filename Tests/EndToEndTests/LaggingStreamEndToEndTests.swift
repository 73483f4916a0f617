import Foundation
import Glibc
import Testing

/// The real service with a small `--max-stream-memory`: streams whose clients stop reading are cut once together
/// they hold more than it, and each client, resuming with `Last-Event-ID`, gets every event it missed once, in order.
/// A tenant's stream share is half of a small `--max-streams`.
@Suite(.serialized) struct LaggingStreamEndToEndTests {
    static let key = "lagging-streams-key-0123456789"

    @Test func streamsBehindPastTheServersStreamMemoryAreCutAndTheirClientsResumeWithoutAGapOrARepeat() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key, extraArguments: [
            "--max-stream-memory", "1", "--max-stream-backlog", "64", "--max-stream-rate-per-tenant", "0",
            "--rate-limit", "0",
        ])
        defer { service.stop() }
        let client = service.client(key: Self.key)
        let device = try Self.scriptedDevice(client, apps: 3)
        let before = try Self.latestEventId(client)
        // 24 streams of 64 KiB each could hold 1.5 MiB: past the 1 MiB of the whole server.
        let streams = try (0..<24).map { _ in try LaggingStream(port: service.port, key: Self.key) }
        var latest = before
        while latest - before < 3000 {
            #expect(try client.request("POST", "/v1/devices/\(device)/clock/advance", json: #"{"seconds":86400}"#).status == 200)
            latest = try Self.latestEventId(client)
        }
        var cut = 0
        var diagnosed = false
        for (index, stream) in streams.enumerated() {
            // What reached the client before the cut (or, for a stream still open, everything, caught up).
            let first = stream.receive(untilEventId: latest, timeout: 60)
            var ids = first.ids
            // Cut: the client resumes after the last event it received whole, as often as it is cut (as an
            // `EventSource` does), reading all the while.
            var closed = first.closedByServer
            if closed { cut += 1 }
            // A part that ended neither closed nor caught up: the server stopped sending to it (not even a
            // heartbeat) without closing it, for 60 s while its client read.
            var stalled = !closed && ids.last != latest
            var stalledStream = stream
            var resumes = 0
            while closed, ids.last != latest, resumes < 20 {
                resumes += 1
                let resumed = try LaggingStream(port: service.port, key: Self.key, lastEventId: ids.last ?? before)
                let more = resumed.receive(untilEventId: latest, timeout: 60)
                ids += more.ids
                closed = more.closedByServer
                if !closed, ids.last != latest {
                    stalled = true
                    stalledStream = resumed
                }
            }
            let expected = Array((before + 1)...latest)
            guard !stalled else {
                // A stall fails the test, with what the stream got last. It was once recorded as a known,
                // intermittent issue (1 in a few full runs): the cause was the test's own socket, a 4 KiB window
                // under loopback's 64 KiB segment, whose reads the kernel never announced (see `RawSocket`, which
                // asks for a segment a quarter of the buffer); 16 full runs since, loaded and in CI, showed none.
                // What the stream did get is still held to the rule: in order, with no gap and no repeat.
                #expect(ids == Array(expected.prefix(ids.count)), "\(Self.difference(ids, expected)) (stalled)")
                if !diagnosed {
                    diagnosed = true
                    let report = Self.stallReport(stalledStream, index: index, of: streams.count, service: service)
                    Issue.record(Comment(rawValue: "an event stream the server stopped sending to without closing it: \(report)"))
                }
                continue
            }
            #expect(ids == expected, "\(Self.difference(ids, expected)) (cut: \(first.closedByServer), first part \(first.ids.count))")
        }
        #expect(cut > 0, "the streams together held more than 1 MiB: some must have been cut")
    }

    @Test func withFiftyStreamsATenantHoldsTwentyFiveAndAnotherTenantStillGetsOne() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key, extraArguments: ["--max-streams", "50"])
        defer { service.stop() }
        let admin = service.client(key: LiveService.adminToken)
        let other = try admin.request("POST", "/v1/admin/tenants", json: #"{"name":"other"}"#)
        let otherKey = try #require(other.json["apiKey"] as? String)
        let held = try (0..<25).map { _ in try LaggingStream(port: service.port, key: Self.key) }
        #expect(held.allSatisfy { $0.status == 200 })
        let refused = try LaggingStream(port: service.port, key: Self.key)
        #expect(refused.status == 429)
        #expect(refused.head.contains("tooManyStreamsForTenant"))
        #expect(try LaggingStream(port: service.port, key: otherKey).status == 200)
    }

    /// What a stream that stopped short got last (a heartbeat after its last event would show its loop still
    /// sends to it), its `recv` errors, the service's stream gauges, and what the service printed.
    static func stallReport(_ stream: LaggingStream, index: Int, of count: Int, service: LiveService) -> String {
        let tail = String(decoding: LaggingStream.dechunk(stream.received).suffix(400), as: UTF8.self)
        let gauges = ((try? service.client(key: LiveService.adminToken).request("GET", "/metrics").text) ?? "")
            .split(separator: "\n").filter { $0.hasPrefix("bgemu_event_stream") || $0.hasPrefix("bgemu_stream") }
        return "stream \(index) of \(count) stopped short; recv errors \(stream.failures.prefix(5)); its last bytes: "
            + "\(tail.debugDescription); gauges: \(gauges.joined(separator: "; ")); the service printed: "
            + String(service.output.suffix(3000))
    }

    /// How `ids` differ from `expected`, in a line: counts, repeats and the first ids missing or out of place.
    static func difference(_ ids: [Int64], _ expected: [Int64]) -> String {
        let repeated = ids.count - Set(ids).count
        let missing = Set(expected).subtracting(ids).sorted()
        let firstOutOfOrder = zip(ids, ids.dropFirst()).first { $0.0 >= $0.1 }
        return "\(ids.count) ids for \(expected.count) events, \(repeated) repeated, \(missing.count) missing "
            + "(first \(missing.prefix(5))), first out of order \(firstOutOfOrder.map { "\($0.0) then \($0.1)" } ?? "none"), "
            + "ids from \(ids.first ?? -1) to \(ids.last ?? -1)"
    }

    /// A device with `apps` apps that fetch and refresh in the background: a day of its clock emits many events.
    static func scriptedDevice(_ client: TestClient, apps: Int) throws -> String {
        let created = try client.request("POST", "/v1/devices", json: #"{"name":"lagging","seed":1}"#)
        let device = try #require(created.json["id"] as? String)
        for index in 0..<apps {
            let bundle = "com.example.lagging\(index)"
            let install = """
                {"bundleId":"\(bundle)","infoPlist":{"UIBackgroundModes":["fetch","processing"],\
                "BGTaskSchedulerPermittedIdentifiers":["\(bundle).refresh"]},"behavior":{"fetch":{"completeAfter":3,\
                "result":"newData"},"appRefresh":{"completeAfter":5,"result":"success","resubmit":true,"resubmitAfter":900}}}
                """
            let base = "/v1/devices/\(device)/apps"
            #expect(try client.request("POST", base, json: install).status == 201)
            #expect(try client.request("POST", "\(base)/\(bundle)/launch").status < 300)
            #expect(try client.request("PUT", "\(base)/\(bundle)/fetch-interval", json: #"{"interval":"minimum"}"#).status < 300)
            let task = #"{"kind":"appRefresh","identifier":"\#(bundle).refresh"}"#
            #expect(try client.request("POST", "\(base)/\(bundle)/task-requests", json: task).status < 300)
            #expect(try client.request("POST", "\(base)/\(bundle)/background").status < 300)
        }
        return device
    }

    static func latestEventId(_ client: TestClient) throws -> Int64 {
        let page = try client.request("GET", "/v1/events?order=desc&limit=1")
        let items = page.json["items"] as? [[String: Any]] ?? []
        return (items.first?["id"] as? NSNumber)?.int64Value ?? 0
    }
}

/// An event stream whose client reads nothing after the head (a 4 KiB receive buffer), until ``receive(untilEventId:timeout:)``.
final class LaggingStream {
    private let socket: RawSocket
    private(set) var status = 0
    private(set) var head = ""
    private var body: [UInt8] = []
    /// Everything received after the head, as it came (chunked).
    var received: [UInt8] { body }
    /// The errors `recv` answered (other than a timeout or a reset), each taken as a receive that got nothing.
    private(set) var failures: [Int32] = []

    init(port: Int, key: String, lastEventId: Int64? = nil) throws {
        socket = try RawSocket(port: port, receiveTimeout: .milliseconds(200), receiveBufferSize: 4096)
        var request = "GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n"
        request += "Authorization: Bearer \(key)\r\n"
        if let lastEventId { request += "Last-Event-ID: \(lastEventId)\r\n" }
        request += "\r\n"
        try socket.send(request)
        // The head (and, for a refusal, its problem document), then nothing more is read.
        let deadline = Date().addingTimeInterval(30)
        var raw: [UInt8] = []
        while Date() < deadline {
            guard let chunk = read() else { continue }
            if chunk.isEmpty { break }
            raw += chunk
            guard let end = raw.firstRange(of: [13, 10, 13, 10]) else { continue }
            status = Int(String(decoding: raw, as: UTF8.self).split(separator: " ").dropFirst().first ?? "") ?? 0
            body = Array(raw[end.upperBound...])
            if status != 200 {
                // The refusal's problem document, whole: as many receives as it takes (one could come too soon).
                let fields = String(decoding: raw[..<end.lowerBound], as: UTF8.self).lowercased().components(separatedBy: "\r\n")
                let length = fields.first { $0.hasPrefix("content-length:") }.flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) }
                if length == nil, let more = read() { body += more }
                while body.count < length ?? 0, Date() < deadline {
                    guard let more = read() else { continue }
                    if more.isEmpty { break }
                    body += more
                }
            }
            head = String(decoding: raw[..<end.lowerBound] + (status == 200 ? [] : body), as: UTF8.self)
            break
        }
    }

    /// One receive: nil on a timeout, empty when the server closed the connection.
    private func read() -> [UInt8]? {
        switch socket.receive() {
        case .bytes(let bytes): return bytes
        case .closed: return []
        case .timedOut: return nil
        case .failed(let code):
            failures.append(code)
            return nil
        }
    }

    /// Reads until the event `id` arrived whole or the server closed the stream (or `timeout` seconds passed);
    /// the ids of the complete events received, and whether the server closed the stream.
    func receive(untilEventId id: Int64, timeout: TimeInterval) -> (ids: [Int64], closedByServer: Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        let needle = Array("id: \(id)\n".utf8)
        var closed = false
        var searchedUpTo = 0
        var sawIdLine = false
        while Date() < deadline {
            // The event's id line arrived: done once its block has ended too.
            sawIdLine = sawIdLine || body[max(0, searchedUpTo - needle.count)...].firstRange(of: needle) != nil
            if sawIdLine, Self.completeEventIds(Self.dechunk(body)).last == id { break }
            searchedUpTo = body.count
            guard let chunk = read() else { continue }
            if chunk.isEmpty {
                closed = true
                break
            }
            body += chunk
        }
        return (Self.completeEventIds(Self.dechunk(body)), closed)
    }

    /// The ids of the events whose block ended (a blank line) in `text`; a cut one is not dispatched (§9.2.6).
    static func completeEventIds(_ bytes: [UInt8]) -> [Int64] {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let lastBlank = text.range(of: "\n\n", options: .backwards) else { return [] }
        return text[..<lastBlank.lowerBound].components(separatedBy: "\n\n").compactMap { block in
            block.split(separator: "\n").first { $0.hasPrefix("id: ") }.flatMap { Int64($0.dropFirst(4)) }
        }
    }

    /// The data of the complete chunks (RFC 9112 §7.1).
    static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while let lineEnd = bytes[index...].firstRange(of: [13, 10])?.lowerBound {
            let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText, radix: 16), size > 0, lineEnd + 2 + size <= bytes.count else { break }
            out += bytes[(lineEnd + 2)..<(lineEnd + 2 + size)]
            index = lineEnd + 2 + size + 2
            guard index < bytes.count else { break }
        }
        return out
    }
}
