import BackgroundTasks
import Foundation

/// Exports the user's photos as a continued processing task: the user taps Export, the export starts at once and
/// goes on when the user leaves the app, its progress shown by the system; if the system or the user stops it,
/// the export stops cleanly.
@available(iOS 26.0, *)
final class PhotoExporter: Sendable {
    /// The wildcard identifier in `BGTaskSchedulerPermittedIdentifiers`; each export replaces its `*`.
    static let taskIdentifierPattern = "com.example.exporter.export.*"

    let log = ExportLog()
    /// Writes one photo (resizes, encodes, saves); tests replace it with one they pace.
    private let encodePhoto: @Sendable (Int) async throws -> Void
    /// The photo count of each submitted export, by task identifier, until its task starts.
    private let jobs = Jobs()

    init(encodePhoto: @escaping @Sendable (Int) async throws -> Void = PhotoExporter.encode) {
        self.encodePhoto = encodePhoto
    }

    func registerLaunchHandler() {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.taskIdentifierPattern, using: nil) { task in
            self.export(task as! BGContinuedProcessingTask)
        }
    }

    /// The Export button: asks the system to run the export now, and to let it finish in the background.
    func exportTapped(photoCount: Int) {
        let identifier = "com.example.exporter.export.\(UUID().uuidString)"
        jobs.add(identifier, photoCount)
        let request = BGContinuedProcessingTaskRequest(
            identifier: identifier, title: "Exporting photos", subtitle: "\(photoCount) photos")
        request.strategy = .fail  // the user is waiting: start now or say so
        do {
            try BGTaskScheduler.shared.submit(request)
            log.start(identifier)
        } catch {
            jobs.take(identifier)
            log.fail("Could not start the export: \(error)")
        }
    }

    private func export(_ task: BGContinuedProcessingTask) {
        let count = jobs.take(task.identifier) ?? 0
        let stopped = StopSignal()
        task.expirationHandler = { [log] in
            stopped.stop()
            log.fail("The export was stopped")
            task.setTaskCompleted(success: false)
        }
        task.progress.totalUnitCount = Int64(count)
        Task { [log, encodePhoto] in
            for photo in 0..<count {
                do {
                    try await encodePhoto(photo)
                } catch {
                    log.fail("Photo \(photo) failed: \(error)")
                    task.setTaskCompleted(success: false)
                    return
                }
                if stopped.isStopped { return }
                task.progress.completedUnitCount += 1
                task.updateTitle("Exporting photos", subtitle: "\(photo + 1) of \(count)")
                log.photoExported()
            }
            log.finish()
            task.setTaskCompleted(success: true)
        }
    }

    /// Writes one photo: a stand-in for resizing and encoding it.
    @Sendable static func encode(_ photo: Int) async throws {
        var checksum: UInt32 = 0
        for byte in 0..<100_000 { checksum = checksum &* 31 &+ UInt32(truncatingIfNeeded: byte ^ photo) }
        _ = checksum
    }
}

/// The submitted exports' photo counts, by task identifier.
private final class Jobs: @unchecked Sendable {  // `counts` is behind `lock`
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    func add(_ identifier: String, _ count: Int) { lock.withLock { counts[identifier] = count } }
    @discardableResult
    func take(_ identifier: String) -> Int? { lock.withLock { counts.removeValue(forKey: identifier) } }
}

/// Set by the expiration handler; the export checks it between photos.
private final class StopSignal: @unchecked Sendable {  // `stopped` is behind `lock`
    private let lock = NSLock()
    private var stopped = false

    var isStopped: Bool { lock.withLock { stopped } }
    func stop() { lock.withLock { stopped = true } }
}
