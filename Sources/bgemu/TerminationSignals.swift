#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// SIGTERM and SIGINT, taken by one thread that waits for them.
///
/// ``block()`` runs first in `serve`, before any thread exists, so that every thread inherits the mask: a signal
/// then stays pending until ``wait(_:)``'s thread takes it with `sigwait`. Ignoring the signals and watching them
/// with a dispatch source instead let the kernel hand one to a thread that did not block it, where it was dropped:
/// now and then a service did not stop on SIGTERM.
enum TerminationSignals {
    private static var set: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        return set
    }

    /// Blocks the signals in the calling thread and in every thread it starts after this.
    static func block() {
        var set = set
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Calls `handler` once, on a thread of its own, when the first of the signals arrives.
    static func wait(_ handler: @escaping @Sendable (Int32) -> Void) {
        let thread = Thread {
            var set = set
            var number: Int32 = 0
            guard sigwait(&set, &number) == 0 else { return }
            handler(number)
        }
        thread.name = "signals"
        thread.start()
    }
}
