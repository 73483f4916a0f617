import Emulation

/// One step of a scenario's timeline: an action at a time, as the command it applies to the device.
public struct ScenarioStep: Sendable {
    public var index: Int
    public var action: String
    public var bundleId: String?
    /// When it happens, in seconds since the start.
    public var time: Double
    /// Whether an error of the command is expected (it is reported, but fails nothing).
    public var mayFail: Bool
    public var command: DeviceCommand

    public init(index: Int, action: String, bundleId: String?, time: Double, mayFail: Bool, command: DeviceCommand) {
        self.index = index
        self.action = action
        self.bundleId = bundleId
        self.time = time
        self.mayFail = mayFail
        self.command = command
    }

    /// The error a step reports although its command applied: a `beginBackgroundTask` that answered
    /// `UIBackgroundTaskInvalid` (R14), which the REST route answers as a `200` with `invalid` set.
    static func failure(of outcome: CommandOutcome) -> EmulationError? {
        guard outcome.backgroundTaskInvalid else { return nil }
        return .refused(code: "backgroundTaskInvalid", detail: "beginBackgroundTask returned UIBackgroundTaskInvalid.")
    }
}
