import Foundation

/// The tenant → shard map file HAProxy reads at start and on reload (`BGEMU_TENANT_MAP` in
/// `deploy/haproxy/haproxy.cfg`): one `TENANT_ID SHARD_ID` line per tenant, `#` comments. Changed by rewriting it
/// whole into a temporary file beside it and renaming that over it, so that a reload never reads half a file.
struct TenantMapFile {
    var path: String

    /// The line that maps `tenantId` to `shardId`.
    static func line(tenantId: String, shardId: String) -> String { "\(tenantId) \(shardId)" }

    /// The shard of every tenant in the file.
    func entries() throws -> [(tenantId: String, shardId: String)] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).compactMap { line in
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2, !fields[0].hasPrefix("#") else { return nil }
            return (String(fields[0]), String(fields[1]))
        }
    }

    /// Maps `tenantId` to `shardId`: its line replaced in place, or appended; comments and other lines kept.
    func place(tenantId: String, shardId: String) throws {
        let existing = FileManager.default.fileExists(atPath: path) ? try String(contentsOfFile: path, encoding: .utf8) : ""
        var lines = existing.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        let entry = Self.line(tenantId: tenantId, shardId: shardId)
        if let index = lines.firstIndex(where: { $0.split(separator: " ").first.map(String.init) == tenantId }) {
            lines[index] = entry
        } else {
            lines.append(entry)
        }
        try write(lines.joined(separator: "\n") + "\n")
    }

    /// Removes `tenantId`'s line, if any.
    func remove(tenantId: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        try write(lines.filter { $0.split(separator: " ").first.map(String.init) != tenantId }.joined(separator: "\n") + "\n")
    }

    private func write(_ text: String) throws {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        try Data(text.utf8).write(to: temporary)
        if rename(temporary.path, path) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw CommandFailure.local("cannot replace the map file \(path): \(reason)")
        }
    }
}
