import Foundation

/// What the refresher did: the headlines it fetched and when, accepted submits, and what went wrong.
final class RefreshLog: @unchecked Sendable {  // every property is behind `lock`
    private let lock = NSLock()
    private var _refreshes = 0
    private var _headlines: [String] = []
    private var _lastRefresh: Date?
    private var _scheduled = 0
    private var _failures: [String] = []

    var refreshes: Int { lock.withLock { _refreshes } }
    var headlines: [String] { lock.withLock { _headlines } }
    var lastRefresh: Date? { lock.withLock { _lastRefresh } }
    var scheduledCount: Int { lock.withLock { _scheduled } }
    var failures: [String] { lock.withLock { _failures } }

    func refreshed(_ headlines: [String], at date: Date) {
        lock.withLock {
            _refreshes += 1
            _headlines = headlines
            _lastRefresh = date
        }
    }

    func scheduled() { lock.withLock { _scheduled += 1 } }
    func failed(_ why: String) { lock.withLock { _failures.append(why) } }
}
