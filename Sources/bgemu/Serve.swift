import ArgumentParser
import Foundation

/// `bgemu serve`: every option also reads an environment variable, for service containers.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the HTTP service.")

    @Option(help: "Address to listen on (env BGEMU_HOST). [default: 127.0.0.1]")
    var host: String?

    @Option(help: "Port to listen on; 0 picks a free one (env BGEMU_PORT). [default: 8080]")
    var port: Int?

    @Option(help: "SQLite database file (env BGEMU_DATABASE). [default: ./bgemu.sqlite]")
    var database: String?

    @Option(help: "Admin token for /v1/admin (env BGEMU_ADMIN_TOKEN); generated and shown once on a first start.")
    var adminToken: String?

    @Option(help: "Folder of the dashboard served at / (env BGEMU_PUBLIC). [default: ./Public]")
    var publicDirectory: String?

    @Option(help: "The contract served at /openapi.yaml (env BGEMU_OPENAPI). [default: ./openapi.yaml]")
    var openapi: String?

    @Option(help: "Event loop threads (env BGEMU_THREADS). [default: one per core]")
    var threads: Int?

    @Option(help: "trace, debug, info, notice, warning, error or critical (env BGEMU_LOG_LEVEL). [default: info]")
    var logLevel: String?

    @Option(help: "Seconds between keep-alive comments on event streams (env BGEMU_SSE_HEARTBEAT). [default: 15]")
    var sseHeartbeat: Double?

    @Option(help: "Most event streams open at once; more are refused with 503 (env BGEMU_MAX_STREAMS). [default: 16384]")
    var maxStreams: Int?

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let configuration = try ServiceConfiguration(
            host: host ?? environment["BGEMU_HOST"] ?? "127.0.0.1",
            port: try port ?? environment["BGEMU_PORT"].map(Self.parsePort) ?? 8080,
            database: database ?? environment["BGEMU_DATABASE"] ?? "bgemu.sqlite",
            adminToken: adminToken ?? environment["BGEMU_ADMIN_TOKEN"],
            apiKey: environment["BGEMU_API_KEY"],
            publicDirectory: publicDirectory ?? environment["BGEMU_PUBLIC"] ?? "Public",
            openAPIFile: openapi ?? environment["BGEMU_OPENAPI"] ?? "openapi.yaml",
            threads: try threads ?? environment["BGEMU_THREADS"].map(Self.parseThreads),
            logLevel: logLevel ?? environment["BGEMU_LOG_LEVEL"] ?? "info",
            sseHeartbeat: try sseHeartbeat ?? environment["BGEMU_SSE_HEARTBEAT"].map(Self.parseHeartbeat) ?? 15,
            maxStreams: try maxStreams ?? environment["BGEMU_MAX_STREAMS"].map(Self.parseMaxStreams) ?? 16_384)
        try Service(configuration: configuration).run()
    }

    static func parsePort(_ text: String) throws -> Int {
        guard let port = Int(text), (0...65_535).contains(port) else {
            throw ValidationError("BGEMU_PORT must be a port number, not \"\(text)\".")
        }
        return port
    }

    static func parseThreads(_ text: String) throws -> Int {
        guard let count = Int(text), (1...256).contains(count) else {
            throw ValidationError("BGEMU_THREADS must be from 1 to 256, not \"\(text)\".")
        }
        return count
    }

    static func parseHeartbeat(_ text: String) throws -> Double {
        guard let seconds = Double(text), seconds >= 0.1, seconds <= 3600 else {
            throw ValidationError("BGEMU_SSE_HEARTBEAT must be from 0.1 to 3600 seconds, not \"\(text)\".")
        }
        return seconds
    }

    static func parseMaxStreams(_ text: String) throws -> Int {
        guard let count = Int(text), count >= 1 else {
            throw ValidationError("BGEMU_MAX_STREAMS must be a positive whole number, not \"\(text)\".")
        }
        return count
    }

    func validate() throws {
        if let maxStreams, maxStreams < 1 { throw ValidationError("--max-streams must be at least 1.") }
        if let sseHeartbeat, !(0.1...3600).contains(sseHeartbeat) {
            throw ValidationError("--sse-heartbeat must be from 0.1 to 3600 seconds.")
        }
        if let port, !(0...65_535).contains(port) { throw ValidationError("--port must be from 0 to 65535.") }
        if let threads, !(1...256).contains(threads) { throw ValidationError("--threads must be from 1 to 256.") }
    }
}
