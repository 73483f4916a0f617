import Dispatch
import Emulation
import Foundation
import HTTPServer
import Synchronization
import Stores

/// An `HTTPStreamWriter` that records what it is given, and can play a slow client (refusing writes past a
/// number, as the server does past its buffer) or a client that goes away.
final class RecordingStreamWriter: HTTPStreamWriter {
    private struct State {
        var bytes: [UInt8] = []
        var open = true
        var finished = false
        var handlers: [@Sendable () -> Void] = []
        /// Writes accepted before the writer refuses and closes (nil: no limit).
        var writesLeft: Int?
    }

    private let state: Mutex<State>

    init(acceptingWrites limit: Int? = nil) {
        state = Mutex(State(writesLeft: limit))
    }

    var isOpen: Bool { state.withLock { $0.open } }
    var isFinished: Bool { state.withLock { $0.finished } }
    var text: String { state.withLock { String(decoding: $0.bytes, as: UTF8.self) } }

    func write(_ bytes: [UInt8]) -> Bool {
        var handlers: [@Sendable () -> Void] = []
        let accepted = state.withLock { state -> Bool in
            guard state.open else { return false }
            if let left = state.writesLeft {
                guard left > 0 else {
                    state.open = false  // the server closes a stream that overflows, and runs the handlers at once
                    handlers = state.handlers
                    state.handlers = []
                    return false
                }
                state.writesLeft = left - 1
            }
            state.bytes += bytes
            return true
        }
        for handler in handlers { handler() }
        return accepted
    }

    func finish() { end(finished: true) }

    /// The client goes away.
    func disconnect() { end(finished: false) }

    func onClose(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            guard state.open else { return true }
            state.handlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    private func end(finished: Bool) {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard state.open else { return [] }
            state.open = false
            state.finished = finished
            defer { state.handlers = [] }
            return state.handlers
        }
        for handler in handlers { handler() }
    }

    /// The stream as a client parses it.
    var parsed: SSEStream { SSEStream(text) }
    /// The ids of the events received so far.
    var eventIds: [Int64] { parsed.events.compactMap { $0.id.flatMap { Int64($0) } } }

    /// Waits up to `timeout` for `condition` on what was received; answers whether it came.
    @discardableResult
    func wait(timeout: Duration = .seconds(10), until condition: (RecordingStreamWriter) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(self) { return true }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return condition(self)
    }
}

/// A `text/event-stream` body read as WHATWG HTML §9.2.6 reads it: blocks separated by a blank line; lines
/// starting with `:` are comments.
struct SSEStream {
    struct Event {
        var id: String?
        var type: String?
        var data: String?
        var retry: String?
    }

    var events: [Event] = []
    var comments: [String] = []
    /// Blocks without a `data:` line (`retry:` only): they dispatch nothing.
    var fieldOnlyBlocks: [Event] = []

    init(_ text: String) {
        for block in text.components(separatedBy: "\n\n") where !block.isEmpty {
            var event = Event()
            for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix(":") {
                    comments.append(String(line.dropFirst()).trimmingCharacters(in: .whitespaces))
                    continue
                }
                let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                let value = parts.count > 1 ? String(parts[1].hasPrefix(" ") ? parts[1].dropFirst() : parts[1]) : ""
                switch parts[0] {
                case "id": event.id = value
                case "event": event.type = value
                case "retry": event.retry = value
                case "data": event.data = event.data.map { $0 + "\n" + value } ?? value
                default: break
                }
            }
            if event.data != nil { events.append(event) } else if event.id != nil || event.retry != nil { fieldOnlyBlocks.append(event) }
        }
    }

    /// The JSON of each event's data.
    var bodies: [[String: Any]] {
        events.compactMap { event in
            event.data.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
    }
}

/// An event log in memory: `record` stands for a commit (ids from 1, in order).
final class MemoryEventStore: EventStore {
    private let log = Mutex<[RecordedEvent]>([])

    /// Appends events of a device, as a commit would; answers them with their ids.
    func record(tenantId: String, deviceId: String, _ events: [EmulationEvent]) -> [RecordedEvent] {
        log.withLock { log in
            let recorded = events.enumerated().map { offset, event in
                RecordedEvent(
                    id: Int64(log.count + offset + 1), tenantId: tenantId, deviceId: deviceId, event: event,
                    recordedAt: Date(timeIntervalSince1970: 1_767_225_600))
            }
            log += recorded
            return recorded
        }
    }

    func events(tenantId: String, filter: EventFilter, afterId: Int64, limit: Int) throws -> [RecordedEvent] {
        let log = log.withLock { $0 }
        return Array(log.lazy.filter { $0.tenantId == tenantId && $0.id > afterId && filter.matches($0) }.prefix(limit))
    }

    func eventsNewestFirst(
        tenantId: String, filter: EventFilter, afterId: Int64, beforeId: Int64?, limit: Int
    ) throws -> [RecordedEvent] {
        let log = log.withLock { $0 }
        return Array(
            log.reversed().lazy.filter {
                $0.tenantId == tenantId && $0.id > afterId && $0.id < (beforeId ?? .max) && filter.matches($0)
            }.prefix(limit))
    }

    func latestEventId() throws -> Int64 { log.withLock { Int64($0.count) } }
}

/// A store whose reads wait for ``open()``: a replay is held at its first page while the test publishes.
final class GatedEventStore: EventStore {
    let inner: any EventStore
    private let gate = DispatchSemaphore(value: 0)
    private let reads = Mutex(0)
    private let failing = Mutex(false)

    init(_ inner: any EventStore) { self.inner = inner }

    /// How many reads have started.
    var readCount: Int { reads.withLock { $0 } }

    /// Lets every waiting and later read through.
    func open() {
        for _ in 0..<64 { gate.signal() }
    }

    /// Makes the reads fail from now on.
    func fail() { failing.withLock { $0 = true } }

    struct Unavailable: Error {}

    func events(tenantId: String, filter: EventFilter, afterId: Int64, limit: Int) throws -> [RecordedEvent] {
        reads.withLock { $0 += 1 }
        gate.wait()
        gate.signal()
        if failing.withLock({ $0 }) { throw Unavailable() }
        return try inner.events(tenantId: tenantId, filter: filter, afterId: afterId, limit: limit)
    }

    func eventsNewestFirst(
        tenantId: String, filter: EventFilter, afterId: Int64, beforeId: Int64?, limit: Int
    ) throws -> [RecordedEvent] {
        try inner.eventsNewestFirst(tenantId: tenantId, filter: filter, afterId: afterId, beforeId: beforeId, limit: limit)
    }

    func latestEventId() throws -> Int64 { try inner.latestEventId() }
}

/// An event of type `type`.
func testEvent(_ type: String, bundleId: String? = nil, data: [String: EventValue] = [:]) -> EmulationEvent {
    EmulationEvent(type: EventType(type), bundleId: bundleId, at: VirtualInstant(milliseconds: 1_767_225_600_000), data: data)
}
