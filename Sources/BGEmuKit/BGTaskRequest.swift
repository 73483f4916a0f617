import Foundation

/// A request to launch the app in the background (Apple's `BGTaskRequest`); submit a subclass.
public class BGTaskRequest: CustomStringConvertible {
    /// The task identifier, one of the app's `BGTaskSchedulerPermittedIdentifiers`.
    public let identifier: String
    /// The earliest date the task may start; nil for no delay. A wall-clock date: BGEmuKit maps it to the
    /// device's virtual time by its offset from now, to the second (15 minutes from now is 15 minutes from the
    /// device's now).
    public var earliestBeginDate: Date?

    init(identifier: String) { self.identifier = identifier }

    /// The kind on bgemu's wire.
    var kind: String { "appRefresh" }

    public var description: String {
        "<\(type(of: self)): \(identifier), earliestBeginDate: \(earliestBeginDate.map { "\($0)" } ?? "(null)")>"
    }
}

/// A request to launch the app in the background briefly to refresh its content (≈30 s, R20).
public final class BGAppRefreshTaskRequest: BGTaskRequest {
    /// A request for `identifier`, which must be permitted and whose launch handler must be registered.
    public override init(identifier: String) { super.init(identifier: identifier) }
}

/// A request to launch the app in the background for minutes of deferrable work, while the device is idle (R20).
public class BGProcessingTaskRequest: BGTaskRequest {
    /// Runs only with a network connection.
    public var requiresNetworkConnectivity = false
    /// Runs only while charging, and expires when power is removed.
    public var requiresExternalPower = false

    /// A request for `identifier`, which must be permitted and whose launch handler must be registered.
    public override init(identifier: String) { super.init(identifier: identifier) }

    override var kind: String { "processing" }
}
