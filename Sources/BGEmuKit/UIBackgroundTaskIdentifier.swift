import Foundation

/// Identifies a background task begun with `beginBackgroundTask` (Apple's `UIBackgroundTaskIdentifier`).
public struct UIBackgroundTaskIdentifier: RawRepresentable, Hashable, Sendable {
    /// The task's number in this process (not the service's `bgt_…` id).
    public let rawValue: Int
    /// The identifier numbered `rawValue`.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// No task: what `beginBackgroundTask` answers when nothing began.
    public static let invalid = UIBackgroundTaskIdentifier(rawValue: 0)
}
