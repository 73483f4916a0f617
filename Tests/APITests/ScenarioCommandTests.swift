import Emulation
import Foundation
import Testing
@testable import API

/// A scenario's step and the REST route that does the same give the same ``DeviceCommand`` for the same JSON: the
/// step's fields are decoded with the route's body type and give their command the same way.
@Suite struct ScenarioCommandTests {
    static let app = "com.example.weather"

    /// Each case: the step's action and extra fields (also the route's body), and the command the route builds from
    /// that body and its path.
    static let cases: [(action: String, step: String, route: @Sendable ([UInt8]) throws -> DeviceCommand)] = [
        ("launch", "", { _ in LaunchRequest.command(nil, bundleId: app) }),
        ("advance", #""seconds": 90"#, { try JSONBody.decode(AdvanceRequest.self, bytes: $0).command }),
        ("conditions", #""batteryLevel": 15, "network": "cellular", "charging": true"#, {
            try JSONBody.decode(ConditionsPatch.self, bytes: $0).command
        }),
        ("submit", #""kind": "processing", "identifier": "com.example.weather.cleanup", "earliestBeginDate": "2026-01-01T01:00:00Z", "requiresExternalPower": true"#, {
            try JSONBody.decode(SubmitTaskRequest.self, bytes: $0).command(bundleId: app)
        }),
        ("beginBackgroundTask", #""name": "upload""#, {
            BeginTaskRequest.command(try JSONBody.decode(BeginTaskRequest.self, bytes: $0), bundleId: app)
        }),
        ("fetchInterval", #""interval": "minimum""#, { try JSONBody.decode(FetchIntervalBody.self, bytes: $0).command(bundleId: app) }),
        ("urlSession", #""identifier": "bg", "discretionary": true"#, {
            try JSONBody.decode(MakeURLSessionRequest.self, bytes: $0).command(bundleId: app)
        }),
        ("location", #""latitude": 48.85, "longitude": 2.35"#, { try JSONBody.decode(LocationRequest.self, bytes: $0).command }),
    ]

    /// The step's command, parsed from a scenario with that one step.
    func stepCommand(_ action: String, _ fields: String, extra: String = "") throws -> DeviceCommand {
        let bundle = ["advance", "conditions", "location"].contains(action) ? "" : #", "bundleId": "\#(Self.app)""#
        let more = fields.isEmpty ? "" : ", " + fields
        let json = """
            {"name": "one step", "apps": [{"bundleId": "\(Self.app)"}],
             "steps": [{"at": 1, "action": "\(action)"\(bundle)\(more)\(extra)}],
             "expect": [{"state": {"bundleId": "\(Self.app)", "is": "active", "at": 2}}]}
            """
        let scenario = try ScenarioParser.parse(Array(json.utf8))
        return try #require(scenario.scenario.steps.first).command
    }

    @Test(arguments: cases.indices)
    func aStepAndItsRouteGiveTheSameCommand(_ index: Int) throws {
        let (action, fields, route) = Self.cases[index]
        let body = Array("{\(fields)}".utf8)
        #expect(try stepCommand(action, fields) == (try route(body)), "\(action)")
    }

    @Test func aTransferStepIsTheRouteOfItsSession() throws {
        let fields = #""kind": "download", "bytes": 1000, "earliestBeginDate": "2026-01-01T00:05:00Z""#
        let route = try JSONBody.decode(EnqueueTransferRequest.self, bytes: Array("{\(fields)}".utf8))
            .command(bundleId: Self.app, session: "bg")
        #expect(try stepCommand("transfer", fields, extra: #", "session": "bg""#) == route)
    }

    @Test func anActivityStepIsTheRouteOfItsActivity() throws {
        let route = try JSONBody.decode(SetActivityRequest.self, bytes: Array(#"{"active": true}"#.utf8)).command(bundleId: Self.app, .audio)
        #expect(try stepCommand("activity", #""active": true"#, extra: #", "activity": "audio""#) == route)
    }

    @Test func aCompleteRunStepCompletesTheLatestOpenRunWithTheRoutesResult() throws {
        let route = try JSONBody.decode(CompleteRunRequest.self, bytes: Array(#"{"result": "newData"}"#.utf8))
        let step = try stepCommand("completeRun", #""result": "newData", "identifier": "com.example.weather.refresh""#)
        #expect(step == route.command(bundleId: Self.app, .latestOpen(runId: nil, identifier: "com.example.weather.refresh")))
    }
}
