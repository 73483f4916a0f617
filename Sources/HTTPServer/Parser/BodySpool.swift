import Glibc

/// A request body being written to an unlinked temporary file, so that an upload of hundreds of MiB costs
/// page cache rather than the process's memory, and never the copy a growing array makes when it doubles.
///
/// The file is opened with `O_TMPFILE` (open(2)): it has no name from the start, so nothing is left behind
/// whatever happens to the process; where the file system cannot do that, `mkstemp(3)` and an immediate
/// `unlink(2)` do the same. It lives in `$TMPDIR`, else `/tmp`. ``finish()`` maps it read-only for the handler
/// (``SpooledBody``); a spool dropped before (a failed or abandoned request) closes its descriptor.
final class BodySpool {
    /// The descriptor, -1 once handed to a ``SpooledBody``.
    private var fd: Int32
    /// Bytes written so far.
    private(set) var count = 0

    /// A new, empty spool; nil when no temporary file can be made.
    init?() {
        let directory = Self.directory
        var fd = open(directory, Self.tmpfileFlag | O_RDWR | O_CLOEXEC, 0o600)
        if fd < 0 {
            var template = Array((directory + "/bgemu-body-XXXXXX").utf8CString)
            fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            if fd >= 0 {
                template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        }
        guard fd >= 0 else { return nil }
        self.fd = fd
    }

    /// `O_TMPFILE`, which Glibc's module does not export: `__O_TMPFILE | O_DIRECTORY` of Linux's fcntl.h, whose
    /// `O_DIRECTORY` differs between architectures. 0 elsewhere, so `open` fails and `mkstemp` is used.
    private static var tmpfileFlag: Int32 {
        #if os(Linux) && arch(x86_64)
        0o20_200_000
        #elseif os(Linux) && arch(arm64)
        0o20_040_000
        #else
        0
        #endif
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
    }

    /// Where spools are made: `$TMPDIR`, else `/tmp`.
    static var directory: String {
        if let value = getenv("TMPDIR"), value.pointee != 0 { return String(cString: value) }
        return "/tmp"
    }

    /// Appends `bytes`; false when the file system refused them (full disk, quota).
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        count += bytes.count
        return true
    }

    /// The whole body, mapped read-only; nil when it cannot be mapped. The spool is spent either way.
    func finish() -> SpooledBody? {
        let fd = self.fd
        self.fd = -1
        return SpooledBody(fd: fd, count: count)
    }
}
