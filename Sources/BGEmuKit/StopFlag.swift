import Foundation

/// Set once, read from any thread.
final class StopFlag: @unchecked Sendable {
    // @unchecked Sendable: `value` is behind `lock`.
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
