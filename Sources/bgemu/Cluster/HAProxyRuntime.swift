import Foundation
import Glibc

/// HAProxy's runtime API on its stats socket (`stats socket … level admin` in `deploy/haproxy/haproxy.cfg`): one
/// command per connection, its answer read to the close. Used to change the tenant → shard map of a running proxy
/// without a reload (HAProxy management guide, "set map", "add map").
struct HAProxyRuntime {
    /// The socket's path.
    var path: String

    /// Sends `command` and answers what HAProxy printed (empty for a command that succeeded silently).
    func send(_ command: String) throws -> String {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw CommandFailure.local("cannot open a socket for HAProxy's runtime API: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw CommandFailure.local("the HAProxy socket path \(path) is too long for a Unix socket")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.enumerated() { raw[i] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            throw CommandFailure.local("cannot reach HAProxy's runtime API at \(path): \(String(cString: strerror(errno)))")
        }
        let line = Array((command + "\n").utf8)
        var sent = 0
        while sent < line.count {
            let n = line[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw CommandFailure.local("HAProxy's runtime API at \(path) closed before the command was sent") }
            sent += n
        }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            answer += chunk[..<n]
        }
        return String(decoding: answer, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Maps `key` to `value` in the running proxy's map `mapPath`: `set map` when the key is there, else `add map`.
    func place(_ key: String, _ value: String, inMap mapPath: String) throws {
        let set = try send("set map \(mapPath) \(key) \(value)")
        if set.isEmpty { return }
        guard set.lowercased().contains("not found") else {
            throw CommandFailure.local("HAProxy refused `set map \(mapPath) \(key) \(value)`: \(set)")
        }
        let add = try send("add map \(mapPath) \(key) \(value)")
        guard add.isEmpty else { throw CommandFailure.local("HAProxy refused `add map \(mapPath) \(key) \(value)`: \(add)") }
    }

    /// The value `key` has in the running proxy's map `mapPath`, nil when it has none.
    func value(of key: String, inMap mapPath: String) throws -> String? {
        // `get map` answers `type=str, case=sensitive, found=yes, idx=tree, key="…", value="…"` (or found=no).
        let answer = try send("get map \(mapPath) \(key)")
        guard answer.contains("found=yes"), let range = answer.range(of: "value=\"") else { return nil }
        return String(answer[range.upperBound...].prefix { $0 != "\"" })
    }
}
