import Glibc

/// The process's open-file limit: each connection is a descriptor, and the default soft limit (often 1024)
/// is far below the thousands of streams the server is meant to hold.
enum DescriptorLimit {
    /// Raises the soft `RLIMIT_NOFILE` to the hard limit; returns the soft limit in force afterwards.
    @discardableResult
    static func raiseToHardLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return -1 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }
}
