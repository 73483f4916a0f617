import CSystem
import Glibc

/// How many processors the process may use: those it may run on (its affinity: `taskset`, a container's
/// `--cpuset-cpus`), fewer when a container's CPU limit (cgroup v2 `cpu.max`, or v1 `cpu.cfs_quota_us` /
/// `cpu.cfs_period_us`) allows less — a service container limited to 2 CPUs on a 64-core host should not start
/// 64 event loops.
public enum ProcessorCount {
    /// The processors the process may run on, capped by the cgroup's CPU limit when there is one.
    public static var available: Int {
        let limit = read("/sys/fs/cgroup/cpu.max").flatMap(limit(cpuMax:))
            ?? limit(quota: read("/sys/fs/cgroup/cpu/cpu.cfs_quota_us"), period: read("/sys/fs/cgroup/cpu/cpu.cfs_period_us"))
        let usable = allowed.count
        return min(usable, limit ?? usable)
    }

    /// The numbers of the processors the calling thread may run on, ascending; the online ones when the kernel
    /// does not say.
    public static var allowed: [Int] {
        var cpus = [Int32](repeating: 0, count: 1024)
        let count = Int(csystem_allowed_cpus(&cpus, Int32(cpus.count)))
        guard count > 0 else { return Array(0..<max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))) }
        return cpus[..<min(count, cpus.count)].map(Int.init)
    }

    /// Whole processors (rounded up, at least 1) of a cgroup v2 `cpu.max` line, `"<quota> <period>"`; nil for
    /// `"max …"` (no limit) or a line that is not two numbers.
    static func limit(cpuMax: String) -> Int? {
        let fields = cpuMax.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count == 2 else { return nil }
        return limit(quota: String(fields[0]), period: String(fields[1]))
    }

    /// Whole processors (rounded up, at least 1) of a quota over a period, both in microseconds; nil when either
    /// is missing or not positive (cgroup v1 writes `-1` for no limit).
    static func limit(quota: String?, period: String?) -> Int? {
        let number = { (text: String?) in text.flatMap { Int($0.filter { $0 != "\n" && $0 != " " }) } }
        guard let quota = number(quota), let period = number(period), quota > 0, period > 0
        else { return nil }
        return max(1, (quota + period - 1) / period)
    }

    /// A small file's text, or nil when it cannot be read.
    private static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = fread(&buffer, 1, buffer.count, file)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }
}
