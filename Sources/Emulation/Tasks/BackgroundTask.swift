/// A finite-length task begun with `beginBackgroundTask(withName:expirationHandler:)` (R8).
public struct BackgroundTask: Sendable, Codable, Equatable {
    public enum State: String, Sendable, Codable {
        /// Running; holds the app out of suspension while the allowance lasts.
        case running
        /// Its expiration handler has been called (R11); it still holds the app until the allowance ends.
        case expiring
        /// Ended by `endBackgroundTask`.
        case ended
        /// Still running when the allowance ran out: the app was terminated (R12).
        case expired
    }

    /// `bgt_<n>`, unique on the device.
    public var id: String
    public var name: String?
    public var beganAt: VirtualInstant
    public var state: State
    public var endedAt: VirtualInstant?
    /// Whether the app's expiration handler ends the task (a scripted app's well-behaved handler).
    public var endsOnExpiration: Bool

    public init(id: String, name: String?, beganAt: VirtualInstant, endsOnExpiration: Bool = false) {
        self.id = id
        self.name = name
        self.beganAt = beganAt
        self.state = .running
        self.endsOnExpiration = endsOnExpiration
    }

    public var isOpen: Bool { state == .running || state == .expiring }
}
