import Testing
@testable import Emulation

/// The engine reads and changes an app through its `AppSlot`: the sequence that once crashed the service through
/// the slot subscript's `_read` accessor (BackgroundTaskEndEndToEndTests), at the engine's level, with the device
/// shared before each change as the service's cache shares it (each change copies, the snapshots keep their state).
@Suite struct AppSlotAccessTests {
    @Test func R13_endingEachOfFourTasksAfterASubmitInTheBackgroundLeavesEachSnapshotAsItWas() throws {
        var engine = EngineFixture.engine(apps: [EngineFixture.app(launchHandlers: [EngineFixture.refreshId])])
        let app = EngineFixture.weather
        try engine.launch(app)
        let tasks = try (0..<4).map { _ in try #require(try engine.beginBackgroundTask(app, name: nil)) }
        try engine.background(app)
        try engine.submit(app, TaskRequest(kind: .appRefresh, identifier: EngineFixture.refreshId, submittedAt: engine.now))
        var snapshots: [Device] = []  // the device shared, as the service's cache shares it: copy on write
        for task in tasks {
            snapshots.append(engine.device)
            try engine.endBackgroundTask(app, taskId: task.id)
        }
        #expect(engine.app().runtime.openTasks.isEmpty)
        #expect(snapshots.map { $0.app(app)?.runtime.openTasks.count } == [4, 3, 2, 1])
    }
}
