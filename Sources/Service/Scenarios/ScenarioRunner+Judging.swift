import Emulation
import Stores

/// Judging an expectation against the device's recorded events and the app states observed at the checkpoints.
extension ScenarioRunner {
    /// How many events a report shows per expectation at most.
    static let shownEvents = 20

    func judge(
        _ expectation: ScenarioExpectation, events: [RecordedEvent], start: VirtualInstant, observed: [Int: String]
    ) -> ScenarioReport.ExpectationReport {
        func seconds(_ recorded: RecordedEvent) -> Double { (recorded.event.at - start).seconds }
        func shown(_ list: [RecordedEvent]) -> [ScenarioReport.EventReport] {
            list.prefix(Self.shownEvents).map { ScenarioReport.EventReport($0, seconds: seconds($0)) }
        }
        switch expectation.kind {
        case .event(let matcher, let window, let count, let atLeast, let absent):
            let inWindow = events.filter { recorded in
                guard let window else { return true }
                let t = seconds(recorded)
                return t >= window.0 && t <= window.1
            }
            let matching = inWindow.filter { matcher.matches($0.event) }
            let found = matching.count
            let passed: Bool
            let wanted: String
            if absent {
                passed = found == 0
                wanted = "none"
            } else if let count {
                passed = found == count
                wanted = "exactly \(count)"
            } else {
                let least = atLeast ?? 1
                passed = found >= least
                wanted = "at least \(least)"
            }
            var message = "\(found) matching event\(found == 1 ? "" : "s"), expected \(wanted)"
            if let window { message += " within [\(Scenario.format(window.0)), \(Scenario.format(window.1))] s" }
            var deciding = matching
            if found == 0, !passed {
                // Near misses: the events of that type (anywhere in time), to show why none matched.
                deciding = events.filter { $0.event.type.rawValue == matcher.type }
                message += deciding.isEmpty
                    ? "; no \(matcher.type) event at all"
                    : "; \(deciding.count) \(matcher.type) event\(deciding.count == 1 ? "" : "s") did not match (shown)"
            }
            return .init(index: expectation.index, description: expectation.description, passed: passed, message: message,
                         events: shown(deciding))
        case .state(let bundleId, let state, let at):
            let actual = observed[expectation.index] ?? "unknown"
            let passed = actual == state
            let deciding = events.last { recorded in
                recorded.event.bundleId == bundleId && recorded.event.type == .appStateChanged && seconds(recorded) <= at
            }
            return .init(
                index: expectation.index, description: expectation.description, passed: passed,
                message: passed ? "\(bundleId) is \(actual) at \(Scenario.format(at)) s" : "\(bundleId) is \(actual) at \(Scenario.format(at)) s, expected \(state)",
                events: shown(deciding.map { [$0] } ?? []))
        }
    }
}
