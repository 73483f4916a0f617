import ArgumentParser
import Foundation

/// Where a tenant's placement on a shard is written: HAProxy's tenant → shard map file (kept for reloads) and
/// its runtime API (the running proxy, at once). Neither given: the map line is only printed.
struct TenantPlacementOptions: ParsableArguments {
    @Option(help: "HAProxy's tenant → shard map file to update (env BGEMU_TENANT_MAP), as haproxy.cfg names it.")
    var mapFile: String?

    @Option(help: "HAProxy's runtime API socket (env BGEMU_HAPROXY_SOCKET): the running proxy's map is changed at once.")
    var haproxySocket: String?

    /// The map file in force (`--map-file`, else `BGEMU_TENANT_MAP`).
    var resolvedMapFile: String? { nonEmpty(mapFile) ?? nonEmpty(ProcessInfo.processInfo.environment["BGEMU_TENANT_MAP"]) }

    /// The runtime socket in force (`--haproxy-socket`, else `BGEMU_HAPROXY_SOCKET`).
    var resolvedSocket: String? { nonEmpty(haproxySocket) ?? nonEmpty(ProcessInfo.processInfo.environment["BGEMU_HAPROXY_SOCKET"]) }

    func validate() throws {
        if resolvedSocket != nil, resolvedMapFile == nil {
            throw ValidationError("--haproxy-socket changes the map HAProxy loaded from a file: name it with --map-file (BGEMU_TENANT_MAP).")
        }
    }

    /// Maps `tenantId` to `shardId` in the file, then in the running proxy; answers what was done, for the user.
    func place(tenantId: String, shardId: String) throws -> [String] {
        var done: [String] = []
        if let file = resolvedMapFile {
            try TenantMapFile(path: file).place(tenantId: tenantId, shardId: shardId)
            done.append("written to \(file)")
            if let socket = resolvedSocket {
                let runtime = HAProxyRuntime(path: socket)
                try runtime.place(tenantId, shardId, inMap: file)
                guard try runtime.value(of: tenantId, inMap: file) == shardId else {
                    throw CommandFailure.local("HAProxy at \(socket) accepted the map change but does not show \(tenantId) → \(shardId)")
                }
                done.append("applied to the running HAProxy")
            }
        }
        return done
    }

    private func nonEmpty(_ value: String?) -> String? { value.flatMap { $0.isEmpty ? nil : $0 } }
}
