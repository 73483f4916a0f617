// How long the event log keeps events: the operator's setting.
import Foundation

/// Which events the log keeps: those written within ``maximumAge`` (wall time of writing, not the device's virtual
/// time), and the newest ``maximumPerDevice`` of each device. Both bounds apply; nil is no bound.
///
/// Age is wall time because it is what an operator reasons about (disk, backups, "last month"): a device's virtual
/// clock can jump years in one request and says nothing about when a row was written. The count bounds a device
/// that writes fast within the age.
public struct EventRetention: Sendable, Equatable {
    /// Events written longer ago than this are pruned; nil keeps them whatever their age.
    public var maximumAge: TimeInterval?
    /// The most events kept per device (its newest); nil is no limit.
    public var maximumPerDevice: Int?

    public init(maximumAge: TimeInterval? = nil, maximumPerDevice: Int? = nil) {
        precondition(maximumAge.map { $0 > 0 } ?? true, "a maximum age is positive")
        precondition(maximumPerDevice.map { $0 > 0 } ?? true, "a maximum count is positive")
        self.maximumAge = maximumAge
        self.maximumPerDevice = maximumPerDevice
    }

    /// The command line's form: days (0 keeps forever) and events per device (0 is no limit).
    public init(days: Int, perDevice: Int) {
        self.init(
            maximumAge: days > 0 ? TimeInterval(days) * 86_400 : nil, maximumPerDevice: perDevice > 0 ? perDevice : nil)
    }

    /// Keeps every event: nothing to prune.
    public var keepsEverything: Bool { maximumAge == nil && maximumPerDevice == nil }
}
