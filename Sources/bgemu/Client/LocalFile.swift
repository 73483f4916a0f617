// Reading the files a command is given.
import Foundation

/// A file a command reads, or standard input for `-`.
enum LocalFile {
    /// The bytes of `path` (standard input's for `-` when `standardInput` allows it); a failure names the file as
    /// `what` (e.g. "the payload file") and says why.
    static func read(_ path: String, what: String, standardInput: Bool = true) throws -> [UInt8] {
        if standardInput, path == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
        do {
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw CommandFailure.local("cannot read \(what) \(path): \(error.localizedDescription)")
        }
    }
}
