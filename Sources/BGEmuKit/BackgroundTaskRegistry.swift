import Foundation

/// The background tasks open in this process, by identifier: which app and which task on the service each is,
/// and its expiration handler. `endBackgroundTask` finds its task here from any thread.
final class BackgroundTaskRegistry: @unchecked Sendable {
    // @unchecked Sendable: every access goes through `lock`.
    struct Entry {
        let app: EmulatedApp
        let taskId: String
        let expirationHandler: (() -> Void)?
    }

    static let shared = BackgroundTaskRegistry()
    private let lock = NSLock()
    private var entries: [Int: Entry] = [:]
    private var next = 1

    func add(_ entry: Entry) -> UIBackgroundTaskIdentifier {
        lock.withLock {
            defer { next += 1 }
            entries[next] = entry
            return UIBackgroundTaskIdentifier(rawValue: next)
        }
    }

    func remove(_ identifier: UIBackgroundTaskIdentifier) -> Entry? { lock.withLock { entries.removeValue(forKey: identifier.rawValue) } }

    /// The entry of the service's task `taskId` of `app`.
    func find(_ app: EmulatedApp, taskId: String) -> Entry? {
        lock.withLock { entries.values.first { $0.app === app && $0.taskId == taskId } }
    }

    /// Forgets the tasks of `app` whose ids on the service are `taskIds` (all of them when nil).
    func forget(_ app: EmulatedApp, taskIds: Set<String>? = nil) {
        lock.withLock {
            entries = entries.filter { $0.value.app !== app || !(taskIds?.contains($0.value.taskId) ?? true) }
        }
    }
}
