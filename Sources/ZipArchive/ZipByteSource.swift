/// Bytes a `ZipReader` reads at any offset, a range at a time, without their being copied whole: an upload held in
/// memory or mapped from a spooled file, or, in tests, a source that records what was read.
public protocol ZipByteSource {
    /// How many bytes there are.
    var count: Int { get }

    /// Calls `body` with the bytes in `range`, which the reader keeps within `0..<count`.
    func withBytes<Result, Failure: Error>(
        in range: Range<Int>, _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result
}

/// Bytes in memory, or mapped: read in place.
extension UnsafeRawBufferPointer: ZipByteSource {
    public func withBytes<Result, Failure: Error>(
        in range: Range<Int>, _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeRawBufferPointer(rebasing: self[range]))
    }
}
