import Foundation
import Glibc
import Synchronization

/// The real `bgemu` executable, started on a free loopback port with its own database file.
final class LiveService {
    let databasePath: String
    let directory: URL
    private(set) var process: Process?
    private(set) var port = 0
    /// Everything the service printed so far.
    var output: String { printed.text }
    private let printed = PrintedOutput()

    static let adminToken = "e2e-admin-token"

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("bgemu-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        databasePath = directory.appendingPathComponent("bgemu.sqlite").path
    }

    deinit {
        if let process, process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        try? FileManager.default.removeItem(at: directory)
    }

    /// The built executable, next to the test bundle.
    static var executable: URL {
        let exe = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "")
        return exe.deletingLastPathComponent().appendingPathComponent("bgemu")
    }

    /// Starts the service and waits for its "listening" line; `environment` is added to the test's own.
    func start(
        adminToken: String? = LiveService.adminToken, apiKey: String? = nil, extraArguments: [String] = [],
        environment extraEnvironment: [String: String] = [:]
    ) throws {
        let process = Process()
        process.executableURL = Self.executable
        var arguments = ["serve", "--port", "0", "--database", databasePath, "--log-level", "notice", "--public-directory",
                         directory.path]
        if let adminToken { arguments += ["--admin-token", adminToken] }
        arguments += extraArguments
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["BGEMU_API_KEY"] = apiKey
        environment.removeValue(forKey: "BGEMU_ADMIN_TOKEN")
        if apiKey == nil { environment.removeValue(forKey: "BGEMU_API_KEY") }
        environment.merge(extraEnvironment) { _, new in new }
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        self.process = process
        let handle = pipe.fileHandleForReading
        let startedAt = printed.text.endIndex
        // Over as soon as the line comes; generous, for a debug binary started on a loaded machine.
        let deadline = Date().addingTimeInterval(60)
        // `availableData` blocks: a service that starts but never prints is killed, which ends the read.
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 90, execute: watchdog)
        defer { watchdog.cancel() }
        while Date() < deadline {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            printed.append(String(decoding: chunk, as: UTF8.self))
            let text = printed.text[startedAt...]
            if let range = text.range(of: #"listening on http://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                port = Int(text[range].split(separator: ":").last ?? "") ?? 0
                // Keep draining output in the background so the service never blocks on a full pipe.
                let printed = self.printed
                handle.readabilityHandler = { h in
                    let data = h.availableData
                    if !data.isEmpty { printed.append(String(decoding: data, as: UTF8.self)) }
                }
                return
            }
        }
        throw LiveServiceError.didNotStart(printed.text)
    }

    /// Waits for the process to end by itself (a test fault); answers its exit status.
    @discardableResult
    func waitForExit() -> Int32 {
        guard let process else { return -1 }
        process.waitUntilExit()
        self.process = nil
        return process.terminationStatus
    }

    /// Sends `signal` and waits for the process to exit; answers its exit status. A process still running after
    /// `timeout` seconds is killed (SIGKILL, which it cannot ignore), so that a service that does not stop fails
    /// its test instead of hanging the run.
    @discardableResult
    func stop(signal: Int32 = SIGTERM, timeout: TimeInterval = 30) -> Int32 {
        guard let process else { return -1 }
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        self.process = nil
        return process.terminationStatus  // the signal's number when one ended it
    }

    func client(key: String? = nil) -> TestClient { TestClient(port: port, key: key) }

    /// Waits until the service holds `count` event streams open, by its `bgemu_event_streams_open` gauge (scraped
    /// with the admin token), or `timeout` seconds pass; answers whether it did. A stream counts once the service
    /// has opened it, so a client that follows it (`events --follow`) is connected from then on: what happens next
    /// reaches it.
    func waitForOpenEventStreams(_ count: Int, timeout: TimeInterval = 30) -> Bool {
        let admin = client(key: Self.adminToken)
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let scrape = (try? admin.request("GET", "/metrics").text) ?? ""
            let open = scrape.split(separator: "\n").first { $0.hasPrefix("bgemu_event_streams_open ") }
                .flatMap { Double($0.dropFirst("bgemu_event_streams_open ".count)) }
            if open == Double(count) { return true }
            if Date() >= deadline { return false }
            usleep(20_000)
        }
    }

    enum LiveServiceError: Error { case didNotStart(String) }
}

/// What a service process printed, appended from the pipe's reader thread.
final class PrintedOutput: Sendable {
    private let storage = Mutex("")
    var text: String { storage.withLock { $0 } }
    func append(_ more: String) { storage.withLock { $0 += more } }
}
