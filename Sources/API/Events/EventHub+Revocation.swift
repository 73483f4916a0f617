extension EventHub {
    /// Ends every open stream of a tenant that is gone from this instance (deleted, or moved to another shard):
    /// its clients reconnect with `Last-Event-ID` and reach wherever the tenant is now, instead of waiting on
    /// heartbeats here for events that will never come. Answers how many streams it ended.
    @discardableResult
    public func endStreams(tenantId: String) -> Int {
        endStreams(of: tenantId) { _ in true }
    }

    /// Ends the tenant's open streams opened with the API key `keyId`, revoked: a revoked key stops working at
    /// once, for the streams it opened too. Answers how many it ended.
    @discardableResult
    public func endStreams(tenantId: String, keyId: String) -> Int {
        endStreams(of: tenantId) { $0.keyId == keyId }
    }

    private func endStreams(of tenantId: String, where chosen: (EventSubscriber) -> Bool) -> Int {
        let ended = state.withLock { state in state.subscribers[tenantId].map { $0.values.filter(chosen) } ?? [] }
        for subscriber in ended {
            subscriber.close()
            subscriber.writer.finish()  // its close handler unregisters it
        }
        return ended.count
    }
}
