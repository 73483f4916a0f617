import Glibc

/// A request body kept in an unlinked temporary file (see ``BodySpool``) and mapped read-only, so a handler
/// reads hundreds of MiB without the process holding them twice, or holding them at all before they are
/// touched (mmap(2): the pages are the page cache's). The mapping and the file go when the last request that
/// refers to it is gone.
public final class SpooledBody: @unchecked Sendable {
    // Sendable: the mapping is read-only and the properties are never written after `init`.
    private let fd: Int32
    private let base: UnsafeRawPointer?
    /// The body's size in bytes.
    public let count: Int

    /// Maps `count` bytes of `fd`, taking the descriptor; nil (the descriptor closed) when it cannot be mapped.
    init?(fd: Int32, count: Int) {
        self.fd = fd
        self.count = count
        if count == 0 {
            base = nil
            return
        }
        let mapped = mmap(nil, count, PROT_READ, MAP_SHARED, fd, 0)
        guard let mapped, mapped != MAP_FAILED else {
            Glibc.close(fd)
            return nil
        }
        // The handlers read an upload from front to back, mostly once.
        _ = madvise(mapped, count, MADV_SEQUENTIAL)
        base = UnsafeRawPointer(mapped)
    }

    deinit {
        if let base { munmap(UnsafeMutableRawPointer(mutating: base), count) }
        Glibc.close(fd)
    }

    /// The descriptor of the spool's file, for ``HTTPRequest/discardBody()``.
    var descriptor: Int32 { fd }

    /// The bytes, valid while `self` lives.
    public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }
}
