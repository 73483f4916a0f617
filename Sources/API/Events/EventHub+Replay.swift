import Emulation
import Foundation
import HTTPServer
import Stores

extension EventHub {
    /// Replays the stored events after the subscriber's `Last-Event-ID` (or, for a live stream whose backlog had no
    /// room for an event, after the last event it wrote: a catch-up), page by page and only as fast as the client
    /// reads them, then hands over to the live events buffered meanwhile (runs on the subscriber's replay queue).
    ///
    /// **Paced**: the replay keeps the stream's unsent backlog within half its limit (`highWater`). When the next
    /// event does not fit, the worker stops and asks the writer to call it back once the backlog has drained to a
    /// quarter (`lowWater`); the rest of the page is dropped and read again from the store then, so a paused
    /// replay holds no events, and a history of any length reaches a slow client without the backlog passing the
    /// bound (which would close the stream). A page asks for about as many events as there is room for.
    ///
    /// Nothing is lost: the subscriber was registered before the first page was read, so an event committed after
    /// a page's read is delivered to it live (published after its commit), and one committed before is in the
    /// page. Nothing is repeated: the subscriber writes only ids above the last it wrote.
    func replay(_ subscriber: EventSubscriber) {
        let encoder = EventBody.makeEncoder()
        let writer = subscriber.writer
        let pace = ReplayPace(backlogLimit: writer.backlogLimit)
        var afterId = subscriber.lastSentId
        var averageSize = 256
        while writer.isOpen {
            let room = pace.highWater - writer.backlog
            guard room > 0 else {
                resumeReplay(subscriber, whenBacklogAtMost: pace.lowWater)
                return
            }
            // Read nothing while the tenant's budget has no room for a page worth reading: a tenant with many
            // streams behind shares its budget between them, and reading one event per query, each stream on
            // its own, cost more than the rest of the server (1,024 streams: two thirds of its CPU).
            if let budget = subscriber.budget {
                let wait = budget.replayWait(for: min(room, averageSize * Self.budgetedPageEvents))
                if wait > .zero {
                    resumeReplay(subscriber, after: wait)
                    return
                }
            }
            // A page of what the backlog, and the tenant's budget, have room for: no more is read than can be sent.
            let allowed = min(room, subscriber.budget?.available ?? room)
            let limit = max(1, min(Self.replayPageSize, allowed / averageSize + 1))
            let page: [RecordedEvent]
            do {
                page = try store.events(tenantId: subscriber.tenantId, filter: subscriber.filter, afterId: afterId, limit: limit)
            } catch {
                // End the stream cleanly: the client reconnects after `retry` and resumes where it is.
                logger.error("Event hub: replay for tenant \(subscriber.tenantId) failed: \(error)")
                subscriber.close()
                writer.finish()
                return
            }
            // The pruner may have run since the stream was let in: events after `afterId` that are gone were never
            // sent. End the stream; the client resumes after the last id it has and is told `410 eventsPruned`.
            if prunedSince(afterId, for: subscriber) {
                logger.notice("Event hub: events a stream of tenant \(subscriber.tenantId) was replaying were pruned; it is closed")
                subscriber.close()
                writer.finish()
                return
            }
            let encoded = page.compactMap { encode($0, encoder) }
            if !encoded.isEmpty { averageSize = max(32, encoded.reduce(0) { $0 + $1.bytes.count } / encoded.count) }
            switch subscriber.replay(encoded, highWater: pace.highWater) {
            case .closed:
                return
            case .paused(let nextSize):
                resumeReplay(subscriber, whenBacklogAtMost: max(0, min(pace.lowWater, pace.highWater - nextSize)))
                return
            case .throttled(let nextSize):
                resumeReplay(subscriber, after: subscriber.budget?.replayWait(for: nextSize) ?? .zero)
                return
            case .wroteAll:
                afterId = page.last?.id ?? afterId
            }
            if page.count < limit {
                switch subscriber.finishReplay(highWater: pace.highWater) {
                case .live, .closed: return
                case .replayAgain: afterId = subscriber.lastSentId
                }
            }
        }
    }

    /// Continues `subscriber`'s replay on its queue after `delay` (its tenant's stream budget refills).
    private func resumeReplay(_ subscriber: EventSubscriber, after delay: Duration) {
        let resumed = subscriber.budget?.startWaiting()
        replayQueue(for: subscriber).asyncAfter(deadline: .now() + Self.dispatchInterval(max(delay, .milliseconds(1)))) {
            resumed?()
            self.replay(subscriber)
        }
    }

    /// Tells the hub what the event retention pruned (the same lookup the routes use for their `410`s).
    public func watchPruning(_ lookup: @escaping PrunedEventsLookup) {
        prunedEvents.withLock { $0 = lookup }
    }

    /// Whether events after `afterId` that `subscriber` would see were pruned.
    private func prunedSince(_ afterId: Int64, for subscriber: EventSubscriber) -> Bool {
        guard let lookup = prunedEvents.withLock({ $0 }),
            let pruned = try? lookup(subscriber.tenantId, subscriber.filter.deviceId)
        else { return false }
        return pruned.lastPrunedId > afterId
    }

    /// Continues `subscriber`'s replay on its queue once its backlog has drained to `threshold` bytes.
    private func resumeReplay(_ subscriber: EventSubscriber, whenBacklogAtMost threshold: Int) {
        let queue = replayQueue(for: subscriber)
        subscriber.writer.whenBacklog(atMost: threshold) {
            queue.async { self.replay(subscriber) }
        }
    }

    /// The replay worker of `subscriber`: one serial queue per stream, spread over `replayQueues`.
    func replayQueue(for subscriber: EventSubscriber) -> DispatchQueue {
        replayQueues[Int(subscriber.id % UInt64(replayQueues.count))]
    }
}

/// How full a replay keeps a stream's backlog: it writes up to `highWater` (half the limit, leaving the rest to
/// heartbeats and the live events of the hand-off), then waits for the backlog to drain to `lowWater` (a quarter).
struct ReplayPace {
    let highWater: Int
    let lowWater: Int

    init(backlogLimit: Int) {
        if backlogLimit == .max {
            highWater = .max
            lowWater = .max
        } else {
            highWater = max(1, backlogLimit / 2)
            lowWater = backlogLimit / 4
        }
    }
}
