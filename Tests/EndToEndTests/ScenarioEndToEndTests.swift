import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `bgemu scenario run` against the real service: every file of `Examples/scenarios/` passes and the JUnit
/// report is well-formed; a failing expectation makes the command exit 1 and shows in the report.
@Suite(.serialized) struct ScenarioEndToEndTests {
    static let key = "scenario-e2e-key-0123456789"

    static var examples: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/scenarios")
    }

    /// Runs `bgemu scenario run` and answers its exit status and output.
    func runCLI(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = LiveService.executable
        process.arguments = ["scenario", "run"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "BGEMU_API_KEY")
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test func everyExampleRunsGreenWithAJUnitReport() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        defer { service.stop() }
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.examples.path)
            .filter { $0.hasSuffix(".json") }.sorted().map { Self.examples.appendingPathComponent($0).path }
        #expect(files.count >= 7)
        let junit = service.directory.appendingPathComponent("junit.xml")
        let (status, output) = try runCLI(
            files + ["--server", "http://127.0.0.1:\(service.port)", "--api-key", Self.key, "--junit", junit.path])
        #expect(status == 0, "\(output)")
        #expect(output.contains("\(files.count) of \(files.count) scenarios passed."), "\(output)")

        let document = try XMLDocument(contentsOf: junit)
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        #expect(root.attribute(forName: "failures")?.stringValue == "0")
        #expect(root.attribute(forName: "errors")?.stringValue == "0")
        let suites = root.elements(forName: "testsuite")
        #expect(suites.count == files.count)
        for suite in suites {
            let cases = suite.elements(forName: "testcase")
            #expect(!cases.isEmpty)
            #expect(suite.attribute(forName: "tests")?.stringValue == String(cases.count))
            #expect(cases.allSatisfy { $0.elements(forName: "failure").isEmpty })
        }
    }

    @Test func aFailingExpectationExitsOneAndIsAJUnitFailure() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        defer { service.stop() }
        let file = service.directory.appendingPathComponent("failing.json")
        try Data(#"""
            {"name": "never suspended", "apps": [{"bundleId": "com.example.a"}],
             "steps": [{"at": 0, "action": "launch", "bundleId": "com.example.a"},
                       {"at": 1, "action": "background", "bundleId": "com.example.a"}],
             "expect": [{"state": {"bundleId": "com.example.a", "is": "background", "at": 120}},
                        {"event": {"type": "app.stateChanged", "data": {"to": "background"}}, "within": [0, 5]}]}
            """#.utf8).write(to: file)
        let junit = service.directory.appendingPathComponent("junit.xml")
        let (status, output) = try runCLI(
            [file.path, "--server", "http://127.0.0.1:\(service.port)", "--api-key", Self.key, "--junit", junit.path])
        #expect(status == 1, "\(output)")
        #expect(output.contains("expected background"), "\(output)")
        let root = try #require(try XMLDocument(contentsOf: junit).rootElement())
        #expect(root.attribute(forName: "failures")?.stringValue == "1")
        let cases = root.elements(forName: "testsuite").first?.elements(forName: "testcase") ?? []
        #expect(cases.count == 2)
        #expect(cases.first?.elements(forName: "failure").count == 1)

        // A scenario the service refuses (422) is an error: exit 2.
        try Data(#"{"name": "bad", "apps": [], "expect": []}"#.utf8).write(to: file)
        let refused = try runCLI([file.path, "--server", "http://127.0.0.1:\(service.port)", "--api-key", Self.key])
        #expect(refused.status == 2, "\(refused.output)")
    }
}
