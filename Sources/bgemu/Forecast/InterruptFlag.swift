import Foundation
import Synchronization

/// Whether the user pressed Ctrl-C (SIGINT), for a command that cleans up before it exits.
final class InterruptFlag: Sendable {
    private static let raised = Atomic<Bool>(false)

    /// Starts catching SIGINT: from now on it sets the flag instead of ending the process.
    static func install() -> InterruptFlag {
        signal(SIGINT) { _ in InterruptFlag.raised.store(true, ordering: .relaxed) }
        return InterruptFlag()
    }

    var isSet: Bool { Self.raised.load(ordering: .relaxed) }
}
