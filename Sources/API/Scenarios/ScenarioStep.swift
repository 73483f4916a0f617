import Emulation

/// One step of a scenario's timeline: an action at a time, as the command it runs on the device's engine.
struct ScenarioStep: Sendable {
    var index: Int
    var action: String
    var bundleId: String?
    /// When it happens, in seconds since the start.
    var time: Double
    /// Whether an error of the command is expected (it is reported, but fails nothing).
    var mayFail: Bool
    var command: @Sendable (inout DeviceEngine) throws -> Void
}
