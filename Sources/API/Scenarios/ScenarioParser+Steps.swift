import Emulation
import Service

/// A step: its action and keys, its time (`at`, `after` or neither), `mayFail`, `note` and the app it names.
extension ScenarioParser {
    /// The keys every step may have besides its action's own.
    static let commonStepKeys: Set<String> = ["at", "after", "action", "bundleId", "note", "mayFail"]

    /// Each action: whether it names an app, the step keys it reads itself, and the keys passed to its request body.
    static let actions: [String: (needsApp: Bool, own: Set<String>, body: Set<String>)] = [
        "launch": (true, [], []), "background": (true, [], []), "foreground": (true, [], []),
        "forceQuit": (true, [], []), "terminate": (true, [], []), "reboot": (false, [], []),
        "advance": (false, ["seconds"], []),
        "conditions": (false, [], Set(ConditionsPatch.fields)),
        "policy": (false, ["policy"], []),
        "submit": (true, [], [
            "kind", "identifier", "earliestBeginDate", "requiresNetworkConnectivity", "requiresExternalPower", "title", "subtitle",
            "strategy", "requiresGPU",
        ]),
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

    mutating func step(_ value: EventValue, index i: Int, cursor: inout Double, bundleIds: Set<String>) -> ScenarioStep? {
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
}
