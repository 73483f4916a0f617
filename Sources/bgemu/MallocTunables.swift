import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Starts `serve` with glibc's per-thread allocation caches off (`GLIBC_TUNABLES=glibc.malloc.tcache_count=0`).
///
/// Each thread keeps up to seven freed blocks of each small size for itself (glibc's tcache), and they stay
/// allocated for as long as the thread lives: with 32 workers and the event loops, those caches pin pages all over
/// the heap that `malloc_trim` cannot give back (the figures are in the README's "A shared service"). glibc reads its
/// tunables only when a process
/// starts, from its environment, so `serve` sets the variable and executes itself again, once, before anything
/// else runs (the process keeps its id). A `GLIBC_TUNABLES` that already names `tcache_count` is left as it is
/// (`glibc.malloc.tcache_count=7` restores glibc's default); one that names other tunables keeps them, after this one.
enum MallocTunables {
    static let variable = "GLIBC_TUNABLES"
    static let tunable = "glibc.malloc.tcache_count"
    static let setting = "\(tunable)=0"

    /// The value `GLIBC_TUNABLES` should have, given its value now; nil when it already says what it wants.
    static func wanted(current: String?) -> String? {
        guard let current, !current.isEmpty else { return setting }
        if current.split(separator: ":").contains(where: { $0.hasPrefix(tunable + "=") }) { return nil }
        return setting + ":" + current
    }

    /// Executes this program again with the tunable set, when it is not set yet; returns only when there is nothing
    /// to do or the execution failed (the service then runs with glibc's default, as before).
    static func reexecuteIfNeeded() {
        #if os(Linux)
        guard let value = wanted(current: getenv(variable).map { String(cString: $0) }) else { return }
        guard setenv(variable, value, 1) == 0 else { return }
        let arguments = CommandLine.arguments.map { strdup($0) } + [nil]
        execv("/proc/self/exe", arguments)
        // Still here: execv failed. Undo the variable, so that whatever this process starts is not changed.
        arguments.forEach { free($0) }
        unsetenvOrRestore(value)
        #endif
    }

    private static func unsetenvOrRestore(_ value: String) {
        if value == setting {
            unsetenv(variable)
        } else {
            setenv(variable, String(value.dropFirst(setting.count + 1)), 1)
        }
    }
}
