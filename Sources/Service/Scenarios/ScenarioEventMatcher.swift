import Emulation

/// Which events an expectation looks for: the type, the app, and a subset of `data`.
public struct ScenarioEventMatcher: Sendable {
    public var type: String
    public var bundleId: String?
    public var data: [String: EventValue]

    public init(type: String, bundleId: String?, data: [String: EventValue]) {
        self.type = type
        self.bundleId = bundleId
        self.data = data
    }

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
