import Foundation

/// What the app keeps: how often its articles were refreshed, and what went wrong in the background.
final class ArticleFeed: @unchecked Sendable {  // every property is behind `lock`
    private let lock = NSLock()
    private var _refreshes = 0
    private var _failures: [String] = []

    var refreshes: Int { lock.withLock { _refreshes } }
    var failures: [String] { lock.withLock { _failures } }

    /// A real app downloads the latest articles here.
    func refresh() { lock.withLock { _refreshes += 1 } }
    func failed(_ why: String) { lock.withLock { _failures.append(why) } }
}
