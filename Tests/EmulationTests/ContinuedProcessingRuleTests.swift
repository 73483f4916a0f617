import Foundation
import Testing
@testable import Emulation

/// R41: continued processing tasks (`BGContinuedProcessingTaskRequest`, iOS 26).
struct ContinuedProcessingRuleTests {
    let app = EngineFixture.weather
    static let pattern = "com.example.weather.export.*"
    let export1 = "com.example.weather.export.1"
    let export2 = "com.example.weather.export.2"

    func engine(os: String = "26.0", identifiers: [String] = [pattern], launchHandlers: [String]? = nil) -> DeviceEngine {
        EngineFixture.engine(os: os, apps: [EngineFixture.app(modes: [], identifiers: identifiers, launchHandlers: launchHandlers)])
    }

    func request(_ engine: DeviceEngine, _ id: String, strategy: ContinuedProcessingStrategy = .queue) -> TaskRequest {
        TaskRequest(
            kind: .continuedProcessing, identifier: id, submittedAt: engine.now,
            continued: ContinuedProcessingOptions(title: "Exporting", subtitle: "0 of 10", strategy: strategy))
    }

    func refusal(_ body: () throws -> Void) -> String? {
        do { try body() } catch EmulationError.refused(let code, _) { return code } catch { return "other: \(error)" }
        return nil
    }

    func openRun(_ engine: DeviceEngine) throws -> Run { try #require(engine.app().runtime.runs.last { $0.isOpen }) }

    @Test func R41_aForegroundSubmitStartsAtOnceWithoutAnyBackgroundMode() throws {
        var engine = engine()
        try engine.launch(app)
        try engine.submit(app, request(engine, export1))
        let started = try #require(engine.events(.runStarted).first)
        #expect(started.data["kind"] == "continuedProcessing")
        #expect(started.data["reason"] == "submitted")
        #expect(started.data["identifier"] == .string(export1))
        #expect(started.data["title"] == "Exporting")
        #expect(engine.app().runtime.taskRequests.isEmpty)
        #expect(try openRun(engine).progress?.completedUnitCount == 0)
    }

    @Test func R41_itContinuesInTheBackgroundWhileItsProgressAdvancesAndCompletes() throws {
        var engine = engine()
        try engine.launch(app)
        try engine.submit(app, request(engine, export1))
        let runId = try openRun(engine).id
        try engine.background(app)
        for step in 1...5 {
            try engine.advance(seconds: 50)
            try engine.reportProgress(app, runId: runId, completedUnitCount: Int64(step), totalUnitCount: 5)
        }
        // 250 s in the background, far past one stall limit: still running, the app not suspended.
        #expect(try openRun(engine).state == .running)
        #expect(engine.app().state == .background)
        #expect(engine.events(.runExpiring).isEmpty)
        try engine.completeRun(app, runId: runId, result: .success)
        #expect(engine.events(.runCompleted).last?.data["result"] == "success")
        #expect(engine.app().state == .suspended)
    }

    @Test func R41_aRunWhoseProgressStallsExpiresAndTheWatchdogEndsTheApp() throws {
        var engine = engine()
        try engine.launch(app)
        try engine.submit(app, request(engine, export1))
        let runId = try openRun(engine).id
        try engine.background(app)
        try engine.advance(seconds: 30)
        try engine.reportProgress(app, runId: runId, completedUnitCount: 1, totalUnitCount: 10)
        // Reports that do not advance the count leave the deadline where the last advance put it.
        try engine.advance(seconds: 30)
        try engine.reportProgress(app, runId: runId, completedUnitCount: 1, totalUnitCount: 10, title: "Still exporting")
        #expect(engine.events(.runProgress).last?.data["advanced"] == false)
        try engine.advance(seconds: 29)
        #expect(engine.events(.runExpiring).isEmpty)
        try engine.advance(seconds: 1)
        let expiring = try #require(engine.events(.runExpiring).first)
        #expect(engine.seconds(of: expiring) == 90)
        #expect(expiring.data["reason"] == "deadline")
        try engine.advance(seconds: 5)
        #expect(engine.events(.runExpired).first?.data["runId"] == .string(runId))
        #expect(engine.events(.appTerminated).last?.data["terminationCode"] == "0x8badf00d")
        #expect(engine.app().state == .notRunning)
    }

    @Test func R41_aReportUpdatesTheTitleAndSubtitle() throws {
        var engine = engine()
        try engine.launch(app)
        try engine.submit(app, request(engine, export1))
        let runId = try openRun(engine).id
        let run = try engine.reportProgress(app, runId: runId, completedUnitCount: 3, totalUnitCount: 10, title: "Exporting", subtitle: "3 of 10")
        #expect(run.progress?.subtitle == "3 of 10")
        #expect(run.progress?.totalUnitCount == 10)
        #expect(run.deadline == engine.now + DeviceEngine.continuedProcessingStallLimit)
    }

    @Test func R41_submittedOutsideTheForegroundItIsIneligibleWhateverTheStrategy() throws {
        for strategy in ContinuedProcessingStrategy.allCases {
            var engine = engine()
            try engine.launch(app)
            try engine.background(app)
            #expect(refusal { try engine.submit(app, request(engine, export1, strategy: strategy)) } == "immediateRunIneligible")
            #expect(engine.events(.runStarted).isEmpty)
        }
    }

    @Test func R41_withoutRoomFailIsIneligibleAndQueueWaitsForTheRunningTask() throws {
        var engine = engine()
        try engine.launch(app)
        try engine.submit(app, request(engine, export1))
        #expect(refusal { try engine.submit(app, request(engine, export2, strategy: .fail)) } == "immediateRunIneligible")
        try engine.submit(app, request(engine, export2, strategy: .queue))
        #expect(engine.app().runtime.taskRequests.map(\.identifier) == [export2])
        #expect(engine.events(.taskRequestSubmitted).last?.data["queued"] == true)
        try engine.completeRun(app, runId: try openRun(engine).id, result: .success)
        let next = try #require(engine.events(.runStarted).last)
        #expect(next.data["identifier"] == .string(export2))
        #expect(next.data["reason"] == "queued")
        #expect(engine.app().runtime.taskRequests.isEmpty)
    }

    @Test func R41_aForceQuitDropsTheQueuedRequests() throws {
        var engine = engine()
        try engine.launch(app)
        try engine.submit(app, request(engine, export1))
        try engine.submit(app, request(engine, export2))
        try engine.forceQuit(app)
        #expect(engine.app().runtime.taskRequests.isEmpty)
        #expect(engine.events(.taskRequestCancelled).last?.data["reason"] == "forceQuit")
    }

    @Test func R41_theIdentifierMatchesAWildcardOfTheAppsBundleId() throws {
        var engine = engine(identifiers: [Self.pattern, "com.other.export.*", "com.example.weather.plain"])
        try engine.launch(app)
        #expect(refusal { try engine.submit(app, request(engine, "com.example.weather.export")) } == "notPermitted")
        #expect(refusal { try engine.submit(app, request(engine, "com.example.weather.export.")) } == "notPermitted")
        #expect(refusal { try engine.submit(app, request(engine, "com.other.export.1")) } == "notPermitted")
        #expect(refusal { try engine.submit(app, request(engine, "com.example.weather.plain")) } == "notPermitted")
        try engine.submit(app, request(engine, export1))
        #expect(engine.events(.runStarted).count == 1)
    }

    @Test func R41_theLaunchHandlerIsRegisteredForTheWildcardElseTheAppCrashes() throws {
        var engine = engine(launchHandlers: [])
        try engine.launch(app)
        #expect(refusal { try engine.submit(app, request(engine, export1)) } == "noLaunchHandler")
        #expect(engine.app().state == .notRunning)
    }

    @Test func R41_beforeIOS26ItIsUnavailable() throws {
        var engine = engine(os: "18.0")
        try engine.launch(app)
        #expect(refusal { try engine.submit(app, request(engine, export1)) } == "unavailable")
    }

    @Test func R41_theUserCancelsTheTaskAndItsExpirationHandlerIsCalled() throws {
        var engine = engine()
        try engine.launch(app)
        try engine.submit(app, request(engine, export1))
        let runId = try openRun(engine).id
        try engine.background(app)
        try engine.advance(seconds: 40)  // past the background allowance (R9): only the task holds the app
        try engine.reportProgress(app, runId: runId, completedUnitCount: 1, totalUnitCount: 10)
        let run = try engine.cancelContinuedProcessing(app, runId: runId)
        #expect(run.state == .expiring)
        #expect(engine.events(.runExpiring).last?.data["reason"] == "userCancelled")
        try engine.completeRun(app, runId: runId, result: .failure)
        #expect(engine.events(.runCompleted).last?.data["afterExpiration"] == true)
        #expect(engine.app().state == .suspended)
    }

    @Test func R41_onlyAContinuedRunReportsProgress() throws {
        var engine = EngineFixture.engine(os: "26.0")
        try engine.launch(app)
        try engine.submit(app, TaskRequest(kind: .appRefresh, identifier: EngineFixture.refreshId, submittedAt: engine.now))
        let run = try engine.simulateLaunch(app, identifier: EngineFixture.refreshId)
        #expect(throws: EmulationError.self) {
            try engine.reportProgress(app, runId: run.id, completedUnitCount: 1, totalUnitCount: 2)
        }
    }

    @Test func R41_aRunsProgressSurvivesTheDeviceDocument() throws {
        var engine = engine()
        try engine.launch(app)
        try engine.submit(app, request(engine, export1))
        let run = try engine.reportProgress(app, runId: try openRun(engine).id, completedUnitCount: 2, totalUnitCount: 4)
        let data = try JSONEncoder().encode(run)
        #expect(try JSONDecoder().decode(Run.self, from: data) == run)
        let pending = request(engine, export2)
        #expect(try JSONDecoder().decode(TaskRequest.self, from: JSONEncoder().encode(pending)) == pending)
    }
}
