import Foundation

/// The app the process drives, for app code that runs outside every task the harness binds (dispatch queues,
/// threads, timers, observers). An iOS process runs one app; a test process may drive several, one after another
/// or at once.
///
/// - While the harness runs an app's turn (its handler or callback, then the blocks it left on the main queue and
///   on its handlers' queues), such code belongs to that app.
/// - Otherwise it belongs to the app launched last.
/// - Once the harness calls of two devices have overlapped (tests driving devices in parallel), such code cannot be
///   attributed, for the rest of the process: a guess could hand one test's call to another test's device.
///
/// `@unchecked Sendable`: every member is behind `lock`.
final class ProcessBinding: @unchecked Sendable {
    /// Whom code outside a bound task means.
    enum Resolution {
        case app(EmulatedApp)
        /// No app launched yet.
        case unbound
        /// Several apps could be meant; why, for the message.
        case ambiguous(String)
    }

    static let shared = ProcessBinding()

    private let lock = NSLock()
    private weak var launched: EmulatedApp?
    /// The apps whose turn is open, with its depth.
    private var turns: [ObjectIdentifier: (app: EmulatedApp, depth: Int)] = [:]
    /// The devices in a harness call, with their id and the calls' count.
    private var busy: [ObjectIdentifier: (id: String, calls: Int)] = [:]
    /// Set when harness calls of two devices overlapped: which ones.
    private var overlap: String?

    /// `app` was launched (or launched again): it is the process's app from now on.
    func launched(_ app: EmulatedApp) { lock.withLock { launched = app } }

    /// A harness call of `device` begins.
    func enter(_ device: EmulatedDevice) {
        let key = ObjectIdentifier(device)
        lock.withLock {
            if overlap == nil, let other = busy.first(where: { $0.key != key && $0.value.calls > 0 }) {
                overlap = "devices \(other.value.id) and \(device.id) are driven at once"
            }
            busy[key, default: (device.id, 0)].calls += 1
        }
    }

    /// A harness call of `device` ended.
    func leave(_ device: EmulatedDevice) {
        let key = ObjectIdentifier(device)
        lock.withLock {
            busy[key]?.calls -= 1
            if busy[key]?.calls == 0 { busy[key] = nil }
        }
    }

    /// The harness runs `app`'s code until the matching ``closeTurn(_:)``.
    func openTurn(_ app: EmulatedApp) {
        lock.withLock { turns[ObjectIdentifier(app), default: (app, 0)].depth += 1 }
    }

    func closeTurn(_ app: EmulatedApp) {
        let key = ObjectIdentifier(app)
        lock.withLock {
            turns[key]?.depth -= 1
            if turns[key]?.depth == 0 { turns[key] = nil }
        }
    }

    /// The app code outside a bound task means now.
    func resolve() -> Resolution {
        lock.withLock {
            if let overlap { return .ambiguous(overlap) }
            let open = turns.values.map(\.app)
            if open.count > 1 {
                return .ambiguous("the turns of \(open.map(\.bundleId).sorted().joined(separator: " and ")) run at once")
            }
            if let app = open.first ?? launched { return .app(app) }
            return .unbound
        }
    }
}
