/// Why an archive, or one of its entries, cannot be read. Every size, offset and count an archive declares is
/// checked before it is used, so a hostile archive ends here, never in a trap.
public enum ZipError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No end of central directory record in the last 65,557 bytes (22 and the longest comment).
    case notAZip
    /// A record, a size or an offset (named) reaches outside the archive, or outside its part of it.
    case outOfBounds(String)
    /// The bytes where a record (named) should start are not that record.
    case badSignature(String)
    /// Fields that contradict one another or the format (said).
    case malformed(String)
    /// The archive spans several disks (files).
    case multipleDisks
    /// Two entries' data overlap (one stored byte counted twice: an overlapping zip bomb).
    case overlappingEntries
    /// More entries than the caller allows.
    case tooManyEntries(Int)
    /// The entry is encrypted.
    case encrypted
    /// The entry's compression method is neither stored (0) nor deflate (8).
    case unsupportedMethod(UInt16)
    /// The entry declares more bytes than the caller allows.
    case tooLarge(limit: Int)
    /// The entry inflates to another size than it declares.
    case sizeMismatch
    /// The entry's bytes do not have the CRC-32 it declares.
    case crcMismatch
    /// The entry's deflate stream is invalid or cut short.
    case corruptData

    public var description: String {
        switch self {
        case .notAZip: "no end of central directory record (not a zip archive)"
        case .outOfBounds(let what): "\(what) reaches outside the archive"
        case .badSignature(let what): "\(what) is not where the archive says"
        case .malformed(let what): what
        case .multipleDisks: "the archive spans several disks"
        case .overlappingEntries: "two entries' data overlap"
        case .tooManyEntries(let limit): "more than \(limit) entries"
        case .encrypted: "the entry is encrypted"
        case .unsupportedMethod(let method): "compression method \(method) (only stored, 0, and deflate, 8, are read)"
        case .tooLarge(let limit): "the entry declares more than \(limit) bytes"
        case .sizeMismatch: "the entry does not inflate to the size it declares"
        case .crcMismatch: "the entry's CRC-32 does not match its bytes"
        case .corruptData: "the entry's deflate stream is damaged or cut short"
        }
    }
}
