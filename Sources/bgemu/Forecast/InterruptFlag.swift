import Foundation
import Synchronization

/// Whether the user pressed Ctrl-C (SIGINT), or the terminal or a supervisor ended the command (SIGHUP, SIGTERM),
/// for a command that cleans up on the service before it exits.
final class InterruptFlag: Sendable {
    private static let raised = Atomic<Int32>(0)
    static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// Catches the signals from now on (unblocking them, as a parent may have left them blocked): each sets the
    /// flag instead of ending the process, until ``restore()``.
    static func install() -> InterruptFlag {
        // The flag is made here, not first in a handler (a global's lazy setup is not safe in a signal handler).
        raised.store(0, ordering: .relaxed)
        EventsCommand.unblockTerminationSignals()
        for signal in signals { Glibc.signal(signal) { InterruptFlag.raised.store($0, ordering: .relaxed) } }
        return InterruptFlag()
    }

    /// The signal caught, if any.
    var signal: Int32? {
        let caught = Self.raised.load(ordering: .relaxed)
        return caught == 0 ? nil : caught
    }

    /// The signals end the process again, as by default.
    func restore() {
        for signal in Self.signals { Glibc.signal(signal, SIG_DFL) }
    }
}
