import Foundation
import Glibc

/// Runs the real `bgemu` executable as a subprocess, as a user types it: arguments, environment, standard input;
/// answers its exit status and what it printed on each stream.
struct CommandLineRunner {
    /// The environment every run starts from: the test process's, without bgemu's variables.
    var environment: [String: String] = {
        var environment = ProcessInfo.processInfo.environment
        for name in ["BGEMU_URL", "BGEMU_SERVER", "BGEMU_API_KEY", "BGEMU_ADMIN_TOKEN", "BGEMU_DATABASE"] {
            environment.removeValue(forKey: name)
        }
        return environment
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Standard output's lines, without the empty last one.
        var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty } }
    }

    /// Runs `bgemu arguments…` to its end, with `input` as standard input (empty when nil).
    func run(_ arguments: [String], input: [UInt8]? = nil, extraEnvironment: [String: String] = [:]) throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bgemu-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("stdout"), err = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = LiveService.executable
        process.arguments = arguments
        process.environment = environment.merging(extraEnvironment) { _, new in new }
        let stdout = try FileHandle(forWritingTo: out), stderr = try FileHandle(forWritingTo: err)
        process.standardOutput = stdout
        process.standardError = stderr
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(Data(input ?? []))
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        try stdout.close()
        try stderr.close()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }

    /// Starts `bgemu arguments…` and leaves it running; its standard output is collected as it comes.
    func start(_ arguments: [String]) throws -> RunningCommand {
        let process = Process()
        process.executableURL = LiveService.executable
        process.arguments = arguments
        process.environment = environment
        let pipe = Pipe(), errors = Pipe()
        process.standardOutput = pipe
        process.standardError = errors
        let printed = PrintedOutput(), complaints = PrintedOutput()
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if !data.isEmpty { printed.append(String(decoding: data, as: UTF8.self)) }
        }
        errors.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if !data.isEmpty { complaints.append(String(decoding: data, as: UTF8.self)) }
        }
        try process.run()
        return RunningCommand(process: process, printed: printed, complaints: complaints, pipes: [pipe, errors])
    }

    /// The fixtures folder of the repository (`Tests/Fixtures`).
    static var fixtures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
    }
}

/// A `bgemu` subprocess still running (`events --follow`), with what it printed so far.
final class RunningCommand {
    let process: Process
    let printed: PrintedOutput
    let complaints: PrintedOutput
    private let pipes: [Pipe]

    init(process: Process, printed: PrintedOutput, complaints: PrintedOutput, pipes: [Pipe]) {
        self.process = process
        self.printed = printed
        self.complaints = complaints
        self.pipes = pipes
    }

    deinit { stop() }

    /// Standard output's complete lines so far.
    var lines: [String] {
        let text = printed.text
        let complete = text.hasSuffix("\n") ? text : String(text[..<(text.lastIndex(of: "\n") ?? text.startIndex)])
        return complete.split(separator: "\n").map(String.init)
    }

    /// Waits until `condition` holds for the lines printed, or `timeout` seconds pass; answers whether it held
    /// (as soon as it holds: the default is generous, for a loaded machine).
    func wait(timeout: Double = 30, until condition: ([String]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(lines) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return condition(lines)
    }

    /// Interrupts it as Ctrl-C does (SIGINT) and waits for it to end, killing it after 30 s; answers its
    /// termination status.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning {
            kill(process.processIdentifier, SIGINT)
            let deadline = Date().addingTimeInterval(30)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        for pipe in pipes { pipe.fileHandleForReading.readabilityHandler = nil }
        return process.terminationStatus
    }
}
