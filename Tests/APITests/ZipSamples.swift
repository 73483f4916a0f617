import Foundation
import ZIPFoundation

/// Zip archives written by ZIPFoundation in memory: `.ipa`s and zipped `.app` folders as Xcode and Finder make them.
enum ZipSamples {
    /// An archive of `entries` (path, bytes), each deflated.
    static func zip(_ entries: [(String, [UInt8])]) throws -> [UInt8] {
        let archive = try Archive(data: Data(), accessMode: .create)
        for (path, bytes) in entries {
            let data = Data(bytes)
            try archive.addEntry(
                with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate
            ) { position, size in data.subdata(in: Int(position)..<Int(position) + size) }
        }
        return Array(archive.data ?? Data())
    }

    /// A binary `Info.plist`, as a built app holds it.
    static func plist(_ dict: [String: Any]) throws -> [UInt8] {
        Array(try PropertyListSerialization.data(fromPropertyList: dict, format: .binary, options: 0))
    }

    /// Every central directory entry's uncompressed size set to `size` (as a lying archive would declare).
    static func declaringUncompressedSize(_ zip: [UInt8], _ size: UInt32) -> [UInt8] {
        var bytes = zip
        var i = 0
        while i + 28 <= bytes.count {
            if bytes[i] == 0x50, bytes[i + 1] == 0x4B, bytes[i + 2] == 0x01, bytes[i + 3] == 0x02 {
                for k in 0..<4 { bytes[i + 24 + k] = UInt8((size >> (8 * UInt32(k))) & 0xFF) }
                i += 46
            } else {
                i += 1
            }
        }
        return bytes
    }
}
