import Foundation

/// The body `bgemu install` uploads for a path, and its content type, told from the bytes first (a zip's
/// `PK\u{3}\u{4}`, a binary plist's `bplist00`, XML's `<`, JSON's `{`) and from the name only when the bytes say
/// nothing.
struct UploadFile {
    var bytes: [UInt8]
    var contentType: String

    static let plist = "application/x-plist"
    static let zip = "application/zip"
    static let json = "application/json"

    init(path: String) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw CommandFailure.local("no such file: \(path)")
        }
        if isFolder.boolValue {
            // An app bundle folder (NAME.app): its Info.plist describes it.
            let infoPlist = URL(fileURLWithPath: path).appendingPathComponent("Info.plist")
            guard let data = try? Data(contentsOf: infoPlist) else {
                throw CommandFailure.local("\(path) is a folder without an Info.plist; give an Info.plist, .ipa or .app.zip")
            }
            bytes = Array(data)
            contentType = Self.plist
            return
        }
        bytes = try LocalFile.read(path, what: "the app", standardInput: false)
        guard let type = Self.contentType(of: bytes, name: path) else {
            throw CommandFailure.local(
                "cannot tell what \(path) is: give an Info.plist (XML or binary), an .ipa, a zipped .app or a JSON installation body")
        }
        contentType = type
    }

    /// The content type of `bytes`, by their first bytes, else by `name`'s extension; nil when neither tells.
    static func contentType(of bytes: [UInt8], name: String) -> String? {
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) || bytes.starts(with: [0x50, 0x4B, 0x05, 0x06]) { return zip }
        if bytes.starts(with: Array("bplist00".utf8)) { return plist }
        let unmarked = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]  // a UTF-8 BOM
        let text = unmarked.drop(while: { [0x20, 0x09, 0x0A, 0x0D].contains($0) })
        if text.first == UInt8(ascii: "<") { return plist }
        if text.first == UInt8(ascii: "{") { return json }
        let lowered = name.lowercased()
        if lowered.hasSuffix(".plist") { return plist }
        if lowered.hasSuffix(".ipa") || lowered.hasSuffix(".zip") { return zip }
        if lowered.hasSuffix(".json") { return json }
        return nil
    }
}
