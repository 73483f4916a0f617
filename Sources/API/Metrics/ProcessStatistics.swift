import Glibc

/// The process's resident memory and descriptors, read from `/proc/self` (Linux) for the `process_*` metrics.
struct ProcessStatistics {
    var residentBytes: Int
    var openDescriptors: Int
    var maximumDescriptors: Int

    /// Nil where `/proc` is not mounted.
    static func read() -> ProcessStatistics? {
        guard let statm = readSmallFile("/proc/self/statm") else { return nil }
        // statm: size resident shared text lib data dt, in pages.
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        var limit = rlimit()
        let maximum = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? Int(clamping: limit.rlim_cur) : 0
        return ProcessStatistics(
            residentBytes: pages * Int(sysconf(Int32(_SC_PAGESIZE))), openDescriptors: countDescriptors(),
            maximumDescriptors: maximum)
    }

    private static func readSmallFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 256)
        let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }

    /// Entries of `/proc/self/fd` (less `.`, `..` and the descriptor reading it).
    private static func countDescriptors() -> Int {
        guard let directory = opendir("/proc/self/fd") else { return 0 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let isDot = withUnsafeBytes(of: entry.pointee.d_name) { $0.first == UInt8(ascii: ".") }
            if !isDot { count += 1 }
        }
        return max(0, count - 1)
    }
}
