import Emulation
import HTTPServer
import ZipArchive

/// A built app uploaded as a zip: an `.ipa` (`Payload/NAME.app/…`) or a zipped `NAME.app` folder. Only its
/// `Info.plist` is read, and only after the archive has been checked: a bounded number of entries, a bounded
/// uncompressed size (so a zip bomb is refused before anything is inflated), no entry path that climbs out
/// of the archive (`../x`, `/etc/x`), and an `Info.plist` inflated under its own bound whatever its header says.
/// The archive is read in place by `ZipReader`, which checks every size, offset and count it declares before use
/// and looks for its end record only in its last 65,557 bytes: whatever the bytes, an answer or a refusal.
enum AppArchive {
    static let maximumEntries = 100_000
    /// The most bytes the entries may inflate to, by their headers.
    static let maximumUncompressedSize: UInt64 = 8 << 30
    /// The most bytes an `Info.plist` may inflate to.
    static let maximumInfoPlistSize = 1 << 20

    /// Whether `bytes` start like a zip archive (a local file header, or the end record of an empty one).
    static func looksLikeZip(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { looksLikeZip($0) }
    }

    /// Whether `buffer` starts like a zip archive (a local file header, or the end record of an empty one).
    static func looksLikeZip(_ buffer: UnsafeRawBufferPointer) -> Bool {
        buffer.starts(with: [0x50, 0x4B, 0x03, 0x04]) || buffer.starts(with: [0x50, 0x4B, 0x05, 0x06])
    }

    /// The bytes of the app's `Info.plist`; `EmulationError.invalid` on field `archive` says what is wrong.
    static func infoPlist(in bytes: [UInt8]) throws -> [UInt8] {
        try bytes.withUnsafeBytes { try infoPlist(in: $0) }
    }

    /// The bytes of the app's `Info.plist`, read from `buffer` in place (an upload in memory or mapped from its
    /// spooled file); `EmulationError.invalid` on field `archive` says what is wrong.
    static func infoPlist(in buffer: UnsafeRawBufferPointer) throws -> [UInt8] {
        let archive: ZipReader<UnsafeRawBufferPointer>
        do {
            archive = try ZipReader(buffer)
        } catch .notAZip {
            throw refused("is not a zip archive (an .ipa or a zipped .app was expected)")
        } catch {
            throw damaged(error)
        }
        let entry = try appInfoPlist(in: archive)
        if entry.uncompressedSize > UInt64(maximumInfoPlistSize) {
            throw refused("has an Info.plist larger than \(maximumInfoPlistSize >> 20) MiB")
        }
        do {
            return try archive.contents(of: entry, limit: maximumInfoPlistSize)
        } catch .sizeMismatch {
            throw refused("has an Info.plist that does not inflate to the size it declares (a damaged archive)")
        } catch .encrypted {
            throw refused("has an encrypted Info.plist")
        } catch .unsupportedMethod(let method) {
            throw refused("has an Info.plist compressed with method \(method); only stored (0) and deflate (8) are read")
        } catch {
            throw refused("has an Info.plist that cannot be inflated (a damaged archive: \(error))")
        }
    }

    /// The entry of the app's own `Info.plist`, after every entry has been checked. Of the candidates, only the
    /// first few at the shallowest depth are kept (to name them when there are several apps), so memory stays
    /// bounded whatever the directory holds.
    private static func appInfoPlist(in archive: ZipReader<UnsafeRawBufferPointer>) throws -> ZipEntry {
        var entries = archive.entries(maximumCount: maximumEntries)
        var total: UInt64 = 0
        var shallowest = Candidates()
        // 100,000 entries are some 0.3 s: on the heavy-work pool, its processor is given back every 1,024.
        let yields = CooperativeYield.isLowPriorityThread()
        var read = 0
        do {
            while let entry = try entries.next() {
                read += 1
                if yields, read % 1024 == 0 { CooperativeYield.now() }
                let path = entry.path
                if let problem = unsafePath(path) { throw refused("has an entry \(quoted(path)) \(problem)") }
                let (sum, overflow) = total.addingReportingOverflow(entry.uncompressedSize)
                if overflow || sum > maximumUncompressedSize {
                    throw refused("would inflate to more than \(maximumUncompressedSize >> 30) GiB (a zip bomb?)")
                }
                total = sum
                if entry.isFile, isAppInfoPlist(path) { shallowest.add(entry, depth: depth(path)) }
            }
        } catch ZipError.tooManyEntries {
            throw refused("has more than \(maximumEntries) entries")
        } catch let error as ZipError {
            throw damaged(error)
        }
        guard let entry = shallowest.kept.first else {
            throw refused("holds no app: expected Payload/NAME.app/Info.plist (an .ipa) or NAME.app/Info.plist")
        }
        guard shallowest.count == 1 else {
            var names = shallowest.kept.map { quoted(String($0.path.dropLast("/Info.plist".count))) }
            if shallowest.count > names.count { names.append("and \(shallowest.count - names.count) more") }
            throw refused("holds several apps (\(names.joined(separator: ", "))); upload one")
        }
        return entry
    }

    /// The app Info.plists at the shallowest depth seen: how many, and the first few.
    private struct Candidates {
        static let named = 5
        var depth = Int.max
        var count = 0
        var kept: [ZipEntry] = []

        mutating func add(_ entry: ZipEntry, depth: Int) {
            if depth < self.depth { (self.depth, count, kept) = (depth, 0, []) }
            guard depth == self.depth else { return }
            count += 1
            if kept.count < Self.named { kept.append(entry) }
        }
    }

    private static func quoted(_ text: String) -> String { "\"\(text.prefix(200))\"" }

    private static func damaged(_ error: ZipError) -> EmulationError {
        refused("is a damaged zip archive: \(error)")
    }

    private static func refused(_ problem: String) -> EmulationError {
        EmulationError.invalid([FieldIssue("archive", "the upload " + problem)])
    }
}
