/// What a scenario expects: events that happen (or not) in a window, or an app's state at a time.
struct ScenarioExpectation: Sendable {
    enum Kind: Sendable {
        case event(ScenarioEventMatcher, window: (Double, Double)?, count: Int?, atLeast: Int?, absent: Bool)
        case state(bundleId: String, state: String, at: Double)
    }
    var index: Int
    var description: String
    var kind: Kind
}
