import Synchronization

/// The bytes every stream of a server holds for its clients together (each stream's `ConnectionStreamWriter`
/// backlog: queued, or taken by the loop and not accepted by the socket yet), against one limit.
///
/// Each stream's own bound (`HTTPServerConfiguration.maxStreamBacklog`) times the streams open is far more than a
/// process should hold (16,384 streams of 64 KiB: a GiB). When a write takes the total past this limit, the streams
/// furthest behind (the largest backlogs, whichever they are: most often clients that stopped reading, not the
/// stream being written to) are cut until the total is back under nine tenths of it; their clients resume with
/// `Last-Event-ID`. A stream with nothing waiting is never cut.
final class StreamBacklogTotal: Sendable {
    /// The most bytes all the streams may hold together.
    let limit: Int
    private let bytes = Atomic<Int>(0)
    /// The open streams (registered as they start, forgotten as their connections close), for ``relieve()``.
    private let streams = Mutex<[ObjectIdentifier: ConnectionStreamWriter]>([:])
    /// Whether a thread is cutting streams: one at a time, the others go on.
    private let relieving = Atomic<Bool>(false)
    private let cuts = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// The bytes held now.
    var current: Int { bytes.load(ordering: .relaxed) }

    /// How many streams were cut for the total (tests, logs).
    var cutCount: Int { cuts.load(ordering: .relaxed) }

    /// Whether `more` bytes would take the total past the limit.
    func wouldExceed(adding more: Int) -> Bool {
        bytes.load(ordering: .relaxed) > limit - more
    }

    /// Counts a change of one stream's backlog.
    func add(_ delta: Int) {
        guard delta != 0 else { return }
        bytes.add(delta, ordering: .relaxed)
    }

    func register(_ writer: ConnectionStreamWriter) {
        streams.withLock { $0[ObjectIdentifier(writer)] = writer }
    }

    func forget(_ writer: ConnectionStreamWriter) {
        _ = streams.withLock { $0.removeValue(forKey: ObjectIdentifier(writer)) }
    }

    /// Cuts the streams with the largest backlogs until the rest hold at most nine tenths of the limit, sparing
    /// `spared` (a stream whose backlog was empty before the write that called this). Call it holding no stream's
    /// lock.
    func relieve(sparing spared: ConnectionStreamWriter? = nil) {
        guard !relieving.exchange(true, ordering: .acquiring) else { return }
        defer { relieving.store(false, ordering: .releasing) }
        let open = streams.withLock { Array($0.values) }
        var behind = open.map { (writer: $0, backlog: $0.backlog) }.filter { $0.backlog > 0 }
        behind.sort { $0.backlog > $1.backlog }
        var excess = current - limit / 10 * 9
        for stream in behind where excess > 0 && stream.writer !== spared {
            guard stream.writer.cutForServerLimit() else { continue }
            cuts.add(1, ordering: .relaxed)
            excess -= stream.backlog
        }
    }
}
