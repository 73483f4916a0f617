import Foundation

/// Faults that only tests switch on, to reproduce a crash at an exact point.
enum TestFault {
    /// Ends the process at once, as `kill -9` would: no answer sent, no cleanup, nothing flushed but what SQLite
    /// committed.
    static func exitNow() -> Never {
        _exit(137)
    }
}
