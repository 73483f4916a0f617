import Foundation
import Testing
@testable import Emulation

/// Binary plists are checked before Foundation reads them: real apps' Info.plists pass untouched, and a plist holding
/// a set (which crashed the whole service: Foundation's parser dies of a null pointer on it) or any other kind an
/// Info.plist never holds is refused as an invalid Info.plist.
struct BinaryPropertyListCheckTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: fixtures.appendingPathComponent(path)))
    }

    static let realBinaryPlists = [
        "element-ios", "firefox-ios", "home-assistant-ios", "loop", "mastodon-ios", "mullvad-ios", "netnewswire-ios",
        "signal-ios", "vlc-ios", "wordpress-ios",
    ].map { "Fuzz/InfoPlist/corpus/\($0)-Info.bplist" }

    @Test(arguments: realBinaryPlists)
    func realAppsBinaryInfoPlistsPassTheCheckAndReadAsTheirXML(path: String) throws {
        let binary = try Self.bytes(path)
        #expect(BinaryPropertyListCheck.problem(binary) == nil)
        let xml = try Self.bytes("Fixtures/RealProjects/" + path.split(separator: "/").last!.replacingOccurrences(of: ".bplist", with: ".plist"))
        let settings = BuildSettings([BuildSettings.Level(source: "test", values: ["PRODUCT_BUNDLE_IDENTIFIER": "org.example.app"])])
        #expect(Self.outcome(binary, settings) == Self.outcome(xml, settings))
    }

    @Test(arguments: ["set-in-binary-plist.bplist", "fuzzer-found-set.bplist"])
    func aBinaryPlistHoldingASetIsRefusedNotParsed(name: String) throws {
        let bytes = try Self.bytes("Fixtures/PlistCrashes/\(name)")
        #expect(BinaryPropertyListCheck.problem(bytes) == "holds a set, which an Info.plist never does")
        #expect(throws: EmulationError.invalid([FieldIssue(
            "Info.plist", "is not a property list (XML or binary): it holds a set, which an Info.plist never does")])) {
            try InfoPlist.parse(bytes)
        }
    }

    @Test func kindsAnInfoPlistNeverHoldsAreRefused() throws {
        // One key, so that the objects' order does not follow the hashing of a dictionary's keys (seeded anew in
        // every process): the dictionary, its key, the array and the array's string, in that order.
        let plist = Array(try PropertyListSerialization.data(
            fromPropertyList: ["A": ["b", "c", "d", "e", "f", "g", "h", "i", "j", "k"]], format: .binary, options: 0))
        let array = try #require(plist.firstIndex(of: 0xAA))
        for (marker, problem) in [
            (UInt8(0x81), "has an object of a kind an Info.plist never holds (marker 129)"), (0x00, "has a null or fill object"),
            (0xAE, "refers to an object it does not list"), (0xAF, "has an array or dictionary that runs past its object table"),
        ] {
            var changed = plist
            changed[array] = marker
            #expect(BinaryPropertyListCheck.problem(changed) == problem, "\(marker)")
        }
        #expect(BinaryPropertyListCheck.problem(Array("bplist01".utf8) + plist.dropFirst(8)) == "has an unknown binary plist version")
        #expect(BinaryPropertyListCheck.problem(Array(plist.prefix(40))) == "is too short for a binary plist")
    }

    @Test func aDictionaryKeyThatIsNotAStringIsRefused() throws {
        // {1: "x"}, written by hand: a dictionary of one pair whose key is the integer 1.
        let objects: [[UInt8]] = [[0xD1, 1, 2], [0x10, 1], [0x51, 0x78]]
        var plist = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(plist.count))
            plist += object
        }
        let table = plist.count
        plist += offsets + [0, 0, 0, 0, 0, 0, 1, 1] + bigEndian(3) + bigEndian(0) + bigEndian(UInt64(table))
        #expect(BinaryPropertyListCheck.problem(plist) == "has a dictionary key that is not a string")
        plist[8 + 3] = 0x51  // the key becomes the one-character string "\u{1}"
        plist[8 + 4] = 0x31
        #expect(BinaryPropertyListCheck.problem(plist) == nil)
    }

    @Test func everyTruncationAndByteChangeOfARealBinaryPlistIsCheckedWithoutATrap() throws {
        let plist = try Self.bytes(Self.realBinaryPlists[3])
        for count in 0..<plist.count { _ = BinaryPropertyListCheck.problem(Array(plist.prefix(count))) }
        for index in plist.indices {
            for flip: UInt8 in [0x01, 0x80, 0xFF] {
                var changed = plist
                changed[index] ^= flip
                _ = BinaryPropertyListCheck.problem(changed)
            }
        }
    }

    /// What `InfoPlist.parse` makes of `bytes`: the plist read, or the error.
    static func outcome(_ bytes: [UInt8], _ settings: BuildSettings) -> String {
        do { return "\(try InfoPlist.parse(bytes, settings: settings))" } catch { return "\(error)" }
    }

    private func bigEndian(_ value: UInt64) -> [UInt8] { (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) } }
}
