extension EventHub {
    /// Tells the hub that the ids of `range` were committed by a tenant's import (issue 30) and will never be
    /// published: live events after them go out at once, instead of waiting `gapTimeout` for ids that are not coming.
    /// The imported tenant's streams get its imported events by replaying from the store.
    public func skipImported(_ range: ClosedRange<Int64>) {
        let deliver = state.withLock { state -> Bool in
            let outcome = state.sequencer.skip(range, now: .now)
            state.enqueue(outcome.released, limit: maximumUndeliveredEvents)
            let deliver = state.hasDeliveryWork && !state.delivering && !state.deliveryQueued
            if deliver { state.deliveryQueued = true }
            return deliver
        }
        if deliver { deliveryQueue.async { self.deliverOutbox() } }
    }
}
