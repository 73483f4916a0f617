import Foundation
import Glibc
import BGEmuHTTP
import Testing

/// Event streams of the real executable over real sockets: resuming after `Last-Event-ID` gets exactly what was
/// missed, and two tenants' streams never mix.
@Suite(.serialized) struct EventStreamTests {
    @Test
    func aReconnectingStreamGetsExactlyWhatItMissedAndTenantsNeverMix() throws {
        let service = try LiveService()
        try service.start(apiKey: "events-e2e-key-0123456789")
        defer { service.stop() }
        let keyA = "events-e2e-key-0123456789"
        let admin = service.client(key: LiveService.adminToken)
        let keyB = try #require(try admin.request("POST", "/v1/admin/tenants", json: #"{"name":"other"}"#).json["apiKey"] as? String)
        let clientA = service.client(key: keyA), clientB = service.client(key: keyB)

        // Live streams of both tenants, opened before anything happens.
        let streamA = try EventStreamConnection(port: service.port, key: keyA)
        let streamB = try EventStreamConnection(port: service.port, key: keyB)
        #expect(streamA.status == 200 && streamA.header("Content-Type") == "text/event-stream")
        #expect(streamA.header("Cache-Control") == "no-store")

        let deviceA = try #require(try clientA.request("POST", "/v1/devices", json: #"{"name":"a"}"#).json["id"] as? String)
        #expect(try clientA.request("PATCH", "/v1/devices/\(deviceA)/conditions", json: #"{"batteryLevel":50}"#).status == 200)
        let deviceB = try #require(try clientB.request("POST", "/v1/devices", json: #"{"name":"b"}"#).json["id"] as? String)

        let seenA = try streamA.read(events: 2)
        #expect(seenA.map(\.type) == ["device.created", "device.conditionsChanged"])
        #expect(seenA.allSatisfy { $0.json["deviceId"] as? String == deviceA })
        let seenB = try streamB.read(events: 1)
        #expect(seenB.map(\.type) == ["device.created"] && seenB.first?.json["deviceId"] as? String == deviceB)
        let lastSeen = try #require(seenA.last?.id)

        // A goes away; more happens meanwhile, on both tenants.
        streamA.close()
        for level in [40, 30] {
            #expect(try clientA.request("PATCH", "/v1/devices/\(deviceA)/conditions", json: #"{"batteryLevel":\#(level)}"#).status == 200)
        }
        #expect(try clientB.request("PATCH", "/v1/devices/\(deviceB)/conditions", json: #"{"charging":true}"#).status == 200)

        // Resuming after the last id seen: exactly the two missed events, in order, and the log agrees.
        let resumed = try EventStreamConnection(port: service.port, key: keyA, lastEventId: lastSeen)
        defer { resumed.close() }
        let missed = try resumed.read(events: 2)
        #expect(missed.map(\.type) == ["device.conditionsChanged", "device.conditionsChanged"])
        let listed = try clientA.request("GET", "/v1/events?after=\(lastSeen)").json["items"] as? [[String: Any]] ?? []
        #expect(missed.map(\.id) == listed.compactMap { ($0["id"] as? Int).map(Int64.init) })
        #expect(missed.map(\.id) == missed.map(\.id).sorted() && missed.allSatisfy { $0.id > lastSeen })
        #expect(try resumed.read(events: 1, timeout: 0.5).isEmpty)  // nothing repeated, nothing of B

        let moreB = try streamB.read(events: 1)
        #expect(moreB.map(\.type) == ["device.conditionsChanged"] && moreB.first?.json["deviceId"] as? String == deviceB)
        streamB.close()
    }

    @Test
    func theNewestPageThenTheStreamThenOlderPagesHoldEveryEventOnce() throws {
        let key = "paging-e2e-key-0123456789"
        let service = try LiveService()
        try service.start(apiKey: key)
        defer { service.stop() }
        let client = service.client(key: key)
        let device = try #require(try client.request("POST", "/v1/devices", json: #"{"name":"a"}"#).json["id"] as? String)
        let events = "/v1/devices/\(device)/events"
        for level in 1...24 {
            #expect(try client.request("PATCH", "/v1/devices/\(device)/conditions", json: #"{"batteryLevel":\#(level)}"#).status == 200)
        }
        func page(_ query: String) throws -> (ids: [Int64], next: String?) {
            let json = try client.request("GET", "\(events)?\(query)").json
            let items = json["items"] as? [[String: Any]] ?? []
            return (items.compactMap { ($0["id"] as? Int).map(Int64.init) }, json["nextCursor"] as? String)
        }

        // As the dashboard does: the newest page, then the stream from its newest id, then older pages.
        let newest = try page("order=desc&limit=10")
        #expect(newest.ids.count == 10 && newest.ids == newest.ids.sorted(by: >))
        let newestId: Int64 = try #require(newest.ids.first)
        let stream = try EventStreamConnection(port: service.port, key: key, path: events, lastEventId: newestId)
        defer { stream.close() }
        for level in 50...52 {
            #expect(try client.request("PATCH", "/v1/devices/\(device)/conditions", json: #"{"batteryLevel":\#(level)}"#).status == 200)
        }
        let live = try stream.read(events: 3).map(\.id)
        var older: [Int64] = []
        var cursor = newest.next
        while let next = cursor {
            let more = try page("order=desc&limit=10&cursor=\(next)")
            older += more.ids
            cursor = more.next
        }
        let held = older.reversed() + newest.ids.reversed() + live
        let all = try page("limit=500").ids
        #expect(all.count == 28)
        #expect(held == all, "no gap, no duplicate")
    }

    @Test func theHeartbeatIntervalIsConfigurable() throws {
        let service = try LiveService()
        try service.start(apiKey: "heartbeat-key-0123456789", extraArguments: ["--sse-heartbeat", "0.2"])
        defer { service.stop() }
        let stream = try EventStreamConnection(port: service.port, key: "heartbeat-key-0123456789")
        defer { stream.close() }
        #expect(stream.header("X-Accel-Buffering") == "no")
        #expect(stream.waitFor("retry:", timeout: 30))
        // At the default 15 s the first would be 15 s away: one within half that came at the configured 0.2 s.
        #expect(stream.waitFor("\n:", timeout: 7.5), "a comment line arrives within 7.5 s at a 0.2 s heartbeat")
    }
}

/// A raw `text/event-stream` connection: sends the request, then reads the chunked body as events arrive.
final class EventStreamConnection {
    struct Event {
        var id: Int64
        var type: String
        var json: [String: Any]
    }

    private let socket: RawSocket
    private var buffer: [UInt8] = []
    private var headEnd: Int?
    private var consumedEvents = 0
    private(set) var status = 0
    private var headers: [(String, String)] = []

    init(port: Int, key: String, path: String = "/v1/events", lastEventId: Int64? = nil) throws {
        socket = try RawSocket(port: port, receiveTimeout: .milliseconds(100))
        var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n"
        head += "Authorization: Bearer \(key)\r\n"
        if let lastEventId { head += "Last-Event-ID: \(lastEventId)\r\n" }
        head += "\r\n"
        try socket.send(head)
        try readHead()
    }

    func close() { socket.close() }

    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }

    /// The next `count` events (fewer if `timeout` seconds pass first); comments and `retry:` are skipped.
    func read(events count: Int, timeout: TimeInterval = 10) throws -> [Event] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let all = parsedEvents()
            if all.count - consumedEvents >= count {
                defer { consumedEvents += count }
                return Array(all[consumedEvents..<(consumedEvents + count)])
            }
            receive()
        }
        let all = parsedEvents()
        defer { consumedEvents = all.count }
        return Array(all[consumedEvents...])
    }

    /// The `data:` JSON of the transient events named `name` received so far (blocks without an `id:` line),
    /// receiving more until `done` holds for them or `timeout` seconds pass; `withId` counts the blocks of that name
    /// that had an id (a transient event must have none).
    func transientEvents(
        named name: String, timeout: TimeInterval = 30, until done: ([[String: Any]]) -> Bool
    ) -> (events: [[String: Any]], withId: Int) {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            var events: [[String: Any]] = []
            var withId = 0
            if let headEnd {
                let text = String(decoding: Self.dechunk(Array(buffer[headEnd...])), as: UTF8.self)
                for block in text.components(separatedBy: "\n\n") {
                    let lines = block.split(separator: "\n")
                    guard lines.contains(where: { $0 == "event: \(name)" }) else { continue }
                    if lines.contains(where: { $0.hasPrefix("id:") }) { withId += 1; continue }
                    guard let data = lines.first(where: { $0.hasPrefix("data: ") })?.dropFirst(6),
                        let json = (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any]
                    else { continue }
                    events.append(json)
                }
            }
            if done(events) || Date() >= deadline { return (events, withId) }
            receive()
        }
    }

    /// Waits until the raw body contains `text` (a comment line, say); false when `timeout` seconds pass first.
    func waitFor(_ text: String, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if String(decoding: buffer, as: UTF8.self).contains(text) { return true }
            receive()
        }
        return false
    }

    private func receive() {
        if case .bytes(let bytes) = socket.receive(upTo: 16_384) { buffer += bytes }
    }

    private func readHead() throws {
        let deadline = Date().addingTimeInterval(30)
        while headEnd == nil, Date() < deadline {
            receive()
            if let end = Self.find([13, 10, 13, 10], in: buffer) { headEnd = end + 4 }
        }
        guard let headEnd else { throw StreamError.noHead }
        let lines = String(decoding: buffer[0..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        status = Int(lines[0].split(separator: " ").dropFirst().first ?? "") ?? 0
        headers = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
    }

    /// Every complete event received so far: the chunked body joined, cut at its last blank line.
    private func parsedEvents() -> [Event] {
        guard let headEnd else { return [] }
        let body = Self.dechunk(Array(buffer[headEnd...]))
        let text = String(decoding: body, as: UTF8.self)
        guard let lastBlank = text.range(of: "\n\n", options: .backwards) else { return [] }
        return text[..<lastBlank.lowerBound].components(separatedBy: "\n\n").compactMap { block in
            var id: Int64?, type: String?, data: String?
            for line in block.split(separator: "\n") {
                if line.hasPrefix("id: ") { id = Int64(line.dropFirst(4)) }
                if line.hasPrefix("event: ") { type = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { data = (data.map { $0 + "\n" } ?? "") + line.dropFirst(6) }
            }
            guard let id, let type, let data,
                let json = (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any]
            else { return nil }
            return Event(id: id, type: type, json: json)
        }
    }

    /// The data of complete chunks (RFC 9112 §7.1); an incomplete last chunk is left for later.
    private static func dechunk(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while let lineEnd = find([13, 10], in: bytes, from: index) {
            let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText, radix: 16), size > 0, lineEnd + 2 + size <= bytes.count else { break }
            out += bytes[(lineEnd + 2)..<(lineEnd + 2 + size)]
            index = lineEnd + 2 + size + 2
        }
        return out
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
        HTTPClient.find(needle, in: haystack, from: start)
    }

    enum StreamError: Error { case noHead }
}
