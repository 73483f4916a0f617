import Dispatch
import Emulation
import Foundation
import HTTPServer

extension EventHub {
    /// Starts the heartbeat thread: every `heartbeatInterval`, a comment on every open stream (WHATWG HTML §9.2.7
    /// suggests one about every 15 seconds, so that proxies do not drop idle connections). Idempotent.
    public func start() {
        let stopSignal = state.withLock { state -> DispatchSemaphore? in
            guard !state.stopped, state.heartbeatStop == nil else { return nil }
            let signal = DispatchSemaphore(value: 0)
            state.heartbeatStop = signal
            return signal
        }
        guard let stopSignal else { return }
        let interval = Self.dispatchInterval(heartbeatInterval)
        let thread = Thread {
            while stopSignal.wait(timeout: .now() + interval) == .timedOut {
                self.heartbeat()
            }
        }
        thread.name = "bgemu-event-heartbeat"
        thread.start()
    }

    /// Stops the heartbeat and finishes every open stream (the terminating chunk, then the connection closes);
    /// streams opened afterwards are finished at once. For a graceful shutdown: call it before the server's.
    public func stop() {
        let (streams, heartbeatStop) = state.withLock { state in
            state.stopped = true
            let streams = state.subscribers.values.flatMap(\.values)
            state.subscribers = [:]
            state.subscriberCount = 0
            defer { state.heartbeatStop = nil }
            return (streams, state.heartbeatStop)
        }
        heartbeatStop?.signal()
        for subscriber in streams {
            subscriber.close()
            subscriber.writer.finish()
        }
    }

    /// Writes a comment to every open stream; a stream whose writer refuses it is forgotten.
    func heartbeat() {
        let streams = state.withLock { $0.subscribers }
        let comment = ServerSentEvent.comment("heartbeat")
        for subscriber in streams.values.lazy.flatMap(\.values) where !subscriber.writer.write(comment) {
            unregister(subscriber)
        }
    }

    // MARK: Gaps

    /// Checks a stalled gap in the ids after `delay`.
    func scheduleGapCheck(after delay: Duration) {
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.dispatchInterval(delay)) {
            self.checkStalledGap()
        }
    }

    /// Gives up on ids that have held later events back for `gapTimeout`, and delivers what that releases.
    func checkStalledGap() {
        let now = ContinuousClock.now
        let (outcome, next) = state.withLock { state in
            let outcome = state.sequencer.skipStalledGap(timeout: gapTimeout, now: now)
            state.enqueue(outcome.released, limit: maximumUndeliveredEvents)
            let next = state.sequencer.stallDeadline(timeout: gapTimeout).map { max($0 - now, .milliseconds(1)) }
            state.gapCheckScheduled = next != nil
            return (outcome, next)
        }
        if let skipped = outcome.skipped {
            logger.warning(
                "Event hub: event ids \(skipped) were not published within \(gapTimeout); live streams skip them")
        }
        if let next { scheduleGapCheck(after: next) }
        deliverOutbox()
    }

    static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
        .nanoseconds(Int(max(0, (duration / .nanoseconds(1)).rounded())))
    }
}
