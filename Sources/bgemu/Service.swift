import API
import Dispatch
import Emulation
import Foundation
import HTTPServer
import Logging
import Storage

/// Wires storage, the API and the HTTP server together and runs until SIGTERM or SIGINT.
struct Service {
    let configuration: ServiceConfiguration

    func run() throws {
        let level = configuration.logLevel
        LoggingSystem.bootstrap { label in ServiceLogHandler(label: label, level: level) }
        let logger = Logger(label: "bgemu")

        let database = try Storage.openDatabase(path: configuration.database)
        let tenants = SQLiteTenantStore(database: database)
        let outcome = try CredentialBootstrap.run(
            store: tenants, isFirstStart: database.isFirstStart, adminToken: configuration.adminToken,
            apiKey: configuration.apiKey, now: Date())
        announce(outcome)

        // The hub reads the latest event id when it is made: before anything commits events.
        let hub = EventHub(
            store: SQLiteEventStore(database: database), heartbeatInterval: .milliseconds(Int(configuration.sseHeartbeat * 1000)),
            maximumStreams: configuration.maxStreams, maximumStreamsPerTenant: configuration.maxStreamsPerTenant,
            logger: logger)
        let deviceStore = SQLiteDeviceStore(database: database)
        let devices = DeviceService(
            store: deviceStore, publish: { hub.publish($0) }, maximumDevicesPerTenant: configuration.maxDevicesPerTenant)
        let environment = APIEnvironment(
            tenants: tenants, devices: devices, events: hub,
            credentials: Credentials(store: tenants, adminTokenHash: outcome.adminTokenHash),
            isReady: { database.ping() },
            idempotency: Idempotency(
                store: SQLiteIdempotencyStore(database: database),
                exitAfterCommitHeader: ProcessInfo.processInfo.environment["BGEMU_TEST_FAULT_EXIT_AFTER_COMMIT"]))
        let realtime = RealtimeClockDriver(devices: devices, logger: logger)
        realtime.start(initial: try deviceStore.realtimeDevices())
        let publicDirectory = FileManager.default.fileExists(atPath: configuration.publicDirectory)
            ? configuration.publicDirectory : nil
        if publicDirectory == nil {
            logger.warning("No dashboard: folder \(configuration.publicDirectory) not found")
        }
        let contract = FileManager.default.contents(atPath: configuration.openAPIFile).map { [UInt8]($0) }
        if contract == nil { logger.warning("No contract at /openapi.yaml: \(configuration.openAPIFile) not found") }
        let router = APIRouter.make(environment, publicDirectory: publicDirectory, openAPIDocument: contract)

        var serverConfiguration = HTTPServerConfiguration()
        serverConfiguration.host = configuration.host
        serverConfiguration.port = configuration.port
        if let threads = configuration.threads { serverConfiguration.eventLoopCount = threads }
        serverConfiguration.requestTimeout = .milliseconds(Int(configuration.requestTimeout * 1000))
        serverConfiguration.minimumBodyRate = configuration.minimumBodyRate
        serverConfiguration.bodyRateWindow = .milliseconds(Int(configuration.bodyRateWindow * 1000))
        serverConfiguration.maxStreamBacklog = configuration.maxStreamBacklog
        let maxUploadSize = max(configuration.maxUploadSize, serverConfiguration.maxBodySize)
        serverConfiguration.bodySizeLimit = { method, path in APIRouter.isUpload(method, path) ? maxUploadSize : nil }
        let server = HTTPServer(configuration: serverConfiguration, responder: router.buildResponder(), logger: logger)
        try server.start()
        hub.start()
        logger.notice("bgemu listening on http://\(configuration.host):\(server.localPort) (database \(configuration.database))")

        let signals = Self.onTermination {
            logger.notice("Shutting down")
            realtime.stop()
            hub.stop()
            server.shutdown()
        }
        server.waitUntilStopped()
        realtime.stop()
        withExtendedLifetime(signals) {}
        logger.notice("Stopped")
    }

    /// Prints secrets generated on a first start, once: they are stored only as hashes.
    private func announce(_ outcome: CredentialBootstrap.Outcome) {
        guard outcome.generatedAdminToken != nil || outcome.generatedAPIKey != nil else { return }
        var lines = ["", "bgemu first start: these secrets are shown once and stored only as hashes."]
        if let token = outcome.generatedAdminToken { lines.append("  admin token:            \(token)") }
        if let key = outcome.generatedAPIKey { lines.append("  API key of \"default\":   \(key)") }
        lines.append("")
        FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    /// Calls `handler` on SIGTERM or SIGINT; the returned sources must be kept alive.
    private static func onTermination(_ handler: @escaping @Sendable () -> Void) -> [any DispatchSourceSignal] {
        [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }
}
