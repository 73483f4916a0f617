extension EventHub {
    /// Open event streams by tenant id (tenants with none are left out), for metrics.
    public func openStreamsByTenant() -> [String: Int] {
        state.withLock { state in
            var counts: [String: Int] = [:]
            for (tenant, subscribers) in state.subscribers where !subscribers.isEmpty { counts[tenant] = subscribers.count }
            return counts
        }
    }
}
