import Emulation
import Foundation

/// Runs a scenario in-process on a fresh device of the tenant: creates it through `DeviceService.create`,
/// installs the apps, applies each step through `DeviceService.perform` after advancing the clock to the step's
/// time, snapshots app states at the times `state` expectations name, advances to the end, then judges the
/// expectations against the device's events as the event store recorded them. Everything is committed as an API
/// client's requests would be, so the run shows in the event log and the dashboard; the device is kept.
struct ScenarioRunner {
    let env: APIEnvironment

    func run(_ scenario: Scenario, tenantId: String) throws -> ScenarioReport {
        var device: Device
        do {
            device = try DeviceRoutes.makeDevice(scenario.device, tenantId: tenantId, env)
            device.scenario = scenario.name
        } catch EmulationError.invalid(let issues) {
            throw EmulationError.invalid(issues.map { FieldIssue("device.\($0.field)", $0.message) })
        }
        guard device.clock.anchor + .seconds(scenario.end) <= .latest else {
            throw EmulationError.invalid([FieldIssue(
                "device.clock.start", "the scenario would run the clock past \(RFC3339.format(.latest)), where it stops")])
        }
        device.clock.mode = .manual
        let created = try env.devices.create(device) { engine in
            engine.created()
            for (installation, behavior) in scenario.apps {
                var app = try installation.validated(installedAt: engine.now)
                app.behavior = behavior
                try engine.install(app)
            }
        }
        let deviceId = created.id
        let start = created.clock.anchor
        var clock = 0.0

        func advance(to seconds: Double) throws {
            while clock < seconds {
                let next = min(seconds, clock + DeviceEngine.maximumAdvance.seconds)
                try env.devices.perform(deviceId, tenantId: tenantId) { engine in
                    try engine.advance(to: start + .seconds(next))
                }
                clock = next
            }
        }

        // State checkpoints, in time order (ties in the order written).
        var checkpoints: [(time: Double, index: Int, bundleId: String)] = scenario.expectations.compactMap {
            if case .state(let bundleId, _, let at) = $0.kind { (at, $0.index, bundleId) } else { nil }
        }
        checkpoints.sort { ($0.time, $0.index) < ($1.time, $1.index) }
        var observed: [Int: String] = [:]
        var nextCheckpoint = 0
        func takeCheckpoints(before time: Double?) throws {
            while nextCheckpoint < checkpoints.count, time.map({ checkpoints[nextCheckpoint].time < $0 }) ?? true {
                let checkpoint = checkpoints[nextCheckpoint]
                try advance(to: checkpoint.time)
                let now = try env.devices.device(deviceId, tenantId: tenantId)
                observed[checkpoint.index] = now.app(checkpoint.bundleId)?.state.rawValue ?? "notInstalled"
                nextCheckpoint += 1
            }
        }

        var stepReports: [ScenarioReport.StepReport] = []
        for step in scenario.steps {
            try takeCheckpoints(before: step.time)
            try advance(to: step.time)
            var failure: String?
            do {
                try env.devices.perform(deviceId, tenantId: tenantId, step.command)
            } catch {
                guard let problem = Problems.problem(for: error), problem.status.code < 500 else { throw error }
                failure = "\(problem.code ?? "error"): \(problem.detail ?? problem.title)"
            }
            if step.action == "advance" { clock = (try env.devices.device(deviceId, tenantId: tenantId).clock.anchor - start).seconds }
            stepReports.append(.init(
                index: step.index, action: step.action, bundleId: step.bundleId, at: step.time, ok: failure == nil || step.mayFail,
                error: failure))
        }
        try takeCheckpoints(before: nil)
        try advance(to: scenario.end)

        let events = try recordedEvents(deviceId: deviceId, tenantId: tenantId)
        let expectations = scenario.expectations.map { judge($0, events: events, start: start, observed: observed) }
        return ScenarioReport(
            scenario: scenario.name, deviceId: deviceId,
            passed: expectations.allSatisfy(\.passed) && stepReports.allSatisfy(\.ok),
            duration: scenario.end, steps: stepReports, expectations: expectations)
    }

    /// Every event of the device, oldest first.
    private func recordedEvents(deviceId: String, tenantId: String) throws -> [RecordedEvent] {
        var all: [RecordedEvent] = []
        while true {
            let page = try env.events.store.events(
                tenantId: tenantId, filter: EventFilter(deviceId: deviceId), afterId: all.last?.id ?? 0, limit: 1_000)
            all += page
            if page.count < 1_000 { return all }
        }
    }

    /// How many events a report shows per expectation at most.
    static let shownEvents = 20

    private func judge(
        _ expectation: ScenarioExpectation, events: [RecordedEvent], start: VirtualInstant, observed: [Int: String]
    ) -> ScenarioReport.ExpectationReport {
        func seconds(_ recorded: RecordedEvent) -> Double { (recorded.event.at - start).seconds }
        func shown(_ list: [RecordedEvent]) -> [ScenarioReport.EventReport] {
            list.prefix(Self.shownEvents).map { ScenarioReport.EventReport($0, seconds: seconds($0)) }
        }
        switch expectation.kind {
        case .event(let matcher, let window, let count, let atLeast, let absent):
            let inWindow = events.filter { recorded in
                guard let window else { return true }
                let t = seconds(recorded)
                return t >= window.0 && t <= window.1
            }
            let matching = inWindow.filter { matcher.matches($0.event) }
            let found = matching.count
            let passed: Bool
            let wanted: String
            if absent {
                passed = found == 0
                wanted = "none"
            } else if let count {
                passed = found == count
                wanted = "exactly \(count)"
            } else {
                let least = atLeast ?? 1
                passed = found >= least
                wanted = "at least \(least)"
            }
            var message = "\(found) matching event\(found == 1 ? "" : "s"), expected \(wanted)"
            if let window { message += " within [\(format(window.0)), \(format(window.1))] s" }
            var deciding = matching
            if found == 0, !passed {
                // Near misses: the events of that type (anywhere in time), to show why none matched.
                deciding = events.filter { $0.event.type.rawValue == matcher.type }
                message += deciding.isEmpty
                    ? "; no \(matcher.type) event at all"
                    : "; \(deciding.count) \(matcher.type) event\(deciding.count == 1 ? "" : "s") did not match (shown)"
            }
            return .init(index: expectation.index, description: expectation.description, passed: passed, message: message,
                         events: shown(deciding))
        case .state(let bundleId, let state, let at):
            let actual = observed[expectation.index] ?? "unknown"
            let passed = actual == state
            let deciding = events.last { recorded in
                recorded.event.bundleId == bundleId && recorded.event.type == .appStateChanged && seconds(recorded) <= at
            }
            return .init(
                index: expectation.index, description: expectation.description, passed: passed,
                message: passed ? "\(bundleId) is \(actual) at \(format(at)) s" : "\(bundleId) is \(actual) at \(format(at)) s, expected \(state)",
                events: shown(deciding.map { [$0] } ?? []))
        }
    }
}

/// The answer of `POST /v1/scenarios/run`.
struct ScenarioReport: Encodable, Sendable {
    var scenario: String
    var deviceId: String
    var passed: Bool
    /// The virtual seconds the run lasted.
    var duration: Double
    var steps: [StepReport]
    var expectations: [ExpectationReport]

    struct StepReport: Encodable, Sendable {
        var index: Int
        var action: String
        @ExplicitNull var bundleId: String?
        var at: Double
        var ok: Bool
        @ExplicitNull var error: String?
    }

    struct ExpectationReport: Encodable, Sendable {
        var index: Int
        var description: String
        var passed: Bool
        var message: String
        var events: [EventReport]
    }

    /// An event as the report shows it: the event log's fields and `t`, seconds since the scenario's start.
    struct EventReport: Encodable, Sendable {
        var id: Int64
        var type: String
        @ExplicitNull var bundleId: String?
        var at: String
        var t: Double
        var data: [String: EventValue]

        init(_ recorded: RecordedEvent, seconds: Double) {
            id = recorded.id
            type = recorded.event.type.rawValue
            bundleId = recorded.event.bundleId
            at = RFC3339.format(recorded.event.at)
            t = seconds
            data = recorded.event.data
        }
    }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
