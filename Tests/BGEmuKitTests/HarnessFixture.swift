import Foundation
@testable import BGEmuKit

/// A device on the fake service with one app (`com.example.news` unless told), permitted `…refresh` and `…cleanup`.
/// Its co-simulated time is off unless a budget is given (`realTimeBudget: .zero`): the fake service never expires
/// a run, so the tests of the harness's dispatching play their never-completed runs without waiting real time; the
/// co-simulation's own tests give a budget.
struct HarnessFixture {
    static let refresh = "com.example.news.refresh"
    static let cleanup = "com.example.news.cleanup"

    let service = FakeRemoteDevice()
    let device: EmulatedDevice
    let app: EmulatedApp

    init(bundleId: String = "com.example.news", realTimeBudget: Duration = .zero) async throws {
        device = try EmulatedDevice(service: service)
        device.realTimeBudget = realTimeBudget
        app = try await device.install(
            bundleId: bundleId, backgroundModes: ["fetch", "processing"],
            permittedIdentifiers: [Self.refresh, Self.cleanup])
    }

    /// A `run.started` the next advance plays.
    func scriptRun(_ runId: String, kind: String, identifier: String?) {
        service.script.append([("run.started", app.bundleId, [
            "runId": .string(runId), "kind": .string(kind), "identifier": identifier.map(JSONValue.string) ?? .null,
            "launchedApp": .bool(false),
        ])])
    }
}

/// A value app code writes from its handlers, read by the test.
final class Recorder<Value>: @unchecked Sendable {
    // @unchecked Sendable: `values` is behind `lock`.
    private let lock = NSLock()
    private var values: [Value] = []
    func append(_ value: Value) { lock.withLock { values.append(value) } }
    var all: [Value] { lock.withLock { values } }
}
