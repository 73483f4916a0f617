import Emulation
import Foundation

/// A scenario file, validated: a device, its apps, a timeline of steps and expectations on what happened.
///
/// Times are seconds of virtual time since the device's start. A step's parameters are the JSON body of the REST
/// route that does the same thing (`submit` takes `{kind, identifier}` as `POST …/task-requests` does), so that
/// a scenario reads like the requests a client would send.
struct Scenario: Sendable {
    var name: String
    var device: CreateDeviceRequest
    var apps: [(installation: AppInstallation, behavior: AppBehavior?)]
    var steps: [ScenarioStep]
    var expectations: [ScenarioExpectation]
    /// Seconds the run lasts at least: the clock is advanced to the latest time the scenario names.
    var end: Double

    /// The longest scenario (30 days of virtual time, the longest single advance): a run holds an event loop
    /// thread, and a month of a busy device is already a few hundred milliseconds of work.
    static let maximumDuration: Double = DeviceEngine.maximumAdvance.seconds
    static let maximumSteps = 1_000
    static let maximumExpectations = 1_000
}

struct ScenarioStep: Sendable {
    var index: Int
    var action: String
    var bundleId: String?
    /// When it happens, in seconds since the start.
    var time: Double
    /// Whether an error of the command is expected (it is reported, but fails nothing).
    var mayFail: Bool
    var command: @Sendable (inout DeviceEngine) throws -> Void
}

struct ScenarioExpectation: Sendable {
    enum Kind: Sendable {
        case event(ScenarioEventMatcher, window: (Double, Double)?, count: Int?, atLeast: Int?, absent: Bool)
        case state(bundleId: String, state: String, at: Double)
    }
    var index: Int
    var description: String
    var kind: Kind
}

/// Which events an expectation looks for: the type, the app, and a subset of `data`.
struct ScenarioEventMatcher: Sendable {
    var type: String
    var bundleId: String?
    var data: [String: EventValue]

    func matches(_ event: EmulationEvent) -> Bool {
        guard event.type.rawValue == type else { return false }
        if let bundleId, event.bundleId != bundleId { return false }
        return data.allSatisfy { key, expected in event.data[key].map { Self.contains($0, expected) } ?? false }
    }

    /// Whether `actual` holds `expected`: objects by subset, arrays and scalars equal, numbers by value.
    static func contains(_ actual: EventValue, _ expected: EventValue) -> Bool {
        switch (actual, expected) {
        case (.object(let a), .object(let e)):
            return e.allSatisfy { key, value in a[key].map { contains($0, value) } ?? false }
        case (.array(let a), .array(let e)):
            return a.count == e.count && zip(a, e).allSatisfy { contains($0, $1) }
        case (.int(let a), .double(let e)): return Double(a) == e
        case (.double(let a), .int(let e)): return a == Double(e)
        default: return actual == expected
        }
    }
}

/// Reads a scenario from JSON, naming every invalid field (`steps[3].action`) at once.
struct ScenarioParser {
    private(set) var issues: [FieldIssue] = []

    static func parse(_ bytes: [UInt8]) throws -> Scenario {
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

    private mutating func fail(_ field: String, _ message: String) { issues.append(FieldIssue(field, message)) }

    private mutating func object(_ value: EventValue?, _ field: String, allowed: Set<String>) -> [String: EventValue]? {
        guard case .object(let object) = value else {
            fail(field, "must be an object")
            return nil
        }
        for key in object.keys.sorted() where !allowed.contains(key) {
            fail(field == "body" ? key : "\(field).\(key)", "is not a known field; known fields: \(allowed.sorted().joined(separator: ", "))")
        }
        // A field given as null is absent, as in every request body.
        return object.filter { $0.value != .null }
    }

    private mutating func seconds(_ value: EventValue?, _ field: String) -> Double? {
        let number: Double?
        switch value {
        case .int(let n)?: number = Double(n)
        case .double(let d)?: number = d
        default: number = nil
        }
        guard let number, number >= 0, number <= Scenario.maximumDuration, number.isFinite else {
            fail(field, "must be a number of seconds from 0 to \(Int(Scenario.maximumDuration))")
            return nil
        }
        return number
    }

    private mutating func string(_ value: EventValue?, _ field: String, required: Bool = true) -> String? {
        guard let value else {
            if required { fail(field, "is required") }
            return nil
        }
        guard case .string(let text) = value, !text.isEmpty else {
            fail(field, "must be a non-empty string")
            return nil
        }
        return text
    }

    /// Decodes `value` as one of the API's request bodies, naming its fields under `prefix`.
    private mutating func wire<T: Decodable>(_ type: T.Type, _ value: [String: EventValue], _ prefix: String) -> T? {
        do {
            return try JSONDecoder().decode(T.self, from: try JSONEncoder().encode(EventValue.object(value)))
        } catch EmulationError.invalid(let more) {
            issues += more.map { FieldIssue("\(prefix).\($0.field)", $0.message) }
        } catch let error as DecodingError {
            let problem = JSONBody.problem(for: error)
            for field in problem.errors ?? [] { fail("\(prefix).\(field.field)", field.message) }
            if problem.errors?.isEmpty ?? true { fail(prefix, problem.detail ?? "is not valid") }
        } catch {
            fail(prefix, "is not valid: \(error)")
        }
        return nil
    }

    mutating func scenario(_ root: EventValue) -> Scenario? {
        guard let top = object(root, "body", allowed: ["name", "description", "device", "apps", "steps", "expect", "duration"])
        else { return nil }
        let name = string(top["name"], "name") ?? ""
        if name.codePointCount > 200 { fail("name", "must be at most 200 characters") }
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
        return Scenario(name: name, device: device, apps: apps, steps: steps, expectations: expectations, end: end)
    }

    /// The keys every step may have besides its action's own.
    static let commonStepKeys: Set<String> = ["at", "after", "action", "bundleId", "note", "mayFail"]

    /// Each action: whether it names an app, the step keys it reads itself, and the keys passed to its request body.
    static let actions: [String: (needsApp: Bool, own: Set<String>, body: Set<String>)] = [
        "launch": (true, [], []), "background": (true, [], []), "foreground": (true, [], []),
        "forceQuit": (true, [], []), "terminate": (true, [], []), "reboot": (false, [], []),
        "advance": (false, ["seconds"], []),
        "conditions": (false, [], ConditionsPatch.fields),
        "policy": (false, ["policy"], []),
        "submit": (true, [], ["kind", "identifier", "earliestBeginDate", "requiresNetworkConnectivity", "requiresExternalPower"]),
        "cancelTaskRequest": (true, ["identifier"], []),
        "simulateLaunch": (true, ["identifier"], []), "simulateExpiration": (true, ["identifier"], []),
        "completeRun": (true, ["runId", "identifier"], ["success", "result"]),
        "beginBackgroundTask": (true, [], ["name"]),
        "endBackgroundTask": (true, ["taskId", "name"], []),
        "push": (false, ["payload", "pushType", "topic", "priority", "expiration", "collapseId"], []),
        "fetchInterval": (true, [], ["interval"]),
        "settings": (true, ["backgroundAppRefresh"], []),
        "urlSession": (true, [], ["identifier", "discretionary", "sessionSendsLaunchEvents"]),
        "transfer": (true, ["session"], ["kind", "bytes", "earliestBeginDate", "countOfBytesClientExpectsToReceive"]),
        "finishEvents": (true, ["session"], []),
        "activity": (true, ["activity"], ["active", "keepAliveInterval"]),
        "location": (false, [], ["latitude", "longitude"]),
    ]

    private mutating func step(_ value: EventValue, index i: Int, cursor: inout Double, bundleIds: Set<String>) -> ScenarioStep? {
        let field = "steps[\(i)]"
        guard case .object(let raw) = value else {
            fail(field, "must be an object")
            return nil
        }
        guard let action = string(raw["action"], "\(field).action") else { return nil }
        guard let spec = Self.actions[action] else {
            fail("\(field).action", "must be one of \(Self.actions.keys.sorted().joined(separator: ", "))")
            return nil
        }
        guard let step = object(value, field, allowed: Self.commonStepKeys.union(spec.own).union(spec.body)) else { return nil }

        var time = cursor
        switch (step["at"], step["after"]) {
        case (let at?, nil):
            if let at = seconds(at, "\(field).at") {
                if at < cursor { fail("\(field).at", "is before the previous step (\(cursor) s): steps run in time order") }
                time = at
            }
        case (nil, let after?):
            if let after = seconds(after, "\(field).after") { time = cursor + after }
        case (nil, nil): break
        default: fail("\(field).at", "give at most one of at and after")
        }
        cursor = time
        var mayFail = false
        if let flag = step["mayFail"] {
            if case .bool(let b) = flag { mayFail = b } else { fail("\(field).mayFail", "must be a boolean") }
        }
        if let note = step["note"], note.stringValue == nil { fail("\(field).note", "must be a string") }

        var bundleId: String?
        if spec.needsApp {
            bundleId = string(step["bundleId"], "\(field).bundleId")
            if let id = bundleId, !bundleIds.contains(id) { fail("\(field).bundleId", "must be one of the scenario's apps") }
        } else if step["bundleId"] != nil, action != "push" {
            fail("\(field).bundleId", "is not a field of \(action)")
        }
        let body = step.filter { spec.body.contains($0.key) }
        guard let command = command(action, step, body, field, bundleId: bundleId ?? "", cursor: &cursor) else { return nil }
        return ScenarioStep(index: i, action: action, bundleId: bundleId, time: time, mayFail: mayFail, command: command)
    }

    private mutating func command(
        _ action: String, _ step: [String: EventValue], _ body: [String: EventValue], _ field: String, bundleId app: String,
        cursor: inout Double
    ) -> (@Sendable (inout DeviceEngine) throws -> Void)? {
        switch action {
        case "launch": return { try $0.launch(app) }
        case "background": return { try $0.background(app) }
        case "foreground": return { try $0.foreground(app) }
        case "forceQuit": return { try $0.forceQuit(app) }
        case "terminate": return { try $0.terminate(app) }
        case "reboot": return { $0.reboot() }
        case "advance":
            guard let seconds = seconds(step["seconds"], "\(field).seconds") else { return nil }
            cursor += seconds
            return { engine in try engine.advance(to: engine.now + .seconds(seconds)) }
        case "conditions":
            guard let patch = wire(ConditionsPatch.self, body, field) else { return nil }
            return { engine in engine.setConditions(try patch.applied(to: engine.device.conditions)) }
        case "policy":
            guard case .object(let values)? = step["policy"] else {
                fail("\(field).policy", "must be an object of profile constants")
                return nil
            }
            var overrides: [String: Double] = [:]
            for (key, value) in values {
                switch value {
                case .int(let n): overrides[key] = Double(n)
                case .double(let d): overrides[key] = d
                default: fail("\(field).policy.\(key)", "must be a number")
                }
            }
            let problems = Profile.validate(overrides)
            issues += problems.map { FieldIssue("\(field).\($0.field)", $0.message) }
            guard problems.isEmpty else { return nil }
            let given = overrides
            return { engine in
                var merged = engine.device.policyOverrides
                for (key, value) in given { merged[key] = value }
                engine.setPolicyOverrides(merged)
            }
        case "submit":
            guard let request = wire(SubmitTaskRequest.self, body, field) else { return nil }
            return { engine in try engine.submit(app, try request.request(submittedAt: engine.now)) }
        case "cancelTaskRequest", "simulateLaunch", "simulateExpiration":
            guard let identifier = string(step["identifier"], "\(field).identifier") else { return nil }
            switch action {
            case "cancelTaskRequest": return { try $0.cancelTaskRequest(app, identifier: identifier) }
            case "simulateLaunch": return { _ = try $0.simulateLaunch(app, identifier: identifier) }
            default: return { try $0.simulateExpiration(app, identifier: identifier) }
            }
        case "completeRun":
            let runId = string(step["runId"], "\(field).runId", required: false)
            let identifier = string(step["identifier"], "\(field).identifier", required: false)
            guard let request = wire(CompleteRunRequest.self, body, field) else { return nil }
            return { engine in
                let runs = engine.device.app(app)?.runtime.openRuns ?? []
                let run = runs.last { run in
                    (runId == nil || run.id == runId) && (identifier == nil || run.identifier == identifier)
                }
                guard let run else {
                    throw EmulationError.conflict(
                        code: "noOpenRun", detail: "\(app) has no open run\(identifier.map { " for \($0)" } ?? "") to complete.")
                }
                try engine.completeRun(app, runId: run.id, result: request.result)
            }
        case "beginBackgroundTask":
            guard let request = wire(BeginTaskRequest.self, body, field) else { return nil }
            return { engine in
                guard try engine.beginBackgroundTask(app, name: request.name) != nil else {
                    throw EmulationError.refused(code: "backgroundTaskInvalid", detail: "beginBackgroundTask returned UIBackgroundTaskInvalid.")
                }
            }
        case "endBackgroundTask":
            let taskId = string(step["taskId"], "\(field).taskId", required: false)
            let name = string(step["name"], "\(field).name", required: false)
            return { engine in
                let task = (engine.device.app(app)?.runtime.openTasks ?? []).last { task in
                    (taskId == nil || task.id == taskId) && (name == nil || task.name == name)
                }
                guard let task else {
                    throw EmulationError.conflict(code: "noOpenTask", detail: "\(app) has no open background task to end.")
                }
                try engine.endBackgroundTask(app, taskId: task.id)
            }
        case "push":
            guard case .object? = step["payload"] else {
                fail("\(field).payload", "must be the APNs payload, an object such as {\"aps\":{\"content-available\":1}}")
                return nil
            }
            var headers: [String: String] = [:]
            for key in ["pushType", "topic", "priority", "expiration", "collapseId"] {
                switch step[key] {
                case nil: break
                case .string(let text)?: headers[key] = text
                case .int(let n)?: headers[key] = String(n)
                default: fail("\(field).\(key)", "must be a string")
                }
            }
            let topic = headers["topic"] ?? step["bundleId"]?.stringValue
            let payload = (try? JSONEncoder().encode(step["payload"] ?? .null)).map { Array($0) } ?? []
            let push = PushRequest(
                apnsId: UUID().uuidString.lowercased(), payload: payload, topic: topic, pushType: headers["pushType"],
                priority: headers["priority"], expiration: headers["expiration"], collapseId: headers["collapseId"])
            return { engine in
                do { _ = try engine.receivePush(push) } catch let rejection as PushRejection {
                    throw EmulationError.conflict(code: rejection.reason, detail: rejection.detail)
                }
            }
        case "fetchInterval":
            guard let request = wire(FetchIntervalBody.self, body, field) else { return nil }
            return { try $0.setFetchInterval(app, request.interval) }
        case "settings":
            guard case .bool(let refresh)? = step["backgroundAppRefresh"] else {
                fail("\(field).backgroundAppRefresh", "must be a boolean")
                return nil
            }
            return { engine in
                guard var settings = engine.device.app(app)?.settings else { throw EmulationError.notFound(kind: "app", id: app) }
                settings.backgroundAppRefresh = refresh
                try engine.setAppSettings(app, settings)
            }
        case "urlSession":
            guard let request = wire(MakeURLSessionRequest.self, body, field) else { return nil }
            return { engine in
                _ = try engine.makeURLSession(
                    app, identifier: request.identifier, discretionary: request.discretionary,
                    sendsLaunchEvents: request.sessionSendsLaunchEvents)
            }
        case "transfer":
            guard let session = string(step["session"], "\(field).session"),
                  let request = wire(EnqueueTransferRequest.self, body, field)
            else { return nil }
            return { engine in
                _ = try engine.enqueueTransfer(
                    app, session: session, kind: request.kind, bytes: request.bytes,
                    earliestBeginDate: try request.earliest(),
                    countOfBytesClientExpectsToReceive: request.countOfBytesClientExpectsToReceive)
            }
        case "finishEvents":
            guard let session = string(step["session"], "\(field).session") else { return nil }
            return { _ = try $0.finishURLSessionEvents(app, session: session) }
        case "activity":
            guard let name = string(step["activity"], "\(field).activity") else { return nil }
            guard let activity = AppActivity(rawValue: name) else {
                fail("\(field).activity", "must be one of \(AppActivity.allCases.map(\.rawValue).joined(separator: ", "))")
                return nil
            }
            guard let request = wire(SetActivityRequest.self, body, field) else { return nil }
            return { engine in
                _ = try engine.setActivity(
                    app, activity, active: request.active, keepAliveInterval: request.keepAliveInterval.map(VirtualDuration.seconds))
            }
        case "location":
            guard let request = wire(LocationRequest.self, body, field) else { return nil }
            return { _ = try $0.moveDevice(latitude: request.latitude, longitude: request.longitude) }
        default:
            fail("\(field).action", "is not supported")
            return nil
        }
    }

    private mutating func expectation(_ value: EventValue, index i: Int, bundleIds: Set<String>) -> ScenarioExpectation? {
        let field = "expect[\(i)]"
        guard let raw = object(value, field, allowed: ["event", "within", "count", "atLeast", "absent", "state", "description"])
        else { return nil }
        var description = raw["description"]?.stringValue
        if raw["description"] != nil, description == nil { fail("\(field).description", "must be a string") }
        switch (raw["event"], raw["state"]) {
        case (let event?, nil):
            guard let spec = object(event, "\(field).event", allowed: ["type", "bundleId", "data"]) else { return nil }
            let type = string(spec["type"], "\(field).event.type")
            let bundleId = string(spec["bundleId"], "\(field).event.bundleId", required: false)
            var data: [String: EventValue] = [:]
            if let value = spec["data"] {
                if case .object(let object) = value { data = object } else { fail("\(field).event.data", "must be an object") }
            }
            var window: (Double, Double)?
            if let within = raw["within"] {
                if case .array(let bounds) = within, bounds.count == 2,
                   let from = seconds(bounds[0], "\(field).within[0]"), let to = seconds(bounds[1], "\(field).within[1]") {
                    if from > to { fail("\(field).within", "must be [from, to] with from ≤ to") } else { window = (from, to) }
                } else if issues.last?.field.hasPrefix("\(field).within") != true {
                    fail("\(field).within", "must be [fromSeconds, toSeconds]")
                }
            }
            func integer(_ key: String) -> Int?? {
                guard let value = raw[key] else { return .some(nil) }
                guard case .int(let n) = value, n >= 0, n <= 1_000_000 else { return nil }
                return .some(Int(n))
            }
            guard let count = integer("count") else {
                fail("\(field).count", "must be a whole number, 0 or more")
                return nil
            }
            guard let atLeast = integer("atLeast") else {
                fail("\(field).atLeast", "must be a whole number, 0 or more")
                return nil
            }
            var absent = false
            if let flag = raw["absent"] {
                if case .bool(let b) = flag { absent = b } else { fail("\(field).absent", "must be a boolean") }
            }
            if [count != nil, atLeast != nil, absent].filter({ $0 }).count > 1 {
                fail("\(field).count", "give at most one of count, atLeast and absent")
            }
            guard let type else { return nil }
            let matcher = ScenarioEventMatcher(type: type, bundleId: bundleId, data: data)
            if description == nil {
                var text = absent ? "no \(type)" : count.map { "exactly \($0) × \(type)" } ?? atLeast.map { "at least \($0) × \(type)" }
                    ?? type
                if let bundleId { text += " of \(bundleId)" }
                if !data.isEmpty, let json = try? ScenarioReport.encoder.encode(EventValue.object(data)) {
                    text += " with \(String(decoding: json, as: UTF8.self))"
                }
                if let window { text += " within [\(format(window.0)), \(format(window.1))] s" }
                description = text
            }
            return ScenarioExpectation(
                index: i, description: description ?? type,
                kind: .event(matcher, window: window, count: count, atLeast: atLeast, absent: absent))
        case (nil, let state?):
            guard let spec = object(state, "\(field).state", allowed: ["bundleId", "is", "at"]) else { return nil }
            let bundleId = string(spec["bundleId"], "\(field).state.bundleId")
            if let bundleId, !bundleIds.contains(bundleId) { fail("\(field).state.bundleId", "must be one of the scenario's apps") }
            let states = AppState.allCases.map(\.rawValue)
            let expected = string(spec["is"], "\(field).state.is")
            if let expected, !states.contains(expected) {
                fail("\(field).state.is", "must be one of \(states.joined(separator: ", "))")
            }
            let at = seconds(spec["at"], "\(field).state.at")
            guard let bundleId, let expected, let at else { return nil }
            return ScenarioExpectation(
                index: i, description: description ?? "\(bundleId) is \(expected) at \(format(at)) s",
                kind: .state(bundleId: bundleId, state: expected, at: at))
        default:
            fail(field, "give exactly one of event and state")
            return nil
        }
    }
}

/// Seconds as short text: `600`, `2.5`.
func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
}
