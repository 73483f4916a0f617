import Foundation

/// The articles the app keeps offline: a push names one that changed, and the app downloads it again.
final class ArticleStore: @unchecked Sendable {  // every property is behind `lock`
    private let lock = NSLock()
    private var _refreshed: [Int] = []
    private var _failures: [String] = []

    /// The articles refreshed, in order.
    var refreshed: [Int] { lock.withLock { _refreshed } }
    var failures: [String] { lock.withLock { _failures } }

    /// Downloads the article again; true when it was stored (a real app fetches it from its server here).
    func refresh(article id: Int) -> Bool {
        lock.withLock { _refreshed.append(id) }
        return true
    }

    func failed(_ why: String) { lock.withLock { _failures.append(why) } }
}
