extension EventHub {
    /// Ends every open stream of a tenant that is gone from this instance (deleted, or moved to another shard):
    /// its clients reconnect with `Last-Event-ID` and reach wherever the tenant is now, instead of waiting on
    /// heartbeats here for events that will never come. Answers how many streams it ended.
    @discardableResult
    public func endStreams(tenantId: String) -> Int {
        let ended = state.withLock { state in state.subscribers[tenantId].map { Array($0.values) } ?? [] }
        for subscriber in ended {
            subscriber.close()
            subscriber.writer.finish()  // its close handler unregisters it
        }
        return ended.count
    }
}
