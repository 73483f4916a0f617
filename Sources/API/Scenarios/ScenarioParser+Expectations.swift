import Emulation
import Service

/// An expectation: an `event` (with `within`, `count`, `atLeast` or `absent`) or a `state`, and its description.
extension ScenarioParser {
    mutating func expectation(_ value: EventValue, index i: Int, bundleIds: Set<String>) -> ScenarioExpectation? {
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
                if let window { text += " within [\(Scenario.format(window.0)), \(Scenario.format(window.1))] s" }
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
                index: i, description: description ?? "\(bundleId) is \(expected) at \(Scenario.format(at)) s",
                kind: .state(bundleId: bundleId, state: expected, at: at))
        default:
            fail(field, "give exactly one of event and state")
            return nil
        }
    }
}
