import Testing
import ZipArchive

/// The end of central directory record is looked for only in the last 22 + 65,535 bytes (the record and the longest
/// comment): deciding that a large body is not a zip reads 65,557 bytes of it, whatever its size.
struct EndRecordSearchTests {
    static let window = 65_557

    @Test func aGigabyteThatIsNotAZipIsRefusedFromItsLast65557Bytes() {
        let source = CountingSource(count: 1 << 30, filler: 0x41)
        #expect(throws: ZipError.notAZip) { try ZipReader(source) }
        #expect(source.lowestOffsetRead == (1 << 30) - Self.window)
        #expect(source.bytesRead == Self.window)
    }

    @Test func bytesFullOfZipSignaturesAreStillReadOnlyAtTheEnd() {
        // "PK\5\6" everywhere, each followed by a comment length that does not fit: never a record.
        var bytes: [UInt8] = []
        while bytes.count < 300_000 { bytes += [0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0xFF, count: 18) }
        let source = CountingSource(bytes)
        #expect(throws: ZipError.notAZip) { try ZipReader(source) }
        #expect(source.lowestOffsetRead == bytes.count - Self.window)
    }

    @Test func aZipWithTheLongestCommentIsFoundAtTheStartOfTheWindow() throws {
        // An .ipa of 270 KB stored, then its directory, its end record and a 65,535-byte comment.
        let (archive, _) = try ZIPFoundationWriter.ipa(plist: "loop-Info.plist", deflate: false)
        var patch = ArchivePatch(archive)
        patch.set16(patch.endRecord + 20, 0xFFFF)
        let bytes = patch.bytes + [UInt8](repeating: 0x20, count: 0xFFFF)
        let source = CountingSource(bytes)
        let reader = try ZipReader(source)
        #expect(source.lowestOffsetRead == bytes.count - Self.window)
        #expect(source.bytesRead == Self.window)
        #expect(reader.declaredEntryCount == 9)
        #expect(try readWhole(bytes).count == 9)
    }

    @Test func anEndRecordFollowedByMoreThanTheLongestCommentIsNotFound() throws {
        let archive = try ArchiveFixtures.archive("ipa-deflate.zip")
        #expect(readingError(archive + [UInt8](repeating: 0, count: 0xFFFF)) == nil)
        #expect(readingError(archive + [UInt8](repeating: 0, count: 0x10000)) == .notAZip)
    }

    @Test func inputsShorterThanAnEndRecordAreNotZips() {
        for count in 0..<22 {
            #expect(readingError(Array([0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)).prefix(count).map { $0 })
                == .notAZip)
        }
        #expect(readingError([0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)) == nil)
    }
}
