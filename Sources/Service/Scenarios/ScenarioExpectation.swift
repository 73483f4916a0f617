/// What a scenario expects: events that happen (or not) in a window, or an app's state at a time.
public struct ScenarioExpectation: Sendable {
    public enum Kind: Sendable {
        case event(ScenarioEventMatcher, window: (Double, Double)?, count: Int?, atLeast: Int?, absent: Bool)
        case state(bundleId: String, state: String, at: Double)
    }
    public var index: Int
    public var description: String
    public var kind: Kind

    public init(index: Int, description: String, kind: Kind) {
        self.index = index
        self.description = description
        self.kind = kind
    }
}
