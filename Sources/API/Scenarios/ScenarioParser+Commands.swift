import Emulation
import Foundation
import Service

/// What each action does: its parameters read (mostly as the body of the REST route that does the same, so that the
/// route and the step give the same command) and the ``DeviceCommand`` it is.
extension ScenarioParser {
    /// The command of `action`, or nil when its parameters are invalid (named in `issues`); `advance` moves `cursor`.
    mutating func command(
        _ action: String, _ step: [String: EventValue], _ body: [String: EventValue], _ field: String, bundleId app: String,
        cursor: inout Double
    ) -> DeviceCommand? {
        switch action {
        case "launch": return LaunchRequest.command(nil, bundleId: app)
        case "background": return .background(bundleId: app)
        case "foreground": return .foreground(bundleId: app)
        case "forceQuit": return .forceQuit(bundleId: app)
        case "terminate": return .terminate(bundleId: app)
        case "reboot": return .reboot
        case "advance":
            guard let seconds = seconds(step["seconds"], "\(field).seconds") else { return nil }
            cursor += seconds
            return .advance(.after(.seconds(seconds)), stopAtAppCode: false)
        case "conditions":
            return wire(ConditionsPatch.self, body, field)?.command
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
            // Merged into the device's own, as `PATCH /v1/devices/{deviceId}` does (never removing one).
            return .patchDevice(name: nil, policy: overrides.mapValues { Optional($0) })
        case "submit":
            return wire(SubmitTaskRequest.self, body, field)?.command(bundleId: app)
        case "cancelTaskRequest", "simulateLaunch", "simulateExpiration":
            guard let identifier = string(step["identifier"], "\(field).identifier") else { return nil }
            switch action {
            case "cancelTaskRequest": return .cancelTaskRequest(bundleId: app, identifier: identifier)
            case "simulateLaunch": return .simulateLaunch(bundleId: app, identifier: identifier)
            default: return .simulateExpiration(bundleId: app, identifier: identifier)
            }
        case "completeRun":
            let runId = string(step["runId"], "\(field).runId", required: false)
            let identifier = string(step["identifier"], "\(field).identifier", required: false)
            guard let request = wire(CompleteRunRequest.self, body, field) else { return nil }
            return request.command(bundleId: app, .latestOpen(runId: runId, identifier: identifier))
        case "beginBackgroundTask":
            // A `UIBackgroundTaskInvalid` answer fails the step (``ScenarioStep/failure(of:)``).
            guard let request = wire(BeginTaskRequest.self, body, field) else { return nil }
            return BeginTaskRequest.command(request, bundleId: app)
        case "endBackgroundTask":
            let taskId = string(step["taskId"], "\(field).taskId", required: false)
            let name = string(step["name"], "\(field).name", required: false)
            return .endBackgroundTask(bundleId: app, .latestOpen(taskId: taskId, name: name))
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
            // APNs's rejection fails the step as a conflict (the runner maps a `PushRejection`).
            return .push(push)
        case "fetchInterval":
            return wire(FetchIntervalBody.self, body, field)?.command(bundleId: app)
        case "settings":
            guard case .bool(let refresh)? = step["backgroundAppRefresh"] else {
                fail("\(field).backgroundAppRefresh", "must be a boolean")
                return nil
            }
            return .updateSettings(bundleId: app, backgroundAppRefresh: refresh)
        case "urlSession":
            return wire(MakeURLSessionRequest.self, body, field)?.command(bundleId: app)
        case "transfer":
            guard let session = string(step["session"], "\(field).session"),
                  let request = wire(EnqueueTransferRequest.self, body, field)
            else { return nil }
            return request.command(bundleId: app, session: session)
        case "finishEvents":
            guard let session = string(step["session"], "\(field).session") else { return nil }
            return .finishURLSessionEvents(bundleId: app, session: session)
        case "activity":
            guard let name = string(step["activity"], "\(field).activity") else { return nil }
            guard let activity = AppActivity(rawValue: name) else {
                fail("\(field).activity", "must be one of \(AppActivity.allCases.map(\.rawValue).joined(separator: ", "))")
                return nil
            }
            return wire(SetActivityRequest.self, body, field)?.command(bundleId: app, activity)
        case "location":
            return wire(LocationRequest.self, body, field)?.command
        default:
            fail("\(field).action", "is not supported")
            return nil
        }
    }
}
