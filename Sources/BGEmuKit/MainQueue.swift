import Dispatch
import Foundation

/// UIKit's callbacks (the app and scene delegates, the scene) are main-actor isolated, as Apple's: the harness makes
/// them on the main queue, at once when it already runs there (a `@MainActor` test), else synchronously on it.
enum MainQueue {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether the caller runs on the main queue.
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }

    static func run<T: Sendable>(_ body: @MainActor () throws -> T) rethrows -> T {
        if DispatchQueue.getSpecific(key: key) == true { return try MainActor.assumeIsolated(body) }
        return try DispatchQueue.main.sync { try MainActor.assumeIsolated(body) }
    }
}
