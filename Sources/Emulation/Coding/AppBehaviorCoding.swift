/// An app's `behavior` as JSON, for the install body and the forecast's `app.behavior` alike: per run kind
/// `{completeAfter: seconds | "never", result?, resubmit?, resubmitAfter?}`, and `onEnterBackground: {name?,
/// endAfter: seconds | "never", endOnExpiration?}`. Unknown keys, a missing `completeAfter`, a duration outside
/// 0–86400 s, a result the kind does not take, or a resubmitting non-BGTask kind are issues named by field.
public struct AppBehaviorCoding: Codable, Sendable {
    /// The behaviour read or to write.
    public var behavior: AppBehavior

    /// Wraps `behavior` to encode it.
    public init(_ behavior: AppBehavior) { self.behavior = behavior }

    /// Reads a `behavior` object; an issue names its field by its whole path.
    public init(from decoder: any Decoder) throws {
        let kinds = RunKind.allCases.map(\.rawValue)
        try decoder.rejectUnknownKeys(allowed: kinds + ["onEnterBackground"])
        let c = try decoder.container(keyedBy: AnyKey.self)
        var runs: [RunKind: RunBehavior] = [:]
        for kind in RunKind.allCases {
            // A kind given as null is left out, like any optional field.
            guard let body = try c.decodeIfPresent(RunBehaviorCoding.self, forKey: AnyKey(kind.rawValue)) else { continue }
            runs[kind] = try body.behavior(for: kind, at: c.codingPath + [AnyKey(kind.rawValue)])
        }
        let task = try c.decodeIfPresent(TaskBehaviorCoding.self, forKey: AnyKey("onEnterBackground"))
        behavior = AppBehavior(runs: runs, onEnterBackground: task?.behavior)
    }

    /// Writes every field, durations as seconds or `"never"`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        for kind in RunKind.allCases {
            guard let run = behavior.runs[kind] else { continue }
            var r = c.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey(kind.rawValue))
            try Self.encode(run.completeAfter, &r, "completeAfter")
            try r.encode(run.result, forKey: AnyKey("result"))
            try r.encode(run.resubmit, forKey: AnyKey("resubmit"))
            try r.encodeIfPresent(run.resubmitAfter?.seconds, forKey: AnyKey("resubmitAfter"))
        }
        if let task = behavior.onEnterBackground {
            var t = c.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("onEnterBackground"))
            try t.encodeIfPresent(task.name, forKey: AnyKey("name"))
            try Self.encode(task.endAfter, &t, "endAfter")
            try t.encode(task.endOnExpiration, forKey: AnyKey("endOnExpiration"))
        }
    }

    private static func encode(_ duration: VirtualDuration?, _ c: inout KeyedEncodingContainer<AnyKey>, _ key: String) throws {
        if let duration { try c.encode(duration.seconds, forKey: AnyKey(key)) } else { try c.encode("never", forKey: AnyKey(key)) }
    }

    /// Seconds, or `"never"` (nil); null is refused, so that "absent" and "never" stay apart.
    static func secondsOrNever(_ c: KeyedDecodingContainer<AnyKey>, _ key: String) throws -> VirtualDuration? {
        let field = FieldPath.of(c.codingPath, key)
        if c.contains(AnyKey(key)), try c.decodeNil(forKey: AnyKey(key)) {
            throw EmulationError.invalid([FieldIssue(field, "must be seconds or \"never\", not null")])
        }
        if (try? c.decode(String.self, forKey: AnyKey(key))) == "never" { return nil }
        guard let seconds = try c.decodeIfPresent(Double.self, forKey: AnyKey(key)) else { return nil }
        guard seconds >= 0, seconds <= 86_400, seconds.isFinite else {
            throw EmulationError.invalid([FieldIssue(field, "must be from 0 to 86400 seconds, or \"never\"")])
        }
        return .seconds(seconds)
    }
}

/// One run kind's `{completeAfter, result?, resubmit?, resubmitAfter?}`.
struct RunBehaviorCoding: Decodable {
    var completeAfter: VirtualDuration?
    var result: String?
    var resubmit: Bool
    var resubmitAfter: VirtualDuration?

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["completeAfter", "result", "resubmit", "resubmitAfter"])
        let c = try decoder.container(keyedBy: AnyKey.self)
        guard c.contains(AnyKey("completeAfter")) else {
            throw EmulationError.invalid([
                FieldIssue(FieldPath.of(c.codingPath, "completeAfter"), "is required: seconds, or \"never\"")
            ])
        }
        completeAfter = try AppBehaviorCoding.secondsOrNever(c, "completeAfter")
        result = try c.decodeIfPresent(String.self, forKey: AnyKey("result"))
        resubmit = try c.decodeIfPresent(Bool.self, forKey: AnyKey("resubmit")) ?? false
        if (try? c.decode(String.self, forKey: AnyKey("resubmitAfter"))) == "never" {
            throw EmulationError.invalid([FieldIssue(
                FieldPath.of(c.codingPath, "resubmitAfter"), "must be seconds; leave resubmit false not to resubmit")])
        }
        resubmitAfter = try AppBehaviorCoding.secondsOrNever(c, "resubmitAfter")
    }

    /// The behaviour of `kind`, whose object is at `path`.
    func behavior(for kind: RunKind, at path: [any CodingKey]) throws -> RunBehavior {
        let allowed: [RunResult] = kind.takesFetchResult ? [.newData, .noData, .failed] : [.success, .failure]
        let parsed = result.flatMap(RunResult.init(rawValue:)) ?? allowed[0]
        guard allowed.contains(parsed) else {
            throw EmulationError.invalid([FieldIssue(
                FieldPath.of(path, "result"), "must be one of \(allowed.map(\.rawValue).joined(separator: ", "))")])
        }
        if resubmit, kind != .appRefresh, kind != .processing {
            throw EmulationError.invalid([FieldIssue(FieldPath.of(path, "resubmit"), "only BGTask runs resubmit")])
        }
        return RunBehavior(completeAfter: completeAfter, result: parsed, resubmit: resubmit, resubmitAfter: resubmitAfter)
    }
}

/// `onEnterBackground`'s `{name?, endAfter, endOnExpiration?}`.
struct TaskBehaviorCoding: Decodable {
    var behavior: TaskBehavior

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["name", "endAfter", "endOnExpiration"])
        let c = try decoder.container(keyedBy: AnyKey.self)
        behavior = TaskBehavior(
            name: try c.decodeIfPresent(String.self, forKey: AnyKey("name")),
            endAfter: try AppBehaviorCoding.secondsOrNever(c, "endAfter"),
            endOnExpiration: try c.decodeIfPresent(Bool.self, forKey: AnyKey("endOnExpiration")) ?? true)
    }
}
