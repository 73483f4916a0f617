import Emulation

/// The `behavior` of an app install: per run kind `{completeAfter: seconds | "never", result, resubmit?,
/// resubmitAfter?}`, and `onEnterBackground: {name?, endAfter: seconds | "never", endOnExpiration?}`.
struct BehaviorBody: Decodable {
    var behavior: AppBehavior

    init(from decoder: any Decoder) throws {
        let kinds = RunKind.allCases.map(\.rawValue)
        try decoder.rejectUnknownKeys(allowed: Set(kinds + ["onEnterBackground"]))
        let c = try decoder.container(keyedBy: AnyKey.self)
        var runs: [RunKind: RunBehavior] = [:]
        for kind in RunKind.allCases {
            // A kind given as null is left out, like any optional field.
            guard let body = try c.decodeIfPresent(RunBehaviorBody.self, forKey: AnyKey(kind.rawValue)) else { continue }
            runs[kind] = try body.behavior(for: kind)
        }
        let task = try c.decodeIfPresent(TaskBehaviorBody.self, forKey: AnyKey("onEnterBackground"))
        behavior = AppBehavior(runs: runs, onEnterBackground: task?.behavior)
    }
}

/// Seconds, or `"never"` (nil); null is refused, so that "absent" and "never" stay apart.
func decodeSecondsOrNever(_ c: KeyedDecodingContainer<AnyKey>, _ key: String) throws -> VirtualDuration? {
    if c.contains(AnyKey(key)), try c.decodeNil(forKey: AnyKey(key)) {
        throw EmulationError.invalid([FieldIssue(key, "must be seconds or \"never\", not null")])
    }
    if (try? c.decode(String.self, forKey: AnyKey(key))) == "never" { return nil }
    guard let seconds = try c.decodeIfPresent(Double.self, forKey: AnyKey(key)) else { return nil }
    guard seconds >= 0, seconds <= 86_400, seconds.isFinite else {
        throw EmulationError.invalid([FieldIssue(key, "must be from 0 to 86400 seconds, or \"never\"")])
    }
    return .seconds(seconds)
}

struct RunBehaviorBody: Decodable {
    var completeAfter: VirtualDuration?
    var result: String?
    var resubmit: Bool
    var resubmitAfter: VirtualDuration?

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["completeAfter", "result", "resubmit", "resubmitAfter"])
        let c = try decoder.container(keyedBy: AnyKey.self)
        guard c.contains(AnyKey("completeAfter")) else {
            throw EmulationError.invalid([FieldIssue("completeAfter", "is required: seconds, or \"never\"")])
        }
        completeAfter = try decodeSecondsOrNever(c, "completeAfter")
        result = try c.decodeIfPresent(String.self, forKey: AnyKey("result"))
        resubmit = try c.decodeIfPresent(Bool.self, forKey: AnyKey("resubmit")) ?? false
        if (try? c.decode(String.self, forKey: AnyKey("resubmitAfter"))) == "never" {
            throw EmulationError.invalid([FieldIssue("resubmitAfter", "must be seconds; leave resubmit false not to resubmit")])
        }
        resubmitAfter = try decodeSecondsOrNever(c, "resubmitAfter")
    }

    func behavior(for kind: RunKind) throws -> RunBehavior {
        let allowed: [RunResult] = kind.takesFetchResult ? [.newData, .noData, .failed] : [.success, .failure]
        let parsed = result.flatMap(RunResult.init(rawValue:)) ?? allowed[0]
        guard allowed.contains(parsed) else {
            throw EmulationError.invalid([FieldIssue(
                "behavior.\(kind.rawValue).result", "must be one of \(allowed.map(\.rawValue).joined(separator: ", "))")])
        }
        if resubmit, kind != .appRefresh, kind != .processing {
            throw EmulationError.invalid([FieldIssue("behavior.\(kind.rawValue).resubmit", "only BGTask runs resubmit")])
        }
        return RunBehavior(completeAfter: completeAfter, result: parsed, resubmit: resubmit, resubmitAfter: resubmitAfter)
    }
}

struct TaskBehaviorBody: Decodable {
    var behavior: TaskBehavior

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["name", "endAfter", "endOnExpiration"])
        let c = try decoder.container(keyedBy: AnyKey.self)
        behavior = TaskBehavior(
            name: try c.decodeIfPresent(String.self, forKey: AnyKey("name")),
            endAfter: try decodeSecondsOrNever(c, "endAfter"),
            endOnExpiration: try c.decodeIfPresent(Bool.self, forKey: AnyKey("endOnExpiration")) ?? true)
    }
}
