import Emulation

/// One step of a scenario's timeline: an action at a time, as the command it applies to the device.
struct ScenarioStep: Sendable {
    var index: Int
    var action: String
    var bundleId: String?
    /// When it happens, in seconds since the start.
    var time: Double
    /// Whether an error of the command is expected (it is reported, but fails nothing).
    var mayFail: Bool
    var command: DeviceCommand

    /// The error a step reports although its command applied: a `beginBackgroundTask` that answered
    /// `UIBackgroundTaskInvalid` (R14), which the REST route answers as a `200` with `invalid` set.
    static func failure(of outcome: CommandOutcome) -> EmulationError? {
        guard outcome.backgroundTaskInvalid else { return nil }
        return .refused(code: "backgroundTaskInvalid", detail: "beginBackgroundTask returned UIBackgroundTaskInvalid.")
    }
}
