import Synchronization

/// Counts a server's connections and the requests it refused before routing, across its event loops; read
/// from any thread through `HTTPServer.statistics`.
final class ConnectionTally: Sendable {
    private let open = Atomic<Int>(0)
    private let accepted = Atomic<Int>(0)
    /// Requests answered by the server itself (unparseable, too large, too slow) by status code: rare, so a lock.
    private let refused = Mutex<[Int: Int]>([:])

    init() {}

    func opened() {
        open.add(1, ordering: .relaxed)
        accepted.add(1, ordering: .relaxed)
    }

    func closed() {
        open.subtract(1, ordering: .relaxed)
    }

    func refused(status: Int) {
        refused.withLock { $0[status, default: 0] += 1 }
    }

    var snapshot: HTTPServerStatistics {
        HTTPServerStatistics(
            openConnections: open.load(ordering: .relaxed), acceptedConnections: accepted.load(ordering: .relaxed),
            refusedRequests: refused.withLock { $0 })
    }
}

/// What a running `HTTPServer` counted so far.
public struct HTTPServerStatistics: Sendable, Equatable {
    /// Connections open now (keep-alive, in a request, streaming, or closing).
    public var openConnections: Int
    /// Connections accepted since the server started.
    public var acceptedConnections: Int
    /// Requests the server answered itself before any route saw them, by status: malformed (`400`), too slow
    /// (`408`), too large (`413`, `431`), an unknown method (`501`) and the like.
    public var refusedRequests: [Int: Int]

    public init(openConnections: Int = 0, acceptedConnections: Int = 0, refusedRequests: [Int: Int] = [:]) {
        self.openConnections = openConnections
        self.acceptedConnections = acceptedConnections
        self.refusedRequests = refusedRequests
    }
}
