import ZipArchive

/// A byte source that records every range read: real bytes, or `count` bytes of `filler` made only as read (so a
/// test can hand the reader a gigabyte it never holds).
final class CountingSource: ZipByteSource {
    let count: Int
    private let bytes: [UInt8]?
    private let filler: UInt8
    private(set) var reads: [Range<Int>] = []

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        count = bytes.count
        filler = 0
    }

    init(count: Int, filler: UInt8) {
        bytes = nil
        self.count = count
        self.filler = filler
    }

    /// The lowest offset read, or nil when nothing was.
    var lowestOffsetRead: Int? { reads.map(\.lowerBound).min() }

    /// How many bytes were read, counting a byte read twice twice.
    var bytesRead: Int { reads.reduce(0) { $0 + $1.count } }

    func withBytes<Result, Failure: Error>(
        in range: Range<Int>, _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "read outside the source: \(range)")
        reads.append(range)
        let piece = bytes.map { Array($0[range]) } ?? [UInt8](repeating: filler, count: range.count)
        let result = piece.withUnsafeBytes { buffer in Swift.Result { () throws(Failure) in try body(buffer) } }
        return try result.get()
    }
}
