import Foundation
import Testing
import ZIPFoundation
import ZipArchive

/// Well-formed archives read as their writers wrote them: `.ipa`-shaped ones from ZIPFoundation (stored and deflate),
/// from Info-ZIP's `zip -fz` (ZIP64), and from the fixtures' generator (ZIP64 end records, data descriptors).
struct ZipReaderTests {
    @Test(arguments: [false, true])
    func anIPAWrittenByZIPFoundationReadsEntryForEntry(deflate: Bool) throws {
        let (archive, plist) = try ZIPFoundationWriter.ipa(plist: "netnewswire-ios-Info.plist", deflate: deflate)
        let read = try readWhole(archive)
        #expect(read.count == 9)
        #expect(read.first { $0.entry.path == "Payload/App.app/Info.plist" }?.contents == plist)
        // Every entry ZIPFoundation lists is one of ours, byte for byte.
        let theirs = try Archive(data: Data(archive), accessMode: .read)
        for entry in theirs where entry.type == .file {
            var bytes = Data()
            _ = try theirs.extract(entry) { bytes.append($0) }
            #expect(read.first { $0.entry.path == entry.path }?.contents == Array(bytes), "\(entry.path)")
        }
        #expect(read.filter(\.entry.isDirectory).map(\.entry.path) == ["Payload/", "Payload/App.app/"])
        #expect(read.allSatisfy { $0.entry.method == ($0.entry.isDirectory ? 0 : (deflate ? 8 : 0)) })
    }

    @Test func infoZIPsZip64ArchiveReads() throws {
        let read = try readWhole(try ArchiveFixtures.archive("infozip-zip64.zip"))
        #expect(read.count == 11)
        #expect(read.first { $0.entry.path == "Payload/A.app/Info.plist" }?.contents
            == (try ArchiveFixtures.realPlist("loop-Info.plist")))
        #expect(read.first { $0.entry.path == "Payload/A.app/A" }?.contents == [UInt8](repeating: 0x78, count: 3000))
        #expect(try readWhole(try ArchiveFixtures.archive("infozip-streamed.zip")).first?.contents
            == (try ArchiveFixtures.realPlist("loop-Info.plist")))
    }

    @Test(arguments: ["ipa-deflate.zip", "ipa-stored.zip", "ipa-zip64.zip", "ipa-data-descriptor.zip"])
    func generatedIPAsReadWithTheirRealInfoPlist(name: String) throws {
        let read = try readWhole(try ArchiveFixtures.archive(name))
        #expect(read.map(\.entry.path) == [
            "Payload/", "Payload/App.app/Info.plist", "Payload/App.app/App", "Payload/App.app/Frameworks/Kit.framework/Info.plist",
            "Payload/App.app/Frameworks/Kit.framework/Kit", "Payload/App.app/PlugIns/Widget.appex/Info.plist",
        ])
        let plist = try #require(read[1].contents)
        let object = try PropertyListSerialization.propertyList(from: Data(plist), format: nil) as? [String: Any]
        #expect(object?["CFBundleIdentifier"] != nil)
    }

    @Test func anEmptyArchiveAndACommentedOneRead() throws {
        #expect(try readWhole(try ArchiveFixtures.archive("empty.zip")).isEmpty)
        #expect(try readWhole(try ArchiveFixtures.archive("app-folder-comment.zip")).map(\.entry.path) == ["Sky.app/Info.plist"])
    }

    @Test func entriesKnowFoldersFilesAndSymbolicLinks() throws {
        var patch = ArchivePatch(try ZIPFoundationWriter.zip([("a/", []), ("a/b", [1]), ("a/link", Array("b".utf8))], deflate: false))
        // Made on Unix (3), mode 0o120777: a symbolic link.
        let link = patch.centralEntries[2]
        patch.set16(link + 4, 3 << 8 | 20)
        patch.set32(link + 38, 0o120777 << 16)
        let entries = try readWhole(patch.bytes).map(\.entry)
        #expect(entries.map(\.isDirectory) == [true, false, false])
        #expect(entries.map(\.isSymbolicLink) == [false, false, true])
        #expect(entries.map(\.isFile) == [false, true, false])
    }

    @Test func aFileLargerThanTheLimitIsNotInflated() throws {
        let archive = try ZIPFoundationWriter.zip([("big", [UInt8](repeating: 7, count: 2 << 20))], deflate: true)
        #expect(archive.count < 64 << 10)
        #expect(readingError(archive, limit: 1 << 20) == .tooLarge(limit: 1 << 20))
        #expect(try readWhole(archive, limit: 2 << 20).first?.contents?.count == 2 << 20)
    }

    @Test func theCountOfEntriesIsBounded() throws {
        let archive = try ZIPFoundationWriter.zip([("a", [1]), ("b", [2]), ("c", [3])], deflate: false)
        try archive.withUnsafeBytes { buffer in
            var two = try ZipReader(buffer).entries(maximumCount: 2)
            _ = try two.next()
            _ = try two.next()
            #expect(throws: ZipError.tooManyEntries(2)) { try two.next() }
            var three = try ZipReader(buffer).entries(maximumCount: 3)
            for _ in 0..<3 { _ = try three.next() }
            #expect(try three.next() == nil)
        }
    }
}
