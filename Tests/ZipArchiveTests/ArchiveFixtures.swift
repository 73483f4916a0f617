import Foundation
import ZipArchive

/// The archive fixtures in `Tests/Fixtures` (written by `Tests/Fixtures/ArchiveCrashes/generate.py`, or by Info-ZIP's
/// `zip`), and a way to read one whole.
enum ArchiveFixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// The archives that crashed the old reader (issue 26).
    static let crashes = [
        "zip64-uncompressed-size-max.zip", "data-descriptor-compressed-size-max.zip",
        "info-plist-compressed-size-2pow63.zip", "local-header-offset-max.zip",
    ]

    static func crash(_ name: String) throws -> [UInt8] { try bytes("ArchiveCrashes/\(name)") }

    static func archive(_ name: String) throws -> [UInt8] { try bytes("Archives/\(name)") }

    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent(path)))
    }

    /// A real project's Info.plist, as its repository has it (XML).
    static func realPlist(_ name: String) throws -> [UInt8] { try bytes("RealProjects/\(name)") }
}

/// Every entry of `bytes` and, for the files among them, their contents (up to `limit` each), or the first error.
func readWhole(_ bytes: [UInt8], limit: Int = 1 << 20) throws(ZipError) -> [(entry: ZipEntry, contents: [UInt8]?)] {
    let result = bytes.withUnsafeBytes { buffer in
        Result { () throws(ZipError) -> [(entry: ZipEntry, contents: [UInt8]?)] in
            let reader = try ZipReader(buffer)
            var cursor = reader.entries()
            var entries: [ZipEntry] = []
            while let entry = try cursor.next() { entries.append(entry) }
            var read: [(entry: ZipEntry, contents: [UInt8]?)] = []
            for entry in entries {
                read.append((entry, entry.isDirectory ? nil : try reader.contents(of: entry, limit: limit)))
            }
            return read
        }
    }
    return try result.get()
}

/// The first error reading `bytes` whole, or nil when it reads.
func readingError(_ bytes: [UInt8], limit: Int = 1 << 20) -> ZipError? {
    do {
        _ = try readWhole(bytes, limit: limit)
        return nil
    } catch {
        return error
    }
}
