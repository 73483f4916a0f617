import Synchronization

/// The bytes every stream of a server holds for its clients together (each stream's `ConnectionStreamWriter`
/// backlog: queued, or taken by the loop and not accepted by the socket yet), against one limit.
///
/// Each stream's own bound (`HTTPServerConfiguration.maxStreamBacklog`) times the streams open is far more than a
/// process should hold (16,384 streams of 64 KiB: a GiB). Past this total a stream that still has bytes waiting is
/// cut rather than given more (its client resumes with `Last-Event-ID`); a stream with nothing waiting always gets
/// its write, so a client that keeps up is never cut for the others.
final class StreamBacklogTotal: Sendable {
    /// The most bytes all the streams may hold together (`Int.max`: no limit).
    let limit: Int
    private let bytes = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// The bytes held now.
    var current: Int { bytes.load(ordering: .relaxed) }

    /// Whether `more` bytes would take the total past the limit.
    func wouldExceed(adding more: Int) -> Bool {
        let now = bytes.load(ordering: .relaxed)
        return now > limit - more
    }

    /// Counts a change of one stream's backlog.
    func add(_ delta: Int) {
        guard delta != 0 else { return }
        bytes.add(delta, ordering: .relaxed)
    }
}
