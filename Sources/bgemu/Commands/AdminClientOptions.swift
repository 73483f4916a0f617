import ArgumentParser
import BGEmuClient
import Foundation

/// The options of the operator's commands that call a service's admin routes: where it is (a shard, or the proxy in
/// front of the shards) and the admin token.
struct AdminClientOptions: ParsableArguments {
    @Option(help: "The service's or the proxy's base URL (env BGEMU_URL, else BGEMU_SERVER). [default: http://127.0.0.1:8080]")
    var server: String?

    @Option(help: "The admin token (env BGEMU_ADMIN_TOKEN).")
    var adminToken: String?

    /// A client with the admin token; none given is a usage error.
    func client() throws -> APIClient {
        guard let token = adminToken ?? ProcessInfo.processInfo.environment["BGEMU_ADMIN_TOKEN"], !token.isEmpty else {
            throw ValidationError("Give the admin token with --admin-token or BGEMU_ADMIN_TOKEN.")
        }
        return try APIClient(server: ClientOptions.resolveServer(server), apiKey: token)
    }
}
