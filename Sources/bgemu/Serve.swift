import ArgumentParser
import Emulation
import Foundation
import HTTPServer

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

    @Option(help: "Event loop threads (env BGEMU_THREADS). [default: one per core the process may use; its affinity and a container's CPU limit count]")
    var threads: Int?

    @Option(help: "per-processor: with a loop per core, each loop is bound to its core and serves the connections whose packets arrive there; shared: loops float and take connections in turn (env BGEMU_LOOP_PLACEMENT). [default: per-processor]")
    var loopPlacement: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical (env BGEMU_LOG_LEVEL). [default: info]")
    var logLevel: String?

    @Option(help: "Seconds between keep-alive comments on event streams (env BGEMU_SSE_HEARTBEAT). [default: 15]")
    var sseHeartbeat: Double?

    @Option(help: "Most event streams open at once; more are refused with 503 (env BGEMU_MAX_STREAMS). [default: 16384]")
    var maxStreams: Int?

    @Option(help: "Most event streams one tenant holds open, and never more than half of --max-streams; more are refused with 429 (env BGEMU_MAX_STREAMS_PER_TENANT). [default: 1024]")
    var maxStreamsPerTenant: Int?

    @Option(help: "Most devices one tenant may have; more are refused with 409 tooManyDevices (env BGEMU_MAX_DEVICES_PER_TENANT). [default: 10000]")
    var maxDevicesPerTenant: Int?

    @Option(help: "Largest app upload (.ipa, zipped .app) in MiB (env BGEMU_MAX_UPLOAD_MIB). [default: 256]")
    var maxUploadMib: Int?

    @Option(help: "Most app uploads one tenant may have in progress at once; more are refused with 429 tooManyUploads before their body is read (env BGEMU_MAX_UPLOADS_PER_TENANT). [default: 2]")
    var maxUploadsPerTenant: Int?

    @Option(help: "Seconds a client has to send a whole request, head and body; then 408; long enough for a 256 MiB upload at 1 MB/s (env BGEMU_REQUEST_TIMEOUT). [default: 300]")
    var requestTimeout: Double?

    @Option(help: "Slowest request body in bytes/s, over each body-rate window; slower is 408; 0 turns it off (env BGEMU_MIN_BODY_RATE). [default: 1024]")
    var minBodyRate: Int?

    @Option(help: "Seconds of the body-rate window, and of the grace before the first check (env BGEMU_BODY_RATE_WINDOW). [default: 10]")
    var bodyRateWindow: Double?

    @Option(help: "Days an event is kept after it was written (wall time, not the device's virtual time); older ones are pruned in the background; 0 keeps them (env BGEMU_EVENT_RETENTION_DAYS). [default: 0]")
    var eventRetentionDays: Int?

    @Option(help: "Most events kept per device, its newest; older ones are pruned in the background; 0 is no limit (env BGEMU_EVENT_RETENTION_PER_DEVICE). [default: 0]")
    var eventRetentionPerDevice: Int?

    @Option(help: "Seconds between passes of the event pruner (env BGEMU_EVENT_RETENTION_INTERVAL). [default: 60]")
    var eventRetentionInterval: Double?

    @Option(help: "Requests a second each tenant may send, sustained; more are paced (--rate-limit-delay), then refused with 429 rateLimited; 0 turns the limit off (env BGEMU_RATE_LIMIT). [default: 1000]")
    var rateLimit: Double?

    @Option(help: "Most requests a tenant may send at once after a pause (its token bucket); 0 turns the limit off (env BGEMU_RATE_BURST). [default: 2000]")
    var rateBurst: Int?

    @Option(help: "Seconds a 429 rateLimited is held before it is sent, at most (its Retry-After then counts what is left); 0 sends refusals at once (env BGEMU_RATE_LIMIT_HOLD). [default: 1]")
    var rateLimitHold: Double?

    @Option(help: "Seconds a request over the rate may wait for the next token, its answer held until then, before it is refused instead (pacing); 0 refuses at once (env BGEMU_RATE_LIMIT_DELAY). [default: 0.25]")
    var rateLimitDelay: Double?

    @Option(help: "Also serve GET /metrics without a token on 127.0.0.1 at this port (env BGEMU_METRICS_PORT); /metrics on the main port needs the admin token. [default: off]")
    var metricsPort: Int?

    @Option(help: "This instance's id as one shard of several (1–64 letters, digits, '.', '_', '-'): every answer carries it in Bgemu-Shard, and /healthz says it (env BGEMU_SHARD_ID). [default: none]")
    var shardId: String?

    @Flag(help: "Litestream replicates the database: bgemu leaves the WAL's checkpoints to it (PASSIVE only, and only past the WAL's hard limit; none on close), and /healthz says replicated (env BGEMU_REPLICATED=1). [default: off]")
    var replicated = false

    @Option(help: "KiB an event stream may have written and not yet sent to its client; past it the stream catches up from the event log at the client's pace (env BGEMU_MAX_STREAM_BACKLOG). [default: 64]")
    var maxStreamBacklog: Int?

    @Option(help: "MiB all event streams together may have written and not yet sent to their clients; past it the streams furthest behind are closed, and their clients resume with Last-Event-ID (env BGEMU_MAX_STREAM_MEMORY). [default: 32]")
    var maxStreamMemory: Int?

    @Option(help: "KiB a second one tenant's event streams may be sent together; past it they catch up from the event log as the budget refills; 0 turns it off (env BGEMU_MAX_STREAM_RATE_PER_TENANT). [default: 8192]")
    var maxStreamRatePerTenant: Int?

    @Option(help: "Largest forecast, in devices × days; a larger one is refused with 422 (env BGEMU_FORECAST_MAX_DEVICE_DAYS). [default: 1000000]")
    var forecastMaxDeviceDays: Int?

    func run() throws {
        // First of all: it may execute the program again (see MallocTunables).
        MallocTunables.reexecuteIfNeeded()
        // Before any thread starts, so that every thread inherits it.
        TerminationSignals.block()
        let environment = ProcessInfo.processInfo.environment
        let configuration = try ServeConfiguration(
            host: host ?? environment["BGEMU_HOST"] ?? "127.0.0.1",
            port: try Self.number(port, "BGEMU_PORT", option: "port", in: 0...65_535) ?? 8080,
            database: database ?? environment["BGEMU_DATABASE"] ?? "bgemu.sqlite",
            adminToken: adminToken ?? environment["BGEMU_ADMIN_TOKEN"],
            apiKey: environment["BGEMU_API_KEY"],
            publicDirectory: publicDirectory ?? environment["BGEMU_PUBLIC"] ?? "Public",
            openAPIFile: openapi ?? environment["BGEMU_OPENAPI"] ?? "openapi.yaml",
            threads: try Self.number(threads, "BGEMU_THREADS", option: "threads", in: 1...256),
            logLevel: logLevel ?? environment["BGEMU_LOG_LEVEL"] ?? "info",
            sseHeartbeat: try Self.number(sseHeartbeat, "BGEMU_SSE_HEARTBEAT", option: "sse-heartbeat", in: 0.1...3600) ?? 15,
            maxStreams: try Self.number(maxStreams, "BGEMU_MAX_STREAMS", option: "max-streams", in: 1...1_000_000) ?? 16_384,
            maxStreamsPerTenant: try Self.number(
                maxStreamsPerTenant, "BGEMU_MAX_STREAMS_PER_TENANT", option: "max-streams-per-tenant", in: 1...1_000_000) ?? 1024,
            maxDevicesPerTenant: try Self.number(
                maxDevicesPerTenant, "BGEMU_MAX_DEVICES_PER_TENANT", option: "max-devices-per-tenant", in: 1...10_000_000) ?? 10_000,
            maxUploadSize: (try Self.number(maxUploadMib, "BGEMU_MAX_UPLOAD_MIB", option: "max-upload-mib", in: 1...4096) ?? 256)
                << 20,
            requestTimeout: try Self.number(requestTimeout, "BGEMU_REQUEST_TIMEOUT", option: "request-timeout", in: 1...86_400) ?? 300,
            minimumBodyRate: try Self.number(minBodyRate, "BGEMU_MIN_BODY_RATE", option: "min-body-rate", in: 0...1 << 30) ?? 1024,
            bodyRateWindow: try Self.number(bodyRateWindow, "BGEMU_BODY_RATE_WINDOW", option: "body-rate-window", in: 1...3600) ?? 10,
            rateLimit: try Self.number(rateLimit, "BGEMU_RATE_LIMIT", option: "rate-limit", in: 0...1_000_000) ?? 1000,
            rateBurst: try Self.number(rateBurst, "BGEMU_RATE_BURST", option: "rate-burst", in: 0...100_000_000) ?? 2000,
            maxStreamBacklog: (try Self.number(
                maxStreamBacklog, "BGEMU_MAX_STREAM_BACKLOG", option: "max-stream-backlog", in: 1...65_536) ?? 64) << 10)
        var configured = configuration
        configured.eventRetentionDays = try Self.number(
            eventRetentionDays, "BGEMU_EVENT_RETENTION_DAYS", option: "event-retention-days", in: 0...36_500) ?? 0
        configured.eventRetentionPerDevice = try Self.number(
            eventRetentionPerDevice, "BGEMU_EVENT_RETENTION_PER_DEVICE", option: "event-retention-per-device",
            in: 0...1_000_000_000) ?? 0
        configured.eventRetentionInterval = try Self.number(
            eventRetentionInterval, "BGEMU_EVENT_RETENTION_INTERVAL", option: "event-retention-interval",
            in: 0.1...86_400) ?? 60
        configured.maxStreamRatePerTenant = (try Self.number(
            maxStreamRatePerTenant, "BGEMU_MAX_STREAM_RATE_PER_TENANT", option: "max-stream-rate-per-tenant",
            in: 0...16_777_216) ?? 8192) << 10
        configured.maxUploadsPerTenant = try Self.number(
            maxUploadsPerTenant, "BGEMU_MAX_UPLOADS_PER_TENANT", option: "max-uploads-per-tenant", in: 1...1024) ?? 2
        configured.maxStreamMemory = (try Self.number(
            maxStreamMemory, "BGEMU_MAX_STREAM_MEMORY", option: "max-stream-memory", in: 1...65_536) ?? 32) << 20
        configured.rateLimitHold = try Self.number(
            rateLimitHold, "BGEMU_RATE_LIMIT_HOLD", option: "rate-limit-hold", in: 0...60) ?? 1
        configured.rateLimitDelay = try Self.number(
            rateLimitDelay, "BGEMU_RATE_LIMIT_DELAY", option: "rate-limit-delay", in: 0...60) ?? 0.25
        configured.forecastMaxDeviceDays = try Self.number(
            forecastMaxDeviceDays, "BGEMU_FORECAST_MAX_DEVICE_DAYS", option: "forecast-max-device-days",
            in: 1...(ForecastRequest.maximumDevices * ForecastRequest.maximumDays)) ?? 1_000_000
        configured.metricsPort = try Self.number(metricsPort, "BGEMU_METRICS_PORT", option: "metrics-port", in: 0...65_535)
        configured.loopPlacement = try Self.placement(loopPlacement, "BGEMU_LOOP_PLACEMENT") ?? .perProcessor
        configured.shardId = try Self.shard(shardId ?? ProcessInfo.processInfo.environment["BGEMU_SHARD_ID"])
        configured.replicated = try replicated || Self.switchedOn("BGEMU_REPLICATED")
        try ServiceProcess(configuration: configured).run()
    }

    /// A number from its flag, else from its environment variable; nil when neither is set. Either one out of
    /// `range` is an error that names it.
    /// `--loop-placement`, or its environment variable: `per-processor` or `shared`.
    static func placement(_ flag: String?, _ variable: String) throws -> LoopPlacement? {
        let names: [String: LoopPlacement] = ["per-processor": .perProcessor, "shared": .shared]
        if let flag {
            guard let placement = names[flag] else {
                throw ValidationError("--loop-placement must be per-processor or shared, not \"\(flag)\".")
            }
            return placement
        }
        guard let text = ProcessInfo.processInfo.environment[variable] else { return nil }
        guard let placement = names[text] else {
            throw ValidationError("\(variable) must be per-processor or shared, not \"\(text)\".")
        }
        return placement
    }

    static func number<T: LosslessStringConvertible & Comparable>(
        _ flag: T?, _ variable: String, option: String, in range: ClosedRange<T>
    ) throws -> T? {
        if let flag {
            guard range.contains(flag) else {
                throw ValidationError("--\(option) must be from \(range.lowerBound) to \(range.upperBound).")
            }
            return flag
        }
        guard let text = ProcessInfo.processInfo.environment[variable] else { return nil }
        guard let value = T(text), range.contains(value) else {
            throw ValidationError("\(variable) must be from \(range.lowerBound) to \(range.upperBound), not \"\(text)\".")
        }
        return value
    }

    /// Whether a switch's environment variable turns it on: `1` or `true` on, `0`, `false` or empty off; anything
    /// else is a usage error that names it.
    static func switchedOn(_ variable: String) throws -> Bool {
        switch ProcessInfo.processInfo.environment[variable]?.lowercased() {
        case nil, "", "0", "false": return false
        case "1", "true": return true
        case let text?: throw ValidationError("\(variable) must be 1, true, 0 or false, not \"\(text)\".")
        }
    }

    /// A shard id, or nil for none; anything but 1–64 of `A–Z a–z 0–9 . _ -` is a usage error.
    static func shard(_ text: String?) throws -> String? {
        guard let text, !text.isEmpty else { return nil }
        let allowed = text.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || [UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-")].contains(byte)
        }
        guard allowed, text.utf8.count <= 64 else {
            throw ValidationError("--shard-id (BGEMU_SHARD_ID) must be 1 to 64 letters, digits, '.', '_' or '-', not \"\(text)\".")
        }
        return text
    }
}
