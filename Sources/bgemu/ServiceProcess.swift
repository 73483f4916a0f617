import API
import Dispatch
import Emulation
import Foundation
import HTTPServer
import Logging
import Service
import Storage

/// Wires storage, the API and the HTTP server together and runs until SIGTERM or SIGINT.
struct ServiceProcess {
    let configuration: ServeConfiguration

    func run() throws {
        // The heap: two arenas per processor instead of glibc's eight, trimmed every 5 s and soon after streams
        // close (see HeapTrimmer; the figures are in the README's "Performance").
        HeapTrimmer.limitArenas(to: 2 * HTTPServerConfiguration.activeProcessorCount)
        HeapTrimmer.shared.trimEvery(.seconds(5))
        let level = configuration.logLevel
        LoggingSystem.bootstrap { label in ServiceLogHandler(label: label, level: level) }
        let logger = Logger(label: "bgemu")

        // Readers for the event hub's replay workers (2) and as many again for everything else: a tenant whose
        // streams catch up from the log without pause must not take every reader from the others' requests.
        // Replicated by Litestream: its checkpoints, not ours (see CheckpointPolicy).
        let database = try Storage.openDatabase(
            path: configuration.database, readerCount: 4, checkpointing: configuration.replicated ? .replicated : .own)
        let metrics = PrometheusMetrics()
        database.observeCommits { metrics.commitFinished(after: $0) }
        let tenants = SQLiteTenantStore(database: database)
        let outcome = try CredentialBootstrap.run(
            store: tenants, isFirstStart: database.isFirstStart, adminToken: configuration.adminToken,
            apiKey: configuration.apiKey, now: Date())
        announce(outcome)

        // The hub reads the latest event id when it is made: before anything commits events.
        let hub = EventHub(
            store: SQLiteEventStore(database: database), heartbeatInterval: .milliseconds(Int(configuration.sseHeartbeat * 1000)),
            maximumStreams: configuration.maxStreams, maximumStreamsPerTenant: configuration.maxStreamsPerTenant,
            streamBytesPerSecondPerTenant: configuration.maxStreamRatePerTenant,
            logger: logger)
        let deviceStore = SQLiteDeviceStore(database: database)
        let devices = DeviceService(
            store: deviceStore,
            publish: { events in
                metrics.eventsWritten(events.count)
                hub.publish(events)
            },
            maximumDevicesPerTenant: configuration.maxDevicesPerTenant)
        // Once nothing was committed for one interval of the periodic trim, the connections' page caches (2 MiB
        // each at most) go back with the heap: after a burst of writes they had stayed in the RSS for good.
        HeapTrimmer.shared.beforeEachPeriodicTrim { database.releaseMemoryIfIdle() }
        let prunedEvents = Self.prunedEvents(SQLiteEventStore(database: database))
        // Streams can only see events pruned under them while this process prunes: what was pruned before it
        // started is refused when a stream opens (`410`). Without retention, a replay asks nothing per page.
        let retention = EventRetention(days: configuration.eventRetentionDays, perDevice: configuration.eventRetentionPerDevice)
        if !retention.keepsEverything { hub.watchPruning(prunedEvents) }
        // The appends count each device's events only for a per-device limit; switched before any request.
        if try EventCounts.prepare(database, counting: retention.maximumPerDevice != nil) {
            logger.notice("Event retention: counted the events of every device for the per-device limit")
        }
        var environment = APIEnvironment(
            tenants: tenants, devices: devices, events: hub,
            credentials: Credentials(store: tenants, adminTokenHash: outcome.adminTokenHash),
            isReady: { database.ping() },
            idempotency: Idempotency(
                store: SQLiteIdempotencyStore(database: database),
                exitAfterCommitHeader: ProcessInfo.processInfo.environment["BGEMU_TEST_FAULT_EXIT_AFTER_COMMIT"]),
            prunedEvents: prunedEvents,
            rateLimiter: RateLimitPolicy(rate: configuration.rateLimit, burst: configuration.rateBurst).map {
                RateLimiter(
                    policy: $0, maximumHold: .milliseconds(Int(configuration.rateLimitHold * 1000)),
                    maximumDelay: .milliseconds(Int(configuration.rateLimitDelay * 1000)))
            })
        environment.metrics = metrics
        // Forecasts run on threads of their own at a lower priority, one per processor the service may use.
        let forecasts = ForecastService(
            store: SQLiteForecastStore(database: database), maximumDeviceDays: configuration.forecastMaxDeviceDays,
            threads: HTTPServerConfiguration.activeProcessorCount, logger: logger,
            publish: { hub.publish(forecastProgress: $0) })
        let interrupted = try forecasts.failInterrupted()
        if interrupted > 0 { logger.notice("\(interrupted) forecasts were running when the service stopped: marked failed") }
        environment.forecasts = forecasts
        // Tenant moves between shards: the fences the database keeps (a source restarted mid-move stays fenced);
        // an export no larger than the largest import (`--max-upload-mib`), so that none is built in vain or too big;
        // an import's event ids are skipped by the live fan-out, and its keys are taken at once.
        let moveStore = SQLiteTenantMoveStore(database: database)
        // The largest upload, and so the largest import (and about the largest export) a request may bring.
        let maxUploadSize = max(configuration.maxUploadSize, HTTPServerConfiguration().maxBodySize)
        environment.tenantMoves = TenantMoves(
            store: moveStore, fences: try TenantMoves.fences(of: moveStore), maximumExportBytes: maxUploadSize,
            imported: { [credentials = environment.credentials] imported in
                if let ids = imported.eventIds { hub.skipImported(ids) }
                credentials.invalidate()
                // Its realtime clocks move from now on, as the source's did (else only after this shard's restart).
                do { try devices.announceRealtimeDevices(tenantId: imported.tenantId) } catch {
                    logger.error("Tenant \(imported.tenantId) imported, but its realtime devices could not be read: \(error)")
                }
            })
        // Uploads' inspection on threads of the lowest scheduling class, one job per tenant at a time: a tenant's
        // heavy uploads use what the other tenants' requests leave of the processors.
        // Its queue per tenant holds every upload the tenant may have at once (and the JSON installs beside them).
        let heavyWork = HeavyWorkPool(
            threads: HTTPServerConfiguration.activeProcessorCount,
            maximumQueuedPerTenant: max(4, 2 * configuration.maxUploadsPerTenant))
        heavyWork.start()
        environment.heavyWork = heavyWork
        environment.shardId = configuration.shardId
        environment.accessLogWriter = ServiceAccessLogWriter(label: logger.label)
        environment.replicated = configuration.replicated
        let realtime = RealtimeClockDriver(devices: devices, fences: environment.tenantMoves?.fences, logger: logger)
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
        // One loop per processor by default, each bound to its own and serving the connections whose packets arrive
        // there (`LoopPlacement.perProcessor`): a client on the same machine (a CI job beside its service container,
        // the benchmark's wrk) and the loop serving it then take turns on one processor instead of waiting out each
        // other's ticks (the figures are in the README's "Performance").
        serverConfiguration.eventLoopCount = configuration.threads ?? HTTPServerConfiguration.activeProcessorCount
        serverConfiguration.loopPlacement = configuration.loopPlacement
        serverConfiguration.requestTimeout = .milliseconds(Int(configuration.requestTimeout * 1000))
        serverConfiguration.minimumBodyRate = configuration.minimumBodyRate
        serverConfiguration.bodyRateWindow = .milliseconds(Int(configuration.bodyRateWindow * 1000))
        serverConfiguration.maxStreamBacklog = configuration.maxStreamBacklog
        serverConfiguration.maxStreamBacklogTotal = configuration.maxStreamMemory
        serverConfiguration.bodySizeLimit = { method, path in APIRouter.isUpload(method, path) ? maxUploadSize : nil }
        serverConfiguration.offloadKey = APIRouter.offloadKey
        // A refused upload is held as the rate limiter's refusals are (--rate-limit-hold): clients retrying at once
        // would otherwise draw thousands of refusals a second, each a connection accepted, read and closed.
        serverConfiguration.uploadAdmission = APIRouter.uploadAdmission(
            environment, maximumPerTenant: configuration.maxUploadsPerTenant,
            hold: .milliseconds(Int(configuration.rateLimitHold * 1000)))
        // Sixteen workers per processor: a worker whose write waits in a group commit (a follower sleeps while its
        // leader commits, and the leader while it gathers) holds no CPU, so the others keep the processors busy
        // meanwhile, and larger batches mean fewer commits a write (the figures are in the README's "Performance").
        serverConfiguration.workerCount = 16 * HTTPServerConfiguration.activeProcessorCount
        if let shard = configuration.shardId { serverConfiguration.fixedResponseHeaders = [("Bgemu-Shard", shard)] }
        let server = HTTPServer(configuration: serverConfiguration, responder: router.buildResponder(), logger: logger)
        metrics.setSources(PrometheusMetrics.Sources(
            server: { server.statistics }, streamsByTenant: { hub.openStreamsByTenant() },
            realtimeClocks: { realtime.drivenClockCount }))
        let metricsListener = configuration.metricsPort.map { MetricsListener.make(port: $0, metrics: metrics, logger: logger) }
        try metricsListener?.start()
        try server.start()
        hub.start()
        let pruner = startEventPruner(database, retention: retention, logger: logger)
        if let metricsListener {
            logger.notice("bgemu metrics on http://127.0.0.1:\(metricsListener.localPort)/metrics")
        }
        let bound = server.boundProcessors
        let loops = "\(serverConfiguration.eventLoopCount) event loop\(serverConfiguration.eventLoopCount == 1 ? "" : "s")"
            + (bound.isEmpty ? "" : " bound to processors \(bound.map(String.init).joined(separator: ","))")
        let replication = configuration.replicated ? ", replicated: checkpoints left to Litestream" : ""
        logger.notice("bgemu listening on http://\(configuration.host):\(server.localPort) (database \(configuration.database)\(replication); \(loops))")

        TerminationSignals.wait { _ in
            logger.notice("Shutting down")
            realtime.stop()
            pruner.stop()
            hub.stop()
            server.shutdown()
            heavyWork.stop()
            metricsListener?.shutdown(gracePeriod: .zero)
        }
        server.waitUntilStopped()
        metricsListener?.waitUntilStopped()
        realtime.stop()
        forecasts.stop()
        // The last connection closed checkpoints the WAL into the database file and removes it: a stopped
        // service's volume holds one whole file, which is what an operator copies or backs up (replicated: the
        // WAL stays, for Litestream to copy).
        database.close()
        logger.notice("Stopped")
    }

    /// The event retention's pruner, started on its timer (it does nothing when the retention keeps everything).
    private func startEventPruner(_ database: Database, retention: EventRetention, logger: Logger) -> EventPruner {
        let pruner = EventPruner(database: database, retention: retention)
        if !pruner.retention.keepsEverything {
            let age = configuration.eventRetentionDays > 0
                ? "written in the last \(configuration.eventRetentionDays) days" : "of any age"
            let count = configuration.eventRetentionPerDevice > 0
                ? "at most \(configuration.eventRetentionPerDevice)" : "any number"
            logger.notice(
                "Event retention: keeping events \(age), \(count) per device; pruning every \(configuration.eventRetentionInterval) s")
        }
        pruner.start(every: .milliseconds(Int(configuration.eventRetentionInterval * 1000))) { result in
            switch result {
            case .success(let report):
                logger.info(
                    "Event retention pruned \(report.events) events in \(report.batches) batches; the longest held the write lock \(report.longestBatch) (median \(report.batchLockTime(percentile: 50)), p99 \(report.batchLockTime(percentile: 99)))")
            case .failure(let error):
                logger.error("Event retention: pruning failed, next pass retries: \(error)")
            }
        }
        return pruner
    }

    /// What the event log's retention pruned, for the API's `410`s (also after the retention is turned off: the
    /// watermarks stay).
    private static func prunedEvents(_ store: SQLiteEventStore) -> PrunedEventsLookup {
        { tenantId, deviceId in
            try store.prunedRange(tenantId: tenantId, deviceId: deviceId).map {
                PrunedEvents(lastPrunedId: $0.lastPrunedId, oldestHeldId: $0.oldestHeldId)
            }
        }
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
}
