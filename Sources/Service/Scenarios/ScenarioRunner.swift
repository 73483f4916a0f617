import Emulation
import Foundation
import Stores

/// Runs a scenario in-process on a fresh device of a tenant: creates it through `DeviceService.create`,
/// installs the apps, applies each step's command through `DeviceService.perform` after advancing the clock to the step's
/// time, snapshots app states at the times `state` expectations name, advances to the end, then judges the
/// expectations against the device's events as the event store recorded them. Everything is committed as an API
/// client's requests would be, so the run shows in the event log and the dashboard; the device is kept.
public struct ScenarioRunner {
    let devices: DeviceService
    /// Where the device's events are read back from, as recorded.
    let events: any EventStore
    /// How a step's error is reported (`code: detail`), or nil for an error that fails the whole run.
    let describe: (any Error) -> String?

    public init(devices: DeviceService, events: any EventStore, describe: @escaping (any Error) -> String?) {
        self.devices = devices
        self.events = events
        self.describe = describe
    }

    /// Runs `scenario` on `device`, a new device of its tenant (not yet stored).
    public func run(_ scenario: Scenario, on newDevice: Device) throws -> ScenarioReport {
        var device = newDevice
        let tenantId = device.tenantId
        device.scenario = scenario.name
        guard device.clock.anchor + .seconds(scenario.end) <= .latest else {
            throw EmulationError.invalid([FieldIssue(
                "device.clock.start", "the scenario would run the clock past \(RFC3339.format(.latest)), where it stops")])
        }
        device.clock.mode = .manual
        let created = try devices.create(device) { engine in
            engine.created()
            for (installation, behavior) in scenario.apps {
                try engine.apply(.install(installation, behavior: behavior, maximumApps: nil))
            }
        }
        let deviceId = created.id
        let start = created.clock.anchor
        var clock = 0.0

        func advance(to seconds: Double) throws {
            while clock < seconds {
                let next = min(seconds, clock + DeviceEngine.maximumAdvance.seconds)
                try devices.perform(.advance(.at(start + .seconds(next)), stopAtAppCode: false), on: deviceId, tenantId: tenantId)
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
                let now = try devices.device(deviceId, tenantId: tenantId)
                observed[checkpoint.index] = now.app(checkpoint.bundleId)?.state.rawValue ?? "notInstalled"
                nextCheckpoint += 1
            }
        }

        var stepReports: [ScenarioReport.StepReport] = []
        for step in scenario.steps {
            try takeCheckpoints(before: step.time)
            try advance(to: step.time)
            var failure: String?
            var committed: Device?
            do {
                let (device, outcome) = try devices.perform(step.command, on: deviceId, tenantId: tenantId)
                committed = device
                if let error = ScenarioStep.failure(of: outcome) { throw error }
            } catch {
                // APNs's rejection of a push is a conflict of the step, as a refusal of the engine is.
                let error = (error as? PushRejection).map { EmulationError.conflict(code: $0.reason, detail: $0.detail) } ?? error
                guard let text = describe(error) else { throw error }
                failure = text
            }
            if step.action == "advance" {
                // The committed device when the step ran; read again only when it was refused.
                let device = try committed ?? devices.device(deviceId, tenantId: tenantId)
                clock = (device.clock.anchor - start).seconds
            }
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
            let page = try events.events(
                tenantId: tenantId, filter: EventFilter(deviceId: deviceId), afterId: all.last?.id ?? 0, limit: 1_000)
            all += page
            if page.count < 1_000 { return all }
        }
    }
}
