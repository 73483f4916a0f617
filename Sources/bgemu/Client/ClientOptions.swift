import ArgumentParser
import Foundation
import BGEmuClient

/// The options every command that calls a running service shares: where it is and the tenant's key.
struct ClientOptions: ParsableArguments {
    @Option(help: "The service's base URL (env BGEMU_URL, else BGEMU_SERVER). [default: http://127.0.0.1:8080]")
    var server: String?

    @Option(help: "A tenant's API key (env BGEMU_API_KEY).")
    var apiKey: String?

    /// The service's default address, as `bgemu serve` listens by default.
    static let defaultServer = "http://127.0.0.1:8080"

    /// `--server`, else `BGEMU_URL`, else `BGEMU_SERVER` (the scenario command's first name), else the default.
    static func resolveServer(_ flag: String?) -> String {
        let environment = ProcessInfo.processInfo.environment
        for candidate in [flag, environment["BGEMU_URL"], environment["BGEMU_SERVER"]] {
            if let candidate, !candidate.isEmpty { return candidate }
        }
        return defaultServer
    }

    /// The base URL in force.
    var resolvedServer: String { Self.resolveServer(server) }

    /// A client for the service with the tenant's key; a missing key or a URL that is not `http://` is a usage
    /// error.
    func client() throws -> APIClient {
        try APIClient(server: resolvedServer, apiKey: try resolvedKey())
    }

    /// `--api-key`, else `BGEMU_API_KEY`; neither is a usage error.
    func resolvedKey() throws -> String {
        guard let key = apiKey ?? ProcessInfo.processInfo.environment["BGEMU_API_KEY"], !key.isEmpty else {
            throw ValidationError("Give an API key with --api-key or BGEMU_API_KEY.")
        }
        return key
    }
}
