import Emulation
import Foundation
import Service

/// Reads a scenario from JSON, naming every invalid field (`steps[3].action`) at once.
///
/// Its extensions read each part: `+Fields` the field primitives every part uses, `+Steps` a step and its timing,
/// `+Commands` what each action does to the engine, `+Expectations` an expectation and its description.
struct ScenarioParser {
    /// Every invalid field found so far, in the order met; the extensions append to it.
    var issues: [FieldIssue] = []

    /// The scenario, and the body of `POST /v1/devices` its device is made from.
    static func parse(_ bytes: [UInt8]) throws -> (device: CreateDeviceRequest, scenario: Scenario) {
        let root: EventValue
        do {
            root = try JSONDecoder().decode(EventValue.self, from: Data(bytes))
        } catch {
            throw Problems.malformed("The scenario is not valid JSON.")
        }
        var parser = ScenarioParser()
        let scenario = parser.scenario(root)
        guard parser.issues.isEmpty, let scenario else { throw EmulationError.invalid(parser.issues) }
        return scenario
    }

    mutating func scenario(_ root: EventValue) -> (device: CreateDeviceRequest, scenario: Scenario)? {
        guard let top = object(root, "body", allowed: ["name", "description", "device", "apps", "steps", "expect", "duration"])
        else { return nil }
        let name = string(top["name"], "name") ?? ""
        if let problem = NameRule.problem(name, minimum: 0, maximum: 200) { fail("name", problem) }
        if let description = top["description"], description.stringValue == nil { fail("description", "must be a string") }

        // The device: the body of POST /v1/devices, without its name (the scenario's), on a manual clock.
        var deviceObject: [String: EventValue] = [:]
        if let value = top["device"] {
            deviceObject = object(value, "device", allowed: [
                "name", "model", "osVersion", "multitaskingSupported", "seed", "conditions", "policy", "clock",
            ]) ?? [:]
        }
        if deviceObject["name"] == nil { deviceObject["name"] = .string(String(name.prefix(100))) }
        if case .object(let clock)? = deviceObject["clock"], let mode = clock["mode"], mode != "manual" {
            fail("device.clock.mode", "must be manual: a scenario moves the clock itself")
        }
        let device = wire(CreateDeviceRequest.self, deviceObject, "device")

        var apps: [(installation: AppInstallation, behavior: AppBehavior?)] = []
        var bundleIds = Set<String>()
        if case .array(let list)? = top["apps"], !list.isEmpty, list.count <= AppRoutes.maximumApps {
            for (i, value) in list.enumerated() {
                guard case .object(let app) = value else {
                    fail("apps[\(i)]", "must be an object")
                    continue
                }
                guard let install = wire(InstallAppRequest.self, app, "apps[\(i)]") else { continue }
                do {
                    let installation = try install.installation()
                    _ = try installation.validated(installedAt: .defaultStart)
                    apps.append((installation, install.behavior))
                    if !bundleIds.insert(install.bundleId).inserted { fail("apps[\(i)].bundleId", "is installed twice") }
                } catch EmulationError.invalid(let more) {
                    issues += more.map { FieldIssue("apps[\(i)].\($0.field)", $0.message) }
                } catch {
                    fail("apps[\(i)]", "is not valid: \(error)")
                }
            }
        } else {
            fail("apps", "must be an array of 1 to \(AppRoutes.maximumApps) apps")
        }

        var steps: [ScenarioStep] = []
        var cursor = 0.0
        var end = 0.0
        if case .array(let list)? = top["steps"], list.count <= Scenario.maximumSteps {
            for (i, value) in list.enumerated() {
                if let step = step(value, index: i, cursor: &cursor, bundleIds: bundleIds) { steps.append(step) }
                end = max(end, cursor)
            }
        } else if top["steps"] != nil {
            fail("steps", "must be an array of at most \(Scenario.maximumSteps) steps")
        }

        var expectations: [ScenarioExpectation] = []
        if case .array(let list)? = top["expect"], !list.isEmpty, list.count <= Scenario.maximumExpectations {
            for (i, value) in list.enumerated() {
                if let expectation = expectation(value, index: i, bundleIds: bundleIds) {
                    expectations.append(expectation)
                    switch expectation.kind {
                    case .event(_, let window?, _, _, _): end = max(end, window.1)
                    case .state(_, _, let at): end = max(end, at)
                    default: break
                    }
                }
            }
        } else {
            fail("expect", "must be an array of 1 to \(Scenario.maximumExpectations) expectations")
        }
        if let duration = top["duration"], let seconds = seconds(duration, "duration") { end = max(end, seconds) }
        if end > Scenario.maximumDuration { fail("duration", "a scenario lasts at most \(Int(Scenario.maximumDuration)) s") }

        guard issues.isEmpty, let device else { return nil }
        return (device, Scenario(name: name, apps: apps, steps: steps, expectations: expectations, end: end))
    }
}
