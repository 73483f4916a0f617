import CompactJSON
import Dispatch
import Emulation
import Foundation
import HTTPServer
import Locking
import Logging
import Synchronization
import Stores

/// Fans committed events out to the open event streams (Server-Sent Events, WHATWG HTML §9.2), each stream
/// seeing only its tenant's events that pass its filter, in id order, with nothing lost or repeated across a
/// reconnection.
///
/// - **Publishing** (``publish(_:)``, right after the commit that recorded the events) costs one pass over the
///   streams of the events' tenants: a filter check and, for a match, a non-blocking write of bytes encoded once.
///   Events published out of order by concurrent requests are put back in order first (`EventSequencer`).
/// - **A stream** (``stream(tenantId:filter:lastEventId:)``) starts with `retry:`, then, when the client resumes
///   after a `Last-Event-ID`, replays the stored events after it (on a small pool of replay workers, never on the
///   server's event loop) before going live; without one it gets live events only.
/// - **Delivery that falls behind** the commits holds at most `maximumUndeliveredEvents` events: past it the
///   undelivered events are dropped from memory and the streams of their tenants catch up from the store instead
///   (see ``HubState/enqueue(_:limit:)``). Before, a flow of commits faster than the fan-out to many streams grew
///   the outbox without bound (30 s of advances with 100 unread streams: some 150 MiB of events waiting).
/// - **A slow client** never holds anyone up, nor much memory: writes go to the stream's bounded backlog. A live event
///   that does not fit (a burst larger than the bound, or a client that stopped reading) is not written; the stream
///   catches up from the store instead, paced to what the client reads (see ``replay(_:)``). A client that takes
///   nothing for the server's idle timeout is disconnected by the server, and the hub forgets it (it reconnects with
///   `Last-Event-ID`).
/// - **Heartbeats** (``start()``): a comment on every stream each `heartbeatInterval`, so proxies keep idle streams
///   open. ``stop()`` finishes every stream, for a graceful shutdown.
///
/// There is no thread per stream: a stream is an object in a dictionary of its tenant.
public final class EventHub: Sendable {
    /// The event log the streams replay from.
    public let store: any EventStore
    let heartbeatInterval: Duration
    let retryMilliseconds: Int
    /// How long a missing event id holds back the ones after it (see `EventSequencer`).
    let gapTimeout: Duration
    let logger: Logger
    /// Serial queues the replays run on, spread by stream: replays read the database and must not run on the
    /// server's event loops, nor all at once.
    let replayQueues: [DispatchQueue]
    /// The stream bytes of recent events, encoded once for every stream that sends them.
    let encodedEvents = EncodedEventCache()
    /// Events per page of a replay.
    static let replayPageSize = 500
    /// Events' worth of its tenant's stream budget a replay waits for before it reads a page (fewer when the
    /// backlog has less room).
    static let budgetedPageEvents = 32
    /// The most streams open at once; past it a new stream is refused with `503` so that streams can never use
    /// up the process's file descriptors and lock the API (health probes included) out.
    public let maximumStreams: Int
    /// The most streams one tenant may hold open: the `maximumStreamsPerTenant` asked for, but never more than
    /// ``tenantShareOfMaximumStreams`` of `maximumStreams` (see ``tenantShare(maximumStreams:maximumStreamsPerTenant:)``).
    public let maximumStreamsPerTenant: Int
    /// Where delivery runs: off the publishing request's thread, so that a request that records an event is
    /// answered without waiting for the fan-out to thousands of streams.
    let deliveryQueue = DispatchQueue(label: "bgemu.events.delivery")
    /// What the event retention pruned (see ``watchPruning(_:)``): a replay that finds events after its position
    /// pruned ends the stream, so that the client's resume gets the `410` instead of a silent gap.
    let prunedEvents = Mutex<PrunedEventsLookup?>(nil)
    /// The bytes a second each tenant's streams may be sent together (0: no limit), and each tenant's budget.
    let streamBytesPerSecondPerTenant: Int
    private let budgets = Mutex<[String: StreamBudget]>([:])

    /// The tenant's stream budget (one per tenant, for the life of the hub); nil without a limit.
    func budget(for tenantId: String) -> StreamBudget? {
        guard streamBytesPerSecondPerTenant > 0 else { return nil }
        return budgets.withLock { budgets in
            if let budget = budgets[tenantId] { return budget }
            let budget = StreamBudget(bytesPerSecond: streamBytesPerSecondPerTenant)
            budgets[tenantId] = budget
            return budget
        }
    }

    /// The most released events held for delivery (``HubState/outbox``); past it they are dropped and the streams
    /// of their tenants catch up from the store.
    let maximumUndeliveredEvents: Int

    struct HubState {
        var sequencer: EventSequencer
        /// Released events not yet delivered, in id order (at most `maximumUndeliveredEvents`).
        var outbox: [RecordedEvent] = []
        /// Tenants whose undelivered events were dropped: their streams catch up from the store before the next
        /// delivery (see ``enqueue(_:limit:)``).
        var droppedTenants: Set<String> = []
        /// The most events the outbox ever held (tests: the bound holds).
        var largestOutbox = 0
        /// Whether a thread is delivering the outbox (one at a time, so that streams get events in order).
        var delivering = false
        /// Whether a delivery is queued and not started: publishing meanwhile queues no other (each queued
        /// delivery woke a thread of the queue, for outboxes the first had taken already).
        var deliveryQueued = false
        /// Open streams by tenant, then by subscriber id.
        var subscribers: [String: [UInt64: EventSubscriber]] = [:]
        var subscriberCount = 0
        /// Slots taken by accepted stream requests whose streams have not attached yet (see `EventStreamSlot`).
        var reservedSlots = 0
        /// The same, by tenant (for `maximumStreamsPerTenant`).
        var reservedByTenant: [String: Int] = [:]

        /// Whether a delivery has work: events to deliver, or streams to send back to the store.
        var hasDeliveryWork: Bool { !outbox.isEmpty || !droppedTenants.isEmpty }

        /// Adds released events to the outbox, unless that takes it past `limit`: then the outbox and these events
        /// are dropped, and their tenants remembered, so that the next delivery sends those tenants' streams back to
        /// the store (where every dropped event is, committed) before it delivers anything newer. Nothing is lost
        /// and nothing repeated: a stream replays after the last id it wrote, as after a burst too large for it.
        mutating func enqueue(_ released: [RecordedEvent], limit: Int) {
            guard !released.isEmpty else { return }
            if outbox.count + released.count > limit {
                for event in outbox { droppedTenants.insert(event.tenantId) }
                for event in released { droppedTenants.insert(event.tenantId) }
                outbox = []
            } else {
                outbox += released
                largestOutbox = max(largestOutbox, outbox.count)
            }
        }

        /// Open and reserved streams of `tenantId`.
        func streams(of tenantId: String) -> Int { (subscribers[tenantId]?.count ?? 0) + (reservedByTenant[tenantId] ?? 0) }

        /// Gives back a reserved slot of `tenantId`.
        mutating func unreserve(_ tenantId: String) {
            reservedSlots = max(0, reservedSlots - 1)
            let left = (reservedByTenant[tenantId] ?? 0) - 1
            reservedByTenant[tenantId] = left > 0 ? left : nil
        }
        var nextSubscriberId: UInt64 = 1
        var stopped = false
        /// Signalled to end the heartbeat thread; nil when it is not running.
        var heartbeatStop: DispatchSemaphore?
        /// Whether a check of a stalled gap is scheduled.
        var gapCheckScheduled = false
    }

    /// Everything shared: the sequencer, the outbox and the streams.
    let state: PlainLock<HubState>

    /// - Parameters:
    ///   - store: where the events are, for replays; its latest id is read now, as the point live events follow.
    ///   - heartbeatInterval: how often ``start()``'s thread writes a comment to every stream.
    ///   - retryMilliseconds: the reconnection time sent first on every stream (`retry:`, WHATWG HTML §9.2.6).
    ///   - gapTimeout: how long a published event waits for a smaller id not published yet.
    public init(
        store: any EventStore, heartbeatInterval: Duration = .seconds(15), retryMilliseconds: Int = 2000,
        gapTimeout: Duration = .seconds(1), replayWorkers: Int = 2, maximumStreams: Int = 16_384,
        maximumStreamsPerTenant: Int = 1024, streamBytesPerSecondPerTenant: Int = 0,
        maximumUndeliveredEvents: Int = 4096, logger: Logger
    ) {
        self.maximumUndeliveredEvents = max(1, maximumUndeliveredEvents)
        self.streamBytesPerSecondPerTenant = streamBytesPerSecondPerTenant
        self.store = store
        self.maximumStreams = maximumStreams
        self.maximumStreamsPerTenant = Self.tenantShare(
            maximumStreams: maximumStreams, maximumStreamsPerTenant: maximumStreamsPerTenant)
        self.heartbeatInterval = heartbeatInterval
        self.retryMilliseconds = retryMilliseconds
        self.gapTimeout = gapTimeout
        self.logger = logger
        replayQueues = (0..<max(1, replayWorkers)).map { DispatchQueue(label: "bgemu.events.replay.\($0)") }
        var latest: Int64?
        do {
            latest = try store.latestEventId()
        } catch {
            logger.warning("Event hub: the log's latest id could not be read (\(error)); following the first publish")
        }
        state = PlainLock(HubState(sequencer: EventSequencer(watermark: latest)))
    }

    /// How many streams are open.
    public var subscriberCount: Int { state.withLock { $0.subscriberCount } }

    // MARK: Publishing

    /// Delivers events that were just committed (any tenants, any order) to the open streams.
    ///
    /// Call it after **every** commit that recorded events, with what the store answered; it never blocks on a
    /// client, and the delivery itself runs on the hub's delivery queue. An id that is never published holds back later events for
    /// `gapTimeout`, then is skipped on live streams (it stays in the store).
    public func publish(_ events: [RecordedEvent]) {
        guard !events.isEmpty else { return }
        let (outcome, scheduleCheck, deliver) = state.withLock { state in
            let outcome = state.sequencer.accept(events, now: .now)
            state.enqueue(outcome.released, limit: maximumUndeliveredEvents)
            let schedule = state.sequencer.isBlocked && !state.gapCheckScheduled
            if schedule { state.gapCheckScheduled = true }
            // A delivery under way takes this outbox too (it ends only once it finds the outbox empty).
            let deliver = state.hasDeliveryWork && !state.delivering && !state.deliveryQueued
            if deliver { state.deliveryQueued = true }
            return (outcome, schedule, deliver)
        }
        if !outcome.late.isEmpty {
            logger.warning("Event hub: events published twice or too late for live streams: \(outcome.late)")
        }
        if scheduleCheck { scheduleGapCheck(after: gapTimeout) }
        if deliver { deliveryQueue.async { self.deliverOutbox() } }
    }

    /// What a request for one more stream gets.
    enum StreamReservation {
        case reserved(EventStreamSlot)
        /// The open streams and those about to open fill `maximumStreams`.
        case instanceFull
        /// The tenant's fill `maximumStreamsPerTenant`: its own share, so one tenant cannot take every place.
        case tenantFull
    }

    /// A place for one more stream of `tenantId`, within the instance's limit and the tenant's share.
    func reserveStream(tenantId: String) -> StreamReservation {
        let outcome = state.withLock { state -> StreamReservation? in
            guard state.subscriberCount + state.reservedSlots < maximumStreams else { return .instanceFull }
            guard state.streams(of: tenantId) < maximumStreamsPerTenant else { return .tenantFull }
            state.reservedSlots += 1
            state.reservedByTenant[tenantId, default: 0] += 1
            return nil
        }
        if let outcome { return outcome }
        return .reserved(EventStreamSlot { [weak self] in
            self?.state.withLock { $0.unreserve(tenantId) }
        })
    }

    /// Delivers the outbox unless another thread is at it (which then delivers what was just added too).
    func deliverOutbox() {
        let mine = state.withLock { state in
            state.deliveryQueued = false
            if state.delivering { return false }
            state.delivering = true
            return true
        }
        guard mine else { return }
        let encoder = EventBody.makeEncoder()
        while true {
            let work = state.withLock {
                state -> (batch: [RecordedEvent], dropped: Set<String>, streams: [String: [UInt64: EventSubscriber]])? in
                guard state.hasDeliveryWork else {
                    state.delivering = false
                    return nil
                }
                defer {
                    state.outbox = []
                    state.droppedTenants = []
                }
                return (state.outbox, state.droppedTenants, state.subscribers)  // a copy-on-write snapshot: O(1)
            }
            guard let work else { return }
            // First: the streams whose events were dropped go back to the store, before anything newer reaches them;
            // the memory the dropped events held goes back to the system.
            if !work.dropped.isEmpty { HeapTrimmer.shared.trimSoon() }
            for tenantId in work.dropped {
                guard let streams = work.streams[tenantId] else { continue }
                for subscriber in streams.values { handle(subscriber.missedLiveEvents(), of: subscriber) }
            }
            for event in work.batch {
                guard let streams = work.streams[event.tenantId], !streams.isEmpty else { continue }
                var encoded: EncodedEvent?
                for subscriber in streams.values where subscriber.filter.matches(event) {
                    if encoded == nil { encoded = encode(event, encoder) }
                    guard let encoded else { break }
                    handle(subscriber.offer(encoded), of: subscriber)
                }
            }
        }
    }

    /// Acts on what a stream answered a live event (or the news that some were dropped).
    private func handle(_ offer: EventSubscriber.Offer, of subscriber: EventSubscriber) {
        switch offer {
        case .taken: break
        case .catchUp: replayQueue(for: subscriber).async { self.replay(subscriber) }
        case .closed: unregister(subscriber)
        }
    }

    /// The most events the outbox ever held (tests).
    var largestUndelivered: Int { state.withLock { $0.largestOutbox } }

    /// The stream bytes of an event; nil (logged) when its data cannot be written as JSON.
    func encode(_ event: RecordedEvent, _ encoder: CompactJSONEncoder) -> EncodedEvent? {
        if let bytes = encodedEvents.bytes(of: event.id) { return EncodedEvent(recorded: event, bytes: bytes) }
        do {
            let bytes = try EventBody.streamBytes(event, encoder: encoder)
            encodedEvents.keep(bytes, of: event.id)
            return EncodedEvent(recorded: event, bytes: bytes)
        } catch {
            logger.error("Event hub: event \(event.id) cannot be encoded, not streamed: \(error)")
            return nil
        }
    }

    // MARK: Streams

    /// A `text/event-stream` response of the tenant's events that pass `filter`: after `lastEventId` (replayed
    /// from the store, then live) when the client resumes, or live events only when it is nil. `slot` is the place
    /// the stream takes among `maximumStreams` (``reserveStream()``); nil for a stream that does not count.
    func stream(
        tenantId: String, keyId: String? = nil, filter: EventFilter, lastEventId: Int64?, slot: EventStreamSlot? = nil
    ) -> HTTPResponse {
        HTTPResponse.eventStream(headers: ["Cache-Control": "no-store", "X-Accel-Buffering": "no"]) { writer in
            self.attach(writer, tenantId: tenantId, keyId: keyId, filter: filter, lastEventId: lastEventId, slot: slot)
        }
    }

    /// Starts a stream on `writer` (called on the server's event loop once the head is sent: nothing slow here).
    func attach(
        _ writer: any HTTPStreamWriter, tenantId: String, keyId: String? = nil, filter: EventFilter,
        lastEventId: Int64?, slot: EventStreamSlot? = nil
    ) {
        // A block with only `retry:` sets the reconnection time and dispatches nothing (§9.2.6: the data buffer is
        // empty). ServerSentEvent always writes a `data:` line, which would dispatch an empty message.
        guard writer.write(Array("retry: \(max(0, retryMilliseconds))\n\n".utf8)) else { return }
        let budget = budget(for: tenantId)
        let subscriber = state.withLock { state -> EventSubscriber? in
            guard !state.stopped else { return nil }
            let subscriber = EventSubscriber(
                id: state.nextSubscriberId, tenantId: tenantId, keyId: keyId, filter: filter, writer: writer,
                resumingAfter: lastEventId, liveAfter: state.sequencer.watermark ?? 0, budget: budget)
            state.nextSubscriberId += 1
            state.subscribers[tenantId, default: [:]][subscriber.id] = subscriber
            state.subscriberCount += 1
            if slot?.claim() == true { state.unreserve(tenantId) }
            return subscriber
        }
        guard let subscriber else {
            writer.finish()  // shutting down
            return
        }
        writer.onClose { self.unregister(subscriber) }
        if lastEventId != nil {
            replayQueue(for: subscriber).async { self.replay(subscriber) }
        }
    }

    /// Forgets a stream (idempotent). It takes only the hub's lock, never the subscriber's: it runs as the writer's
    /// close handler, which a refused write may call while the subscriber's lock is held.
    /// The last stream to go takes the encoded events with it: with no stream open they would sit in memory for good.
    func unregister(_ subscriber: EventSubscriber) {
        let wasLast = state.withLock { state -> Bool in
            guard state.subscribers[subscriber.tenantId]?.removeValue(forKey: subscriber.id) != nil else { return false }
            state.subscriberCount -= 1
            if state.subscribers[subscriber.tenantId]?.isEmpty == true { state.subscribers[subscriber.tenantId] = nil }
            return state.subscriberCount == 0
        }
        if wasLast { encodedEvents.removeAll() }
    }
}
