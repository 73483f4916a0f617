/// An `AppBehavior` in the shape of the `apps` route's `behavior`: per run kind `{completeAfter: seconds | "never",
/// result, resubmit, resubmitAfter}` and `onEnterBackground: {name, endAfter: seconds | "never", endOnExpiration}`.
struct ForecastBehaviorCoding: Codable {
    var behavior: AppBehavior

    init(_ behavior: AppBehavior) { self.behavior = behavior }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        var runs: [RunKind: RunBehavior] = [:]
        for kind in RunKind.allCases {
            guard c.contains(Key(kind.rawValue)) else { continue }
            let r = try c.nestedContainer(keyedBy: Key.self, forKey: Key(kind.rawValue))
            let allowed: [RunResult] = kind.takesFetchResult ? [.newData, .noData, .failed] : [.success, .failure]
            let result = try r.decodeIfPresent(RunResult.self, forKey: Key("result")) ?? allowed[0]
            guard allowed.contains(result) else {
                throw DecodingError.dataCorruptedError(
                    forKey: Key("result"), in: r, debugDescription: "must be one of \(allowed.map(\.rawValue).joined(separator: ", "))")
            }
            runs[kind] = RunBehavior(
                completeAfter: try Self.secondsOrNever(r, "completeAfter"), result: result,
                resubmit: try r.decodeIfPresent(Bool.self, forKey: Key("resubmit")) ?? false,
                resubmitAfter: try r.decodeIfPresent(Double.self, forKey: Key("resubmitAfter")).map { .seconds($0) })
        }
        var task: TaskBehavior?
        if c.contains(Key("onEnterBackground")) {
            let t = try c.nestedContainer(keyedBy: Key.self, forKey: Key("onEnterBackground"))
            task = TaskBehavior(
                name: try t.decodeIfPresent(String.self, forKey: Key("name")), endAfter: try Self.secondsOrNever(t, "endAfter"),
                endOnExpiration: try t.decodeIfPresent(Bool.self, forKey: Key("endOnExpiration")) ?? true)
        }
        behavior = AppBehavior(runs: runs, onEnterBackground: task)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        for kind in RunKind.allCases {
            guard let run = behavior.runs[kind] else { continue }
            var r = c.nestedContainer(keyedBy: Key.self, forKey: Key(kind.rawValue))
            try Self.encode(run.completeAfter, &r, "completeAfter")
            try r.encode(run.result, forKey: Key("result"))
            try r.encode(run.resubmit, forKey: Key("resubmit"))
            try r.encodeIfPresent(run.resubmitAfter?.seconds, forKey: Key("resubmitAfter"))
        }
        if let task = behavior.onEnterBackground {
            var t = c.nestedContainer(keyedBy: Key.self, forKey: Key("onEnterBackground"))
            try t.encodeIfPresent(task.name, forKey: Key("name"))
            try Self.encode(task.endAfter, &t, "endAfter")
            try t.encode(task.endOnExpiration, forKey: Key("endOnExpiration"))
        }
    }

    /// Seconds, or `"never"` (nil); absent is `"never"` too.
    private static func secondsOrNever(_ c: KeyedDecodingContainer<Key>, _ key: String) throws -> VirtualDuration? {
        if (try? c.decode(String.self, forKey: Key(key))) == "never" { return nil }
        return try c.decodeIfPresent(Double.self, forKey: Key(key)).map { .seconds($0) }
    }

    private static func encode(_ duration: VirtualDuration?, _ c: inout KeyedEncodingContainer<Key>, _ key: String) throws {
        if let duration { try c.encode(duration.seconds, forKey: Key(key)) } else { try c.encode("never", forKey: Key(key)) }
    }
}
