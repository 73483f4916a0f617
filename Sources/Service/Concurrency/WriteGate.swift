import Foundation

/// Lets commands in side by side (each holding its device's lock, see ``DeviceLocks``), or one body alone: an
/// idempotent request runs its handler and stores its answer in one transaction, and must not interleave with any
/// other command. A body waiting to go alone goes before commands that arrive after it, so a stream of commands
/// cannot starve it.
///
/// A thread already inside the gate (either way) passes again without waiting: a command inside an idempotent
/// request, or a command that runs another.
// @unchecked Sendable: `inside`, `runningAlone` and `waitingAlone` are only touched with `condition` locked.
final class WriteGate: @unchecked Sendable {
    /// The gate the current thread is inside, if any.
    @TaskLocal private static var entered: ObjectIdentifier?

    private let condition = NSCondition()
    /// Commands inside.
    private var inside = 0
    /// Whether a body runs alone.
    private var runningAlone = false
    /// Bodies waiting to run alone.
    private var waitingAlone = 0

    private var isEnteredByCaller: Bool { Self.entered == ObjectIdentifier(self) }

    /// Runs `body` beside other commands, once no body runs alone or waits to.
    func beside<T>(_ body: () throws -> T) rethrows -> T {
        if isEnteredByCaller { return try body() }
        condition.lock()
        while runningAlone || waitingAlone > 0 { condition.wait() }
        inside += 1
        condition.unlock()
        defer {
            condition.lock()
            inside -= 1
            if inside == 0 { condition.broadcast() }
            condition.unlock()
        }
        return try Self.$entered.withValue(ObjectIdentifier(self)) { try body() }
    }

    /// Runs `body` alone: once the commands inside have left, and none enters until it returns.
    func alone<T>(_ body: () throws -> T) rethrows -> T {
        if isEnteredByCaller { return try body() }
        condition.lock()
        waitingAlone += 1
        while runningAlone || inside > 0 { condition.wait() }
        waitingAlone -= 1
        runningAlone = true
        condition.unlock()
        defer {
            condition.lock()
            runningAlone = false
            condition.broadcast()
            condition.unlock()
        }
        return try Self.$entered.withValue(ObjectIdentifier(self)) { try body() }
    }
}
