import Testing
import ZIPFoundation
@testable import ZipArchive

/// Archives whose fields lie, each refused with the `ZipError` that says what is wrong, never read past.
struct DamagedArchiveTests {
    /// Three entries, "a" (1,000 bytes), "b" (24) and "c" (3), stored or deflated.
    func threeEntries(deflate: Bool) throws -> ArchivePatch {
        ArchivePatch(try ZIPFoundationWriter.zip([
            ("a", Array(repeating: 0x61, count: 1000)), ("b", Array("bbbbbbbbbbbbbbbbbbbbbbbb".utf8)), ("c", [1, 2, 3]),
        ], deflate: deflate))
    }

    @Test(arguments: [false, true])
    func aCRCMismatchIsRefused(deflate: Bool) throws {
        var patch = try threeEntries(deflate: deflate)
        let entry = patch.centralEntries[1]
        patch.set32(entry + ArchivePatch.Central.crc, patch.u32(entry + ArchivePatch.Central.crc) ^ 1)
        #expect(readingError(patch.bytes) == .crcMismatch)
    }

    @Test func aStoredByteChangedIsACRCMismatch() throws {
        var patch = try threeEntries(deflate: false)
        let data = Int(patch.u32(patch.centralEntries[1] + ArchivePatch.Central.localOffset)) + 30 + 1
        patch.bytes[data] ^= 0x20
        #expect(readingError(patch.bytes) == .crcMismatch)
    }

    @Test func aDeclaredSizeThatIsNotTheInflatedOneIsRefused() throws {
        for size: UInt32 in [999, 1001, 0] {
            var patch = try threeEntries(deflate: true)
            patch.set32(patch.centralEntries[0] + ArchivePatch.Central.uncompressedSize, size)
            #expect(readingError(patch.bytes) == .sizeMismatch, "\(size)")
        }
        var stored = try threeEntries(deflate: false)
        stored.set32(stored.centralEntries[2] + ArchivePatch.Central.uncompressedSize, 2)
        #expect(readingError(stored.bytes) == .sizeMismatch)
    }

    @Test func aDeflatedSizeBeyondDeflatesRatioIsRefusedBeforeAnyAllocation() throws {
        // 1,000 bytes of "a" deflate to a dozen; declared as 3 GB (no ZIP64 needed), with no limit asked.
        var patch = try threeEntries(deflate: true)
        patch.set32(patch.centralEntries[0] + ArchivePatch.Central.uncompressedSize, 3_000_000_000)
        #expect(readingError(patch.bytes, limit: .max) == .sizeMismatch)
        #expect(ZipReader<UnsafeRawBufferPointer>.mostInflated(from: 10) == 11_344)
        #expect(ZipReader<UnsafeRawBufferPointer>.mostInflated(from: .max / 1000) == .max)
    }

    @Test func aDeflateStreamCutShortOrDamagedIsRefused() throws {
        var short = try threeEntries(deflate: true)
        let entry = short.centralEntries[0]
        short.set32(entry + ArchivePatch.Central.compressedSize, short.u32(entry + ArchivePatch.Central.compressedSize) - 2)
        #expect(readingError(short.bytes) == .corruptData)
        var damaged = try threeEntries(deflate: true)
        // Block type 3 (reserved) in the first block's header.
        damaged.bytes[Int(damaged.u32(entry + ArchivePatch.Central.localOffset)) + 30 + 1] |= 0x06
        #expect(readingError(damaged.bytes) == .corruptData)
    }

    @Test func twoEntriesSharingDataAreRefused() throws {
        var patch = try threeEntries(deflate: true)
        let entries = patch.centralEntries
        patch.set32(entries[2] + ArchivePatch.Central.localOffset, patch.u32(entries[1] + ArchivePatch.Central.localOffset))
        #expect(readingError(patch.bytes) == .overlappingEntries)
        // Or one whose data runs into the next's local header.
        var longer = try threeEntries(deflate: false)
        let first = longer.centralEntries[0]
        longer.set32(first + ArchivePatch.Central.compressedSize, 1001)
        longer.set32(first + ArchivePatch.Central.uncompressedSize, 1001)
        #expect(readingError(longer.bytes) == .overlappingEntries)
    }

    @Test func offsetsOutsideTheArchiveOrIntoTheDirectoryAreRefused() throws {
        var past = try threeEntries(deflate: false)
        past.set32(past.centralEntries[2] + ArchivePatch.Central.localOffset, UInt32(past.bytes.count))
        #expect(readingError(past.bytes) == .outOfBounds("an entry's local header"))
        var into = try threeEntries(deflate: false)
        let directory = Int(into.u32(into.endRecord + 16))
        into.set32(into.centralEntries[2] + ArchivePatch.Central.localOffset, UInt32(directory - 10))
        #expect(readingError(into.bytes) == .outOfBounds("an entry's local header"))
        var wrong = try threeEntries(deflate: false)
        wrong.bytes[Int(wrong.u32(wrong.centralEntries[2] + ArchivePatch.Central.localOffset))] ^= 1
        #expect(readingError(wrong.bytes) == .badSignature("an entry's local header"))
        var directoryPast = try threeEntries(deflate: false)
        directoryPast.set32(directoryPast.endRecord + 16, UInt32(directory + 1))
        #expect(readingError(directoryPast.bytes) == .outOfBounds("the central directory"))
    }

    @Test func aCountThatIsNotTheDirectorysIsRefused() throws {
        var fewer = try threeEntries(deflate: false)
        fewer.set16(fewer.endRecord + 8, 2)
        fewer.set16(fewer.endRecord + 10, 2)
        #expect(readingError(fewer.bytes) == .malformed("the archive declares 2 entries but its central directory holds 3"))
        var impossible = try threeEntries(deflate: false)
        impossible.set16(impossible.endRecord + 8, 0xFFFE)
        impossible.set16(impossible.endRecord + 10, 0xFFFE)
        #expect(readingError(impossible.bytes)
            == .malformed("the archive declares more entries than its central directory can hold"))
    }

    @Test func encryptedEntriesAndOtherMethodsAreListedButNotRead() throws {
        var encrypted = try threeEntries(deflate: false)
        encrypted.set16(encrypted.centralEntries[1] + ArchivePatch.Central.flags, 1)
        #expect(readingError(encrypted.bytes) == .encrypted)
        var bzip2 = try threeEntries(deflate: false)
        bzip2.set16(bzip2.centralEntries[1] + ArchivePatch.Central.method, 12)
        #expect(readingError(bzip2.bytes) == .unsupportedMethod(12))
    }

    @Test func aZip64ValueWithoutItsExtraFieldIsRefused() throws {
        var patch = try threeEntries(deflate: false)
        patch.set32(patch.centralEntries[0] + ArchivePatch.Central.uncompressedSize, 0xFFFF_FFFF)
        #expect(readingError(patch.bytes) == .malformed("an entry declares a ZIP64 value that no ZIP64 extra field holds"))
        // An end record that defers to ZIP64 records that are not there.
        var end = try threeEntries(deflate: false)
        end.set32(end.endRecord + 16, 0xFFFF_FFFF)
        #expect(readingError(end.bytes) == .badSignature("the ZIP64 end of central directory locator"))
    }

    @Test func spannedArchivesAreRefused() throws {
        var patch = try threeEntries(deflate: false)
        patch.set16(patch.endRecord + 4, 1)
        #expect(readingError(patch.bytes) == .multipleDisks)
    }

    @Test func everyTruncationOfAnArchiveIsAnErrorOrAShorterReadNeverATrap() throws {
        let archive = try ArchiveFixtures.archive("ipa-zip64.zip")
        for count in 0..<archive.count {
            _ = readingError(Array(archive.prefix(count)))
        }
        // And every single-byte change of it.
        for index in archive.indices {
            var changed = archive
            changed[index] ^= 0xFF
            _ = readingError(changed)
        }
    }
}
