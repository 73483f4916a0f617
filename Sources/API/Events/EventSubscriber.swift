import Emulation
import HTTPServer
import Synchronization
import Stores

/// An event with its stream bytes, encoded once for every subscriber.
struct EncodedEvent: Sendable {
    var recorded: RecordedEvent
    var bytes: [UInt8]
    var id: Int64 { recorded.id }
}

/// One open event stream: whose events it wants, where it stands, and its writer.
///
/// A stream resuming after a `Last-Event-ID` starts **replaying**: the hub's replay worker writes the stored events
/// page by page, only as fast as the client reads them (within half the stream's backlog limit), while live events
/// delivered meanwhile are kept in a bounded buffer; a live stream whose next event does not fit in its backlog (a
/// burst, or a client that stopped reading) goes back to replaying, from the store, at the client's pace; at the hand-off the buffered
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

    /// How far a batch of replayed events got.
    enum ReplayProgress: Equatable {
        /// Every event was written (or had been already).
        case wroteAll
        /// The stream's backlog has no room for the next event, of `nextSize` bytes: wait until it drains.
        case paused(nextSize: Int)
        /// The tenant's stream budget has no room for the next event, of `nextSize` bytes: wait until it refills.
        case throttled(nextSize: Int)
        /// The stream is gone.
        case closed
    }

    private struct State {
        var phase: Phase
        var lastSentId: Int64
        var buffer: [EncodedEvent] = []
        var bufferBytes = 0
        var bufferOverflowed = false
    }

    /// Live events kept while replaying; past this the buffer is dropped and the replay runs again.
    static let bufferLimit = 1_000
    /// The most bytes of live events kept while replaying: half the stream's backlog limit, so that a replaying
    /// stream holds no more than a live one.
    let bufferByteLimit: Int
    /// How full live events may fill the backlog: the bound, less room for heartbeats.
    let liveCeiling: Int

    let id: UInt64
    let tenantId: String
    /// The API key that opened the stream (nil: not known); the stream ends when the key is revoked.
    let keyId: String?
    let filter: EventFilter
    let writer: any HTTPStreamWriter
    /// The bytes a second the tenant's streams may be sent together; nil: no limit.
    let budget: StreamBudget?
    /// Phase, position and buffer. Writes to `writer` happen under it, so that events leave in id order whichever
    /// thread (publisher, replay worker) writes; the writer never blocks (it queues, or refuses when full).
    private let state: Mutex<State>

    init(id: UInt64, tenantId: String, keyId: String? = nil, filter: EventFilter, writer: any HTTPStreamWriter,
         resumingAfter lastEventId: Int64?, liveAfter watermark: Int64, budget: StreamBudget? = nil) {
        self.id = id
        self.keyId = keyId
        self.budget = budget
        self.tenantId = tenantId
        self.filter = filter
        self.writer = writer
        let limit = writer.backlogLimit
        bufferByteLimit = limit == .max ? .max : limit / 2
        liveCeiling = limit == .max ? .max : max(limit / 2, limit - 1024)
        state = Mutex(State(phase: lastEventId == nil ? .live : .replaying, lastSentId: lastEventId ?? watermark))
    }

    var phase: Phase { state.withLock { $0.phase } }
    var lastSentId: Int64 { state.withLock { $0.lastSentId } }

    /// What became of a live event offered to the stream.
    enum Offer: Equatable {
        /// Written, buffered, or already sent.
        case taken
        /// It did not fit within the stream's backlog bound: the stream now catches up from the store, paced to the
        /// client (the hub starts a replay), from the last event it wrote.
        case catchUp
        /// The stream is gone.
        case closed
    }

    /// A live event of this subscriber's tenant that passed its filter: written when live, buffered when replaying.
    /// A live event that does not fit in the backlog (a burst larger than the bound, or a client that stopped
    /// reading) is not written: the stream goes back to replaying, so that the backlog never passes its bound.
    func offer(_ event: EncodedEvent) -> Offer {
        state.withLock { state in
            switch state.phase {
            case .closed:
                return .closed
            case .replaying:
                if event.id > state.lastSentId && !state.bufferOverflowed {
                    if state.buffer.count < Self.bufferLimit, state.bufferBytes + event.bytes.count <= bufferByteLimit {
                        state.buffer.append(event)
                        state.bufferBytes += event.bytes.count
                    } else {
                        state.buffer = []
                        state.bufferBytes = 0
                        state.bufferOverflowed = true
                    }
                }
                return .taken
            case .live:
                guard event.id > state.lastSentId else { return .taken }
                let backlog = writer.backlog
                // No room in the backlog, or in the tenant's budget: catch up from the store when there is.
                if (backlog > 0 && event.bytes.count > liveCeiling - backlog) || budget?.take(event.bytes.count) == false {
                    state.phase = .replaying
                    state.buffer = []
                    state.bufferBytes = 0
                    state.bufferOverflowed = false
                    return .catchUp
                }
                return Self.write(event, &state, writer) ? .taken : .closed
            }
        }
    }

    /// Live events for this stream were dropped before delivery (the hub's outbox overflowed): a live stream goes
    /// back to replaying from the store after the last event it wrote (`.catchUp`: the hub starts the replay); a
    /// replaying one drops its buffer, which now has a hole, and replays again at its hand-off.
    func missedLiveEvents() -> Offer {
        state.withLock { state in
            switch state.phase {
            case .closed:
                return .closed
            case .replaying:
                state.buffer = []
                state.bufferBytes = 0
                state.bufferOverflowed = true
                return .taken
            case .live:
                state.phase = .replaying
                state.buffer = []
                state.bufferBytes = 0
                state.bufferOverflowed = false
                return .catchUp
            }
        }
    }

    /// Stored events, oldest first, from the replay worker: written while the stream's backlog stays within
    /// `highWater` (an event always goes into an empty backlog, however large).
    func replay(_ events: [EncodedEvent], highWater: Int) -> ReplayProgress {
        state.withLock { state in
            guard state.phase == .replaying else { return .closed }
            for event in events where event.id > state.lastSentId {
                let backlog = writer.backlog
                if backlog > 0, event.bytes.count > highWater - backlog { return .paused(nextSize: event.bytes.count) }
                if budget?.take(event.bytes.count) == false { return .throttled(nextSize: event.bytes.count) }
                guard Self.write(event, &state, writer) else { return .closed }
            }
            return .wroteAll
        }
    }

    /// Ends the replay: writes the buffered live events not replayed, then goes live (or asks for another round,
    /// when live events overflowed the buffer or do not fit within `highWater` of the backlog: they are all in
    /// the store).
    func finishReplay(highWater: Int) -> Handoff {
        state.withLock { state in
            guard state.phase == .replaying else { return .closed }
            let backlog = writer.backlog
            if state.bufferOverflowed || (backlog > 0 && state.bufferBytes > highWater - backlog)
                || (state.bufferBytes > 0 && budget?.take(state.bufferBytes) == false)
            {
                state.bufferOverflowed = false
                state.buffer = []
                state.bufferBytes = 0
                return .replayAgain
            }
            let buffered = state.buffer
            state.buffer = []
            state.bufferBytes = 0
            for event in buffered where !Self.write(event, &state, writer) { return .closed }
            state.phase = .live
            return .live
        }
    }

    /// A transient event's bytes (no id): written when the stream is live and its backlog has room, else dropped
    /// (it is not stored, so a stream catching up never gets it). False when the stream is gone.
    func offerTransient(_ bytes: [UInt8]) -> Bool {
        state.withLock { state in
            switch state.phase {
            case .closed: return false
            case .replaying: return true
            case .live:
                let backlog = writer.backlog
                if backlog > 0 && bytes.count > liveCeiling - backlog { return true }
                if budget?.take(bytes.count) == false { return true }
                guard writer.write(bytes) else {
                    state.phase = .closed
                    state.buffer = []
                    state.bufferBytes = 0
                    return false
                }
                return true
            }
        }
    }

    /// Stops every further write (the stream is being finished or is gone).
    func close() {
        state.withLock { state in
            state.phase = .closed
            state.buffer = []
            state.bufferBytes = 0
        }
    }

    /// Writes `event` unless it was sent already; false (and closed) when the writer refuses: the client is gone
    /// or too slow, and resumes with `Last-Event-ID`.
    private static func write(_ event: EncodedEvent, _ state: inout State, _ writer: any HTTPStreamWriter) -> Bool {
        guard event.id > state.lastSentId else { return true }
        guard writer.write(event.bytes) else {
            state.phase = .closed
            state.buffer = []
            state.bufferBytes = 0
            return false
        }
        state.lastSentId = event.id
        return true
    }
}
