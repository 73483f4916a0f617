import ArgumentParser
import Foundation

/// Where a tenant's placement on a shard is written: HAProxy's tenant → shard map file (kept for reloads) and
/// the runtime API of each HAProxy replica (the running proxies, at once). Neither given: the map line is only
/// printed.
struct TenantPlacementOptions: ParsableArguments {
    @Option(help: "HAProxy's tenant → shard map file to update (env BGEMU_TENANT_MAP), as haproxy.cfg names it.")
    var mapFile: String?

    @Option(
        help: ArgumentHelp(
            "A HAProxy runtime API socket: the running proxy's map is changed at once. Repeat it for each replica.",
            discussion: "A path or unix@PATH, or ipv4@HOST:PORT / ipv6@HOST:PORT for a replica elsewhere, as its "
                + "`stats socket` line names it (env BGEMU_HAPROXY_SOCKET, several separated by commas).",
            valueName: "address"))
    var haproxySocket: [String] = []

    /// The map file in force (`--map-file`, else `BGEMU_TENANT_MAP`).
    var resolvedMapFile: String? { nonEmpty(mapFile) ?? nonEmpty(ProcessInfo.processInfo.environment["BGEMU_TENANT_MAP"]) }

    /// The runtime sockets in force (every `--haproxy-socket`, else those of `BGEMU_HAPROXY_SOCKET`), each once.
    var resolvedSockets: [String] {
        let given = haproxySocket.isEmpty
            ? (ProcessInfo.processInfo.environment["BGEMU_HAPROXY_SOCKET"] ?? "").split(separator: ",").map(String.init)
            : haproxySocket
        var seen: Set<String> = []
        return given.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    func validate() throws {
        if !resolvedSockets.isEmpty, resolvedMapFile == nil {
            throw ValidationError("--haproxy-socket changes the map HAProxy loaded from a file: name it with --map-file (BGEMU_TENANT_MAP).")
        }
        if let bad = resolvedSockets.first(where: { HAProxyRuntime.endpoint($0) == nil }) {
            throw ValidationError("\"\(bad)\" names no HAProxy runtime socket: give a path, unix@PATH, ipv4@HOST:PORT or ipv6@HOST:PORT.")
        }
    }

    /// Maps `tenantId` to `shardId` in the file, then in every running replica; answers what was done, for the
    /// user. A replica that cannot be changed does not stop the others: all are tried, then the failure names
    /// those left, and the command can be run again (a placement is idempotent).
    func place(tenantId: String, shardId: String) throws -> [String] {
        guard let file = resolvedMapFile else { return [] }
        try TenantMapFile(path: file).place(tenantId: tenantId, shardId: shardId)
        var done = ["written to \(file)"]
        let sockets = resolvedSockets
        var failed: [String] = []
        for socket in sockets {
            do {
                let runtime = HAProxyRuntime(address: socket)
                try runtime.place(tenantId, shardId, inMap: file)
                guard try runtime.value(of: tenantId, inMap: file) == shardId else {
                    throw CommandFailure.local("HAProxy at \(socket) accepted the map change but does not show \(tenantId) → \(shardId)")
                }
            } catch CommandFailure.local(let reason) {
                failed.append(reason)
            } catch {
                failed.append("\(socket): \(error)")
            }
        }
        let applied = sockets.count - failed.count
        guard failed.isEmpty else {
            throw CommandFailure.local(
                "\(tenantId) → \(shardId) is in \(file) and in \(applied) of \(sockets.count) running HAProxy replicas; "
                    + failed.joined(separator: "; ")
                    + ". Run `bgemu tenants place \(tenantId) \(shardId)` with the same --map-file and --haproxy-socket again once they answer.")
        }
        if applied == 1 { done.append("applied to the running HAProxy") }
        if applied > 1 { done.append("applied to the \(applied) running HAProxy replicas") }
        return done
    }

    private func nonEmpty(_ value: String?) -> String? { value.flatMap { $0.isEmpty ? nil : $0 } }
}
