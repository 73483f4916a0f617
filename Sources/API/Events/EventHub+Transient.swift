import Emulation
import HTTPServer
import Service
import Stores

extension EventHub {
    /// Sends a transient event to the tenant's live streams that take every event (no device, app or run filter;
    /// a type filter only when `name` starts with it): an event that is not stored, has no `id:` line (so it
    /// neither moves a client's `Last-Event-ID` nor is replayed), and is dropped for a stream that is catching up
    /// or has no room for it. `data` must be one line (JSON is).
    ///
    /// Delivered on the hub's delivery queue: after the committed events released before it (a later committed
    /// event may come first), and in order with the other transient events.
    public func publishTransient(tenantId: String, name: String, data: String) {
        let bytes = ServerSentEvent(event: name, data: data).encoded()
        deliveryQueue.async {
            let streams = self.state.withLock { $0.subscribers[tenantId] } ?? [:]
            for subscriber in streams.values where subscriber.filter.takesTransient(name) {
                if !subscriber.offerTransient(bytes) { self.unregister(subscriber) }
            }
        }
    }
}

extension EventFilter {
    /// Whether a stream with this filter is sent a transient event named `name` (which has no device, app or run).
    func takesTransient(_ name: String) -> Bool {
        deviceId == nil && bundleId == nil && runId == nil && (typePrefix.map { name.hasPrefix($0) } ?? true)
    }
}

extension EventHub {
    /// A forecast's progress on its tenant's streams: the transient event `forecast.progress` with
    /// `{"forecastId", "state", "progress"}` (progress to 4 decimals).
    public func publish(forecastProgress progress: ForecastProgress) {
        let body = ForecastProgressBody(
            forecastId: progress.forecastId, state: progress.state, progress: ForecastNumbers.rounded(progress.progress))
        guard let bytes = try? JSONBody.encoder.encode(body) else { return }
        publishTransient(tenantId: progress.tenantId, name: "forecast.progress", data: String(decoding: bytes, as: UTF8.self))
    }
}
