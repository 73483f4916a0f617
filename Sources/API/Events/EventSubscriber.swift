import Emulation
import HTTPServer
import Synchronization

/// An event with its stream bytes, encoded once for every subscriber.
struct EncodedEvent: Sendable {
    var recorded: RecordedEvent
    var bytes: [UInt8]
    var id: Int64 { recorded.id }
}

/// One open event stream: whose events it wants, where it stands, and its writer.
///
/// A stream resuming after a `Last-Event-ID` starts **replaying**: the hub's replay worker writes the stored events
/// page by page, while live events delivered meanwhile are kept in a bounded buffer; at the hand-off the buffered
/// events not already replayed are written and the stream goes **live**. `lastSentId` (under ``state``) is the one
/// rule against repeats: nothing with an id at or below it is ever written again.
final class EventSubscriber: Sendable {
    enum Phase: Equatable {
        case replaying
        case live
        case closed
    }

    /// What the end of a replay found.
    enum Handoff: Equatable {
        /// The buffered events were written: the stream is live.
        case live
        /// Live events overflowed the buffer: replay again from the store, where they all are.
        case replayAgain
        /// The stream is gone.
        case closed
    }

    private struct State {
        var phase: Phase
        var lastSentId: Int64
        var buffer: [EncodedEvent] = []
        var bufferOverflowed = false
    }

    /// Live events kept while replaying; past this the buffer is dropped and the replay runs again.
    static let bufferLimit = 1_000

    let id: UInt64
    let tenantId: String
    let filter: EventFilter
    let writer: any HTTPStreamWriter
    /// Phase, position and buffer. Writes to `writer` happen under it, so that events leave in id order whichever
    /// thread (publisher, replay worker) writes; the writer never blocks (it queues, or refuses when full).
    private let state: Mutex<State>

    init(id: UInt64, tenantId: String, filter: EventFilter, writer: any HTTPStreamWriter, resumingAfter lastEventId: Int64?,
         liveAfter watermark: Int64) {
        self.id = id
        self.tenantId = tenantId
        self.filter = filter
        self.writer = writer
        state = Mutex(State(phase: lastEventId == nil ? .live : .replaying, lastSentId: lastEventId ?? watermark))
    }

    var phase: Phase { state.withLock { $0.phase } }
    var lastSentId: Int64 { state.withLock { $0.lastSentId } }

    /// A live event of this subscriber's tenant that passed its filter: written when live, buffered when replaying.
    /// False when the stream is closed (the hub then forgets it).
    func offer(_ event: EncodedEvent) -> Bool {
        state.withLock { state in
            switch state.phase {
            case .closed:
                return false
            case .replaying:
                if event.id > state.lastSentId && !state.bufferOverflowed {
                    if state.buffer.count < Self.bufferLimit {
                        state.buffer.append(event)
                    } else {
                        state.buffer = []
                        state.bufferOverflowed = true
                    }
                }
                return true
            case .live:
                return Self.write(event, &state, writer)
            }
        }
    }

    /// Stored events, oldest first, from the replay worker. False when the stream is closed.
    func replay(_ events: [EncodedEvent]) -> Bool {
        state.withLock { state in
            guard state.phase == .replaying else { return false }
            for event in events where !Self.write(event, &state, writer) { return false }
            return true
        }
    }

    /// Ends the replay: writes the buffered live events not replayed, then goes live (or asks for another round).
    func finishReplay() -> Handoff {
        state.withLock { state in
            guard state.phase == .replaying else { return .closed }
            if state.bufferOverflowed {
                state.bufferOverflowed = false
                return .replayAgain
            }
            let buffered = state.buffer
            state.buffer = []
            for event in buffered where !Self.write(event, &state, writer) { return .closed }
            state.phase = .live
            return .live
        }
    }

    /// Stops every further write (the stream is being finished or is gone).
    func close() {
        state.withLock { state in
            state.phase = .closed
            state.buffer = []
        }
    }

    /// Writes `event` unless it was sent already; false (and closed) when the writer refuses: the client is gone
    /// or too slow, and resumes with `Last-Event-ID`.
    private static func write(_ event: EncodedEvent, _ state: inout State, _ writer: any HTTPStreamWriter) -> Bool {
        guard event.id > state.lastSentId else { return true }
        guard writer.write(event.bytes) else {
            state.phase = .closed
            state.buffer = []
            return false
        }
        state.lastSentId = event.id
        return true
    }
}
