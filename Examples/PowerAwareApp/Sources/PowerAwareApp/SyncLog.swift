import Foundation

/// What the scheduler did, in order: `paused`, `resumed`, `scheduled`, `skipped`, `synced`, and what went wrong.
final class SyncLog: @unchecked Sendable {  // every property is behind `lock`
    private let lock = NSLock()
    private var _entries: [String] = []
    private var _failures: [String] = []

    var entries: [String] { lock.withLock { _entries } }
    var failures: [String] { lock.withLock { _failures } }
    func count(_ entry: String) -> Int { entries.filter { $0 == entry }.count }

    func paused() { append("paused") }
    func resumed() { append("resumed") }
    func scheduled() { append("scheduled") }
    func skipped() { append("skipped") }
    func synced() { append("synced") }
    func failed(_ why: String) { lock.withLock { _failures.append(why) } }

    private func append(_ entry: String) { lock.withLock { _entries.append(entry) } }
}
