import Testing
import ZipArchive

/// The archives of issue 26 that crashed the service (an arithmetic overflow or a conversion trap, in AppArchive's sum
/// and in ZIPFoundation 0.9.20): each is read to a `ZipError`, or its huge declared size is reported as it is.
struct CrashFixtureTests {
    @Test func anOffsetOrCompressedSizeNearTwoToTheSixtyFourIsOutOfBounds() throws {
        #expect(readingError(try ArchiveFixtures.crash("data-descriptor-compressed-size-max.zip"))
            == .outOfBounds("an entry's data"))
        #expect(readingError(try ArchiveFixtures.crash("info-plist-compressed-size-2pow63.zip"))
            == .outOfBounds("an entry's data"))
        #expect(readingError(try ArchiveFixtures.crash("local-header-offset-max.zip"))
            == .outOfBounds("an entry's local header"))
    }

    @Test func anUncompressedSizeOfTwoToTheSixtyFourMinusOneIsListedAsDeclaredAndNotInflated() throws {
        let bytes = try ArchiveFixtures.crash("zip64-uncompressed-size-max.zip")
        try bytes.withUnsafeBytes { buffer in
            let reader = try ZipReader(buffer)
            var cursor = reader.entries()
            var entries: [ZipEntry] = []
            while let entry = try cursor.next() { entries.append(entry) }
            #expect(entries.map(\.path) == ["Payload/Crash.app/Info.plist", "Payload/Crash.app/Crash"])
            #expect(entries.last?.uncompressedSize == .max)
            #expect(throws: ZipError.tooLarge(limit: 1 << 20)) { try reader.contents(of: entries[1], limit: 1 << 20) }
            // Asked with no limit at all, still an error, not a trap or a 2^64-byte allocation.
            #expect(throws: ZipError.tooLarge(limit: .max)) { try reader.contents(of: entries[1], limit: .max) }
            #expect(try reader.contents(of: entries[0], limit: 1 << 20).starts(with: Array("bplist00".utf8)))
        }
    }

    @Test func everyCrashFixtureIsSmallAndAnIPA() throws {
        for name in ArchiveFixtures.crashes {
            let bytes = try ArchiveFixtures.crash(name)
            #expect(bytes.count < 600, "\(name)")
            #expect(bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]), "\(name)")
        }
    }
}
