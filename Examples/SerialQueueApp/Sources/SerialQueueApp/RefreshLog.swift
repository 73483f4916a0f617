import Foundation

/// What the refresher did: refreshes, accepted submits, and what went wrong.
final class RefreshLog: @unchecked Sendable {  // every property is behind `lock`
    private let lock = NSLock()
    private var _refreshes = 0
    private var _scheduled = 0
    private var _failures: [String] = []

    var refreshes: Int { lock.withLock { _refreshes } }
    var scheduledCount: Int { lock.withLock { _scheduled } }
    var failures: [String] { lock.withLock { _failures } }

    func refreshed() { lock.withLock { _refreshes += 1 } }
    func scheduled() { lock.withLock { _scheduled += 1 } }
    func failed(_ why: String) { lock.withLock { _failures.append(why) } }
}
