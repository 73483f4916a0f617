import Foundation
import Testing
@testable import HTTPServer

/// The server's threads carry names (what `top -H`, `ps -L` and a profiler show): its loops and its workers.
@Suite struct ThreadNameTests {
    /// The names of this process's threads, from /proc.
    private func threadNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").compactMap { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .newlines)
        }
    }

    @Test func theLoopsAndTheWorkersAreNamed() throws {
        let server = try CoreTestServer(configure: { $0.offloadKey = { _ in "k" } }) { _, _ in HTTPResponse() }
        defer { server.stop() }
        // The threads name themselves as they start.
        #expect(coreWaitUntil { (try? threadNames().contains("http-loop-0")) == true }, "\((try? threadNames()) ?? [])")
        #expect(coreWaitUntil { (try? threadNames().contains("http-worker-0")) == true }, "\((try? threadNames()) ?? [])")
    }
}
