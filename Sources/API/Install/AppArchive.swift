import Emulation
import Foundation
import ZIPFoundation

/// A built app uploaded as a zip: an `.ipa` (`Payload/NAME.app/…`) or a zipped `NAME.app` folder. Only its
/// `Info.plist` is read, and only after the archive has been checked: a bounded number of entries, a bounded
/// uncompressed size (so a zip bomb is refused before anything is inflated), no entry path that climbs out
/// of the archive (`../x`, `/etc/x`), and an `Info.plist` inflated under its own bound whatever its header says.
enum AppArchive {
    static let maximumEntries = 100_000
    /// The most bytes the entries may inflate to, by their headers.
    static let maximumUncompressedSize: UInt64 = 8 << 30
    /// The most bytes an `Info.plist` may inflate to.
    static let maximumInfoPlistSize = 1 << 20

    /// Whether `bytes` start like a zip archive (a local file header, or the end record of an empty one).
    static func looksLikeZip(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06])
    }

    /// The bytes of the app's `Info.plist`; `EmulationError.invalid` on field `archive` says what is wrong.
    static func infoPlist(in bytes: [UInt8]) throws -> [UInt8] {
        let archive: Archive
        do {
            archive = try Archive(data: Data(bytes), accessMode: .read)
        } catch {
            throw refused("is not a zip archive (an .ipa or a zipped .app was expected)")
        }
        var count = 0
        var total: UInt64 = 0
        var candidates: [Entry] = []
        for entry in archive {
            count += 1
            if count > maximumEntries { throw refused("has more than \(maximumEntries) entries") }
            let path = entry.path
            if let problem = unsafePath(path) { throw refused("has an entry \(quoted(path)) \(problem)") }
            total += entry.uncompressedSize
            if total > maximumUncompressedSize {
                throw refused("would inflate to more than \(maximumUncompressedSize >> 30) GiB (a zip bomb?)")
            }
            if entry.type == .file, isAppInfoPlist(path) { candidates.append(entry) }
        }
        guard let shallowest = candidates.map({ depth($0.path) }).min() else {
            throw refused("holds no app: expected Payload/NAME.app/Info.plist (an .ipa) or NAME.app/Info.plist")
        }
        let apps = candidates.filter { depth($0.path) == shallowest }
        guard apps.count == 1, let entry = apps.first else {
            let names = apps.map { quoted(String($0.path.dropLast("/Info.plist".count))) }.joined(separator: ", ")
            throw refused("holds several apps (\(names)); upload one")
        }
        if entry.uncompressedSize > UInt64(maximumInfoPlistSize) {
            throw refused("has an Info.plist larger than \(maximumInfoPlistSize >> 20) MiB")
        }
        var plist: [UInt8] = []
        do {
            _ = try archive.extract(entry, skipCRC32: false) { chunk in
                plist += chunk
                if plist.count > maximumInfoPlistSize { throw ArchiveLimit.infoPlistTooLarge }
            }
        } catch ArchiveLimit.infoPlistTooLarge {
            throw refused("has an Info.plist that inflates past \(maximumInfoPlistSize >> 20) MiB")
        } catch {
            throw refused("has an Info.plist that cannot be inflated (a damaged archive)")
        }
        return plist
    }

    private enum ArchiveLimit: Error { case infoPlistTooLarge }

    /// Why a path may not be in an archive (absolute, climbing with `..`, or holding a NUL), or nil.
    static func unsafePath(_ path: String) -> String? {
        if path.hasPrefix("/") || path.hasPrefix("\\") { return "is absolute" }
        if path.utf8.contains(0) { return "holds a NUL byte" }
        let components = path.split(whereSeparator: { $0 == "/" || $0 == "\\" })
        if components.contains("..") { return "climbs out of the archive (..)" }
        return nil
    }

    /// `NAME.app/Info.plist` at the end of a path not inside macOS's resource forks (`__MACOSX/`), nor inside an
    /// extension, a framework or another app (`X.app/PlugIns/Y.appex/Info.plist`, `X.app/Watch/W.app/Info.plist`).
    static func isAppInfoPlist(_ path: String) -> Bool {
        let components = path.split(separator: "/")
        guard components.count >= 2, components.last == "Info.plist", components[components.count - 2].hasSuffix(".app"),
              components.first != "__MACOSX"
        else { return false }
        return !components.dropLast(2).contains { $0.hasSuffix(".app") || $0.hasSuffix(".appex") || $0.hasSuffix(".framework") }
    }

    private static func depth(_ path: String) -> Int { path.split(separator: "/").count }

    private static func quoted(_ text: String) -> String { "\"\(text.prefix(200))\"" }

    private static func refused(_ problem: String) -> EmulationError {
        EmulationError.invalid([FieldIssue("archive", "the upload " + problem)])
    }
}
