import Synchronization

/// One place among the hub's `maximumStreams`, taken when a stream request is accepted and held until the stream
/// attaches, so that the limit also holds for streams accepted at the same instant (the head is sent, and the stream
/// counted, only later on the event loop). A slot that never attaches (a `HEAD` request, a client gone before the
/// head was sent) is given back when the response that carries it is released.
final class EventStreamSlot: Sendable {
    private let release: @Sendable () -> Void
    private let settled = Atomic<Bool>(false)

    init(release: @escaping @Sendable () -> Void) {
        self.release = release
    }

    /// Marks the slot as used by an attached stream, which from then on counts itself; true the first time only.
    func claim() -> Bool {
        !settled.exchange(true, ordering: .acquiringAndReleasing)
    }

    deinit {
        if !settled.load(ordering: .acquiring) { release() }
    }
}
