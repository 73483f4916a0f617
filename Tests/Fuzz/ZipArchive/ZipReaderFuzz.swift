/// The libFuzzer entry point for the zip reader (`Sources/ZipArchive`), built by `run-fuzz.sh --target zip` from the
/// reader's own sources. Each input is an upload's bytes: its entries are listed (the directory's own checks
/// included) and every file among them is read as the service reads an Info.plist, under a 1 MiB limit; whatever
/// the bytes, each step must answer or throw a `ZipError`, never trap, and never read outside the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzZipReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let source = BoundsCheckedSource(UnsafeRawBufferPointer(start: data, count: size))
    let reader = try? ZipReader(source)
    // The end record is looked for in the last 65,557 bytes only: the first read is that window, and an input
    // without a record is refused from it alone.
    let window = (size - min(size, EndRecord.searchLength))..<size
    fuzzCheck(size < EndRecord.length ? source.reads.isEmpty : source.reads.first == window, "searched \(source.reads)")
    guard let reader else {
        fuzzCheck(source.reads.count <= 3, "a refused input read \(source.reads)")
        return 0
    }
    let limit = 1 << 20
    var cursor = reader.entries(maximumCount: 10_000)
    var entries: [ZipEntry] = []
    while true {
        do {
            guard let entry = try cursor.next() else { break }
            entries.append(entry)
        } catch {
            break
        }
    }
    // Read every file listed, even after a directory found wrong: `contents(of:)` checks on its own.
    for entry in entries.prefix(64) where !entry.isDirectory {
        guard let bytes = try? reader.contents(of: entry, limit: limit) else { continue }
        fuzzCheck(UInt64(bytes.count) == entry.uncompressedSize, "\(entry.path): \(bytes.count) bytes, declared \(entry.uncompressedSize)")
        fuzzCheck(bytes.count <= limit, "\(entry.path): \(bytes.count) bytes past the limit")
        fuzzCheck(bytes.withUnsafeBytes(CRC32.checksum) == entry.crc32, "\(entry.path): CRC-32 not checked")
    }
    return 0
}

/// The input, with every range the reader asks for checked to lie within it (`-O` drops the buffer's own checks).
final class BoundsCheckedSource: ZipByteSource {
    let bytes: UnsafeRawBufferPointer
    var reads: [Range<Int>] = []

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var count: Int { bytes.count }

    func withBytes<Result, Failure: Error>(
        in range: Range<Int>, _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        fuzzCheck(range.lowerBound >= 0 && range.upperBound <= bytes.count, "read \(range) of \(bytes.count) bytes")
        if reads.count < 16 { reads.append(range) }
        return try body(UnsafeRawBufferPointer(rebasing: bytes[range]))
    }
}
