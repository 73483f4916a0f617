import Locking

/// The stream bytes of the latest events, shared by every stream: a tenant's streams that catch up from the store
/// read the same recent events, and each used to encode its own copy (with 1,024 streams behind, encoding was
/// a seventh of the server's CPU). Keeps the events whose ids are within `window` of the greatest one seen; older
/// ones are encoded again when a replay reaches them.
final class EncodedEventCache: Sendable {
    private struct State {
        var bytes: [Int64: [UInt8]] = [:]
        var newest: Int64 = 0
    }

    private let state = PlainLock(State())
    /// How far below the newest id an event stays.
    let window: Int64

    init(window: Int64 = 4_096) {
        self.window = max(1, window)
    }

    /// The stream bytes of event `id`, if cached.
    func bytes(of id: Int64) -> [UInt8]? {
        state.withLock { $0.bytes[id] }
    }

    /// Keeps the stream bytes of event `id`, unless it is already older than the window.
    func keep(_ bytes: [UInt8], of id: Int64) {
        state.withLock { state in
            if id > state.newest { state.newest = id }
            let oldest = state.newest - window
            guard id > oldest else { return }
            state.bytes[id] = bytes
            // Dropped a window at a time, so that the pass over the table is paid once per `window` insertions.
            if state.bytes.count > Int(window) * 2 {
                state.bytes = state.bytes.filter { $0.key > oldest }
            }
        }
    }

    /// Forgets every event (the last stream closed: nothing will read them), giving back their memory.
    func removeAll() {
        state.withLock { state in
            state.bytes = [:]
        }
    }

    /// How many events are cached (tests: the table stays bounded).
    var count: Int { state.withLock { $0.bytes.count } }
}
