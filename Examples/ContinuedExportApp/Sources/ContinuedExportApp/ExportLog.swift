import Foundation

/// What the exporter did: exports started, photos written, exports finished, and what went wrong.
final class ExportLog: @unchecked Sendable {  // every property is behind `lock`
    private let lock = NSLock()
    private var _started: [String] = []
    private var _exported = 0
    private var _finished = 0
    private var _failures: [String] = []

    var started: [String] { lock.withLock { _started } }
    var exported: Int { lock.withLock { _exported } }
    var finished: Int { lock.withLock { _finished } }
    var failures: [String] { lock.withLock { _failures } }

    func start(_ identifier: String) { lock.withLock { _started.append(identifier) } }
    func photoExported() { lock.withLock { _exported += 1 } }
    func finish() { lock.withLock { _finished += 1 } }
    func fail(_ why: String) { lock.withLock { _failures.append(why) } }
}
