import Emulation

/// A scenario file, validated: apps, a timeline of steps and expectations on what happened (its device is made
/// by the API from the file's `device`, the body of `POST /v1/devices`).
///
/// Times are seconds of virtual time since the device's start. A step's parameters are the JSON body of the REST
/// route that does the same thing (`submit` takes `{kind, identifier}` as `POST …/task-requests` does), so that
/// a scenario reads like the requests a client would send.
public struct Scenario: Sendable {
    public var name: String
    public var apps: [(installation: AppInstallation, behavior: AppBehavior?)]
    public var steps: [ScenarioStep]
    public var expectations: [ScenarioExpectation]
    /// Seconds the run lasts at least: the clock is advanced to the latest time the scenario names.
    public var end: Double

    public init(
        name: String, apps: [(installation: AppInstallation, behavior: AppBehavior?)], steps: [ScenarioStep],
        expectations: [ScenarioExpectation], end: Double
    ) {
        self.name = name
        self.apps = apps
        self.steps = steps
        self.expectations = expectations
        self.end = end
    }

    /// The longest scenario (30 days of virtual time, the longest single advance): a run holds an event loop
    /// thread, and a month of a busy device is already a few hundred milliseconds of work.
    public static let maximumDuration: Double = DeviceEngine.maximumAdvance.seconds
    public static let maximumSteps = 1_000
    public static let maximumExpectations = 1_000

    /// Seconds as short text: `600`, `2.5`.
    public static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
    }
}
