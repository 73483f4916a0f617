import Foundation
import ZIPFoundation

/// Archives written in memory by ZIPFoundation (the library the service read with before): what our reader reads
/// must be what ZIPFoundation wrote.
enum ZIPFoundationWriter {
    static func zip(_ entries: [(String, [UInt8])], deflate: Bool) throws -> [UInt8] {
        let archive = try Archive(data: Data(), accessMode: .create)
        for (path, bytes) in entries {
            let data = Data(bytes)
            if path.hasSuffix("/") {
                try archive.addEntry(with: path, type: .directory, uncompressedSize: Int64(0)) { _, _ in Data() }
                continue
            }
            try archive.addEntry(
                with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: deflate ? .deflate : .none
            ) { position, size in data.subdata(in: Int(position)..<Int(position) + size) }
        }
        return Array(archive.data ?? Data())
    }

    /// An `.ipa` as Xcode exports one, around a real project's Info.plist (as binary).
    static func ipa(plist: String, deflate: Bool) throws -> (archive: [UInt8], plist: [UInt8]) {
        let xml = try ArchiveFixtures.realPlist(plist)
        let object = try PropertyListSerialization.propertyList(from: Data(xml), format: nil)
        let binary = Array(try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0))
        let small = Array(try PropertyListSerialization.data(
            fromPropertyList: ["CFBundleIdentifier": "org.example.part"], format: .binary, options: 0))
        var executable = [UInt8](repeating: 0, count: 200_000)
        var state: UInt32 = 2_463_534_242
        for index in executable.indices where index % 3 == 0 {
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            executable[index] = UInt8(truncatingIfNeeded: state)
        }
        let archive = try zip([
            ("Payload/", []), ("Payload/App.app/", []), ("Payload/App.app/Info.plist", binary), ("Payload/App.app/App", executable),
            ("Payload/App.app/Frameworks/Kit.framework/Info.plist", small),
            ("Payload/App.app/Frameworks/Kit.framework/Kit", Array(executable.prefix(50_000))),
            ("Payload/App.app/PlugIns/Widget.appex/Info.plist", small),
            ("Payload/App.app/PlugIns/Widget.appex/Widget", Array(executable.suffix(20_000))),
            ("Payload/App.app/_CodeSignature/CodeResources", Array("<plist/>".utf8)),
        ], deflate: deflate)
        return (archive, binary)
    }
}
