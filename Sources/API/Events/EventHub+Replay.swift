import Emulation
import Foundation

extension EventHub {
    /// Replays the stored events after the subscriber's `Last-Event-ID`, page by page, then hands over to the live
    /// events buffered meanwhile (runs on a replay queue).
    ///
    /// Nothing is lost: the subscriber was registered before the first page was read, so an event committed after
    /// a page's read is delivered to it live (published after its commit), and one committed before is in the
    /// page. Nothing is repeated: the subscriber writes only ids above the last it wrote.
    func replay(_ subscriber: EventSubscriber) {
        let encoder = EventBody.makeEncoder()
        var afterId = subscriber.lastSentId
        while subscriber.writer.isOpen {
            let page: [RecordedEvent]
            do {
                page = try store.events(
                    tenantId: subscriber.tenantId, filter: subscriber.filter, afterId: afterId, limit: Self.replayPageSize)
            } catch {
                // End the stream cleanly: the client reconnects after `retry` and resumes where it is.
                logger.error("Event hub: replay for tenant \(subscriber.tenantId) failed: \(error)")
                subscriber.close()
                subscriber.writer.finish()
                return
            }
            guard subscriber.replay(page.compactMap { encode($0, encoder) }) else { return }
            afterId = page.last?.id ?? afterId
            if page.count < Self.replayPageSize {
                switch subscriber.finishReplay() {
                case .live, .closed: return
                case .replayAgain: afterId = subscriber.lastSentId
                }
            }
        }
    }
}
