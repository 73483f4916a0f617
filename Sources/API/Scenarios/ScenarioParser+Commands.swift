import Emulation
import Foundation

/// What each action does: its parameters read (mostly as the body of the REST route that does the same) and the
/// command it runs on the device's engine.
extension ScenarioParser {
    /// The command of `action`, or nil when its parameters are invalid (named in `issues`); `advance` moves `cursor`.
    mutating func command(
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
            // In key order, so that several bad constants are reported in the same order on every run.
            for (key, value) in values.sorted(by: { $0.key < $1.key }) {
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
}
