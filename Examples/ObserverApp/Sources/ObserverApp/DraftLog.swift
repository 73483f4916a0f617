import UIKit

/// What the sync did: the background tasks it began, saves, syncs, and what went wrong.
final class DraftLog: @unchecked Sendable {  // every property is behind `lock`
    private let lock = NSLock()
    private var _tasks: [UIBackgroundTaskIdentifier] = []
    private var _saves = 0
    private var _cutShort = 0
    private var _syncs = 0
    private var _failures: [String] = []

    var backgroundTasks: [UIBackgroundTaskIdentifier] { lock.withLock { _tasks } }
    var saves: Int { lock.withLock { _saves } }
    var savesCutShort: Int { lock.withLock { _cutShort } }
    var syncs: Int { lock.withLock { _syncs } }
    var failures: [String] { lock.withLock { _failures } }

    func began(_ task: UIBackgroundTaskIdentifier) { lock.withLock { _tasks.append(task) } }
    func saved() { lock.withLock { _saves += 1 } }
    func saveCutShort() { lock.withLock { _cutShort += 1 } }
    func synced() { lock.withLock { _syncs += 1 } }
    func failed(_ why: String) { lock.withLock { _failures.append(why) } }
}
