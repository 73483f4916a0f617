import ArgumentParser
import HTTPServer
import Logging

/// The resolved settings of one run of the service.
struct ServeConfiguration {
    var host: String
    var port: Int
    var database: String
    var adminToken: String?
    var apiKey: String?
    var publicDirectory: String
    /// The contract file served at `/openapi.yaml`.
    var openAPIFile: String
    var threads: Int?
    var logLevel: Logger.Level
    /// Seconds between keep-alive comments on event streams.
    var sseHeartbeat: Double
    /// Most event streams open at once.
    var maxStreams: Int
    /// Most event streams one tenant holds open (the hub also caps it at half of `maxStreams`).
    var maxStreamsPerTenant: Int
    /// Most devices one tenant may have.
    var maxDevicesPerTenant: Int
    /// The largest app upload (`.ipa`, zipped `.app`, multipart form) in bytes; other bodies stay at 1 MiB.
    var maxUploadSize: Int
    /// Most app uploads one tenant may have in progress at once; more are refused with 429 before their body is read.
    var maxUploadsPerTenant: Int = 2
    /// Seconds a client has to send a whole request.
    var requestTimeout: Double
    /// The slowest request body accepted, in bytes per second (0: not checked).
    var minimumBodyRate: Int
    /// Seconds over which the body rate is measured, and of the grace before the first measure.
    var bodyRateWindow: Double
    /// Days an event is kept after it was written (wall time); 0 keeps events whatever their age.
    var eventRetentionDays: Int = 0
    /// The most events kept per device, its newest; 0 is no limit.
    var eventRetentionPerDevice: Int = 0
    /// Seconds between two passes of the event pruner.
    var eventRetentionInterval: Double = 60
    /// Requests a second each tenant may send, sustained (0: no limit).
    var rateLimit: Double
    /// The most requests a tenant may send at once (0: no limit).
    var rateBurst: Int
    /// Seconds a rate-limit refusal is held before it is sent, at most.
    var rateLimitHold: Double = 1
    /// Seconds a request over the rate may wait for its token (paced) before it is refused instead.
    var rateLimitDelay: Double = 0.25
    /// The loopback port of the token-free metrics listener; nil: none (`/metrics` on the main port only).
    var metricsPort: Int? = nil
    /// This instance's id as a shard (every answer's `Bgemu-Shard`, and `/healthz`); nil: not a shard.
    var shardId: String? = nil
    /// Whether Litestream replicates the database, and so does its WAL's checkpoints (`CheckpointPolicy.replicated`).
    var replicated = false
    /// Where the event loops run (``LoopPlacement``).
    var loopPlacement: LoopPlacement = .perProcessor
    /// Bytes an event stream may have written and not yet sent before its client counts as fallen behind.
    var maxStreamBacklog: Int
    /// Bytes all event streams together may have written and not yet sent before the streams furthest behind are closed.
    var maxStreamMemory: Int = 32 << 20
    /// Bytes a second one tenant's event streams may be sent together (0: no limit).
    var maxStreamRatePerTenant: Int = 8192 << 10
    /// The largest `devices × days` one forecast may ask for.
    var forecastMaxDeviceDays: Int = 1_000_000

    init(
        host: String, port: Int, database: String, adminToken: String?, apiKey: String?, publicDirectory: String, openAPIFile: String,
        threads: Int?, logLevel: String, sseHeartbeat: Double, maxStreams: Int,
        maxStreamsPerTenant: Int, maxDevicesPerTenant: Int, maxUploadSize: Int, requestTimeout: Double = 300,
        minimumBodyRate: Int = 1024, bodyRateWindow: Double = 10, rateLimit: Double = 1000, rateBurst: Int = 2000,
        maxStreamBacklog: Int = 64 << 10
    ) throws {
        guard let level = Logger.Level(rawValue: logLevel.lowercased()) else {
            throw ValidationError("Unknown log level \"\(logLevel)\".")
        }
        self.host = host
        self.port = port
        self.database = database
        self.adminToken = adminToken
        self.apiKey = apiKey
        self.publicDirectory = publicDirectory
        self.openAPIFile = openAPIFile
        self.threads = threads
        self.logLevel = level
        self.sseHeartbeat = sseHeartbeat
        self.maxStreams = maxStreams
        self.maxStreamsPerTenant = maxStreamsPerTenant
        self.maxDevicesPerTenant = maxDevicesPerTenant
        self.maxUploadSize = maxUploadSize
        self.requestTimeout = requestTimeout
        self.minimumBodyRate = minimumBodyRate
        self.bodyRateWindow = bodyRateWindow
        self.rateLimit = rateLimit
        self.rateBurst = rateBurst
        self.maxStreamBacklog = maxStreamBacklog
    }
}
