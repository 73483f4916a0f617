import Foundation
import UIKit

/// What the syncer did, in order, and the background task identifiers it was given.
final class SyncLog: @unchecked Sendable {  // every property is behind `lock`
    private let lock = NSLock()
    private var _notes: [String] = []
    private var _identifiers: [UIBackgroundTaskIdentifier] = []

    var notes: [String] { lock.withLock { _notes } }
    var identifiers: [UIBackgroundTaskIdentifier] { lock.withLock { _identifiers } }

    func note(_ what: String) { lock.withLock { _notes.append(what) } }
    func began(_ identifier: UIBackgroundTaskIdentifier) { lock.withLock { _identifiers.append(identifier) } }
}
