#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file system calls the static file responder makes, on plain POSIX.
enum StaticFileSystem {
    /// What `stat` says about a file.
    struct Metadata: Equatable {
        enum Kind { case regular, directory, other }
        let kind: Kind
        let size: Int
        let modifiedSeconds: Int
        let modifiedNanoseconds: Int
    }

    /// `path` with every symlink, `.` and `..` resolved (POSIX `realpath`), or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// `stat(path)`, following symlinks.
    static func metadata(_ path: String) -> Metadata? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Metadata(info)
    }

    /// The whole contents of the regular file at `path` and its metadata at the time it was read. The final
    /// component must not be a symlink (`O_NOFOLLOW`), so a link swapped in after `realPath` is refused.
    static func read(_ path: String) -> (metadata: Metadata, bytes: [UInt8])? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let metadata = Metadata(info)
        guard metadata.kind == .regular else { return nil }

        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: metadata.size) { buffer, count in
            count = 0
            while count < metadata.size {
                let n = systemRead(fd, buffer.baseAddress! + count, metadata.size - count)
                if n > 0 {
                    count += n
                } else if n == 0 {
                    break  // The file shrank since fstat; serve what there is.
                } else if errno != EINTR {
                    failed = true
                    break
                }
            }
        }
        return failed ? nil : (metadata, bytes)
    }

    /// `read(2)`, named apart from `StaticFileSystem.read`.
    private static func systemRead(_ fd: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(fd, buffer, count)
        #else
        Darwin.read(fd, buffer, count)
        #endif
    }
}

extension StaticFileSystem.Metadata {
    init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        default: kind = .other
        }
        size = Int(info.st_size)
        #if canImport(Glibc)
        modifiedSeconds = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
        #else
        modifiedSeconds = Int(info.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int(info.st_mtimespec.tv_nsec)
        #endif
    }
}
