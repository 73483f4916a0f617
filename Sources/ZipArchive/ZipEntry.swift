/// One entry of an archive's central directory, its sizes and offset already resolved through its ZIP64 extra field
/// and checked: its local header and data lie within the archive, before the directory.
public struct ZipEntry: Sendable, Equatable {
    /// The entry's name as UTF-8 (what tools writing `.ipa` files use, APPNOTE's flag bit 11); bytes that are not
    /// UTF-8 read as U+FFFD, so `/`, `\`, `..` and NUL stay as written for path checks.
    public let path: String
    /// The general purpose bit flags.
    public let flags: UInt16
    /// 0 stored, 8 deflate; others are listed but not read.
    public let method: UInt16
    public let crc32: UInt32
    public let compressedSize: UInt64
    public let uncompressedSize: UInt64
    /// Where the entry's local header starts.
    public let localHeaderOffset: UInt64
    /// The upper byte is the system that made the entry (3: Unix).
    public let versionMadeBy: UInt16
    /// For Unix, the file's mode in the upper 16 bits.
    public let externalAttributes: UInt32
    /// The length of the name as stored.
    let nameLength: Int

    /// A folder: its name ends with `/`.
    public var isDirectory: Bool { path.hasSuffix("/") }

    /// A symbolic link, by the Unix mode of an entry made on Unix.
    public var isSymbolicLink: Bool {
        versionMadeBy >> 8 == 3 && (externalAttributes >> 16) & 0o170000 == 0o120000
    }

    /// A file: neither a folder nor a symbolic link.
    public var isFile: Bool { !isDirectory && !isSymbolicLink }

    /// Encrypted (traditional or strong encryption, flag bits 0 and 6).
    public var isEncrypted: Bool { flags & 0x0041 != 0 }
}
