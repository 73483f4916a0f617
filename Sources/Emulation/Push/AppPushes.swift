/// An app's push state: its deferred push and recent background deliveries (R30). Absent on devices stored
/// before pushes existed, hence optional in `AppRuntime`.
public struct AppPushes: Sendable, Codable, Equatable {
    /// Deferred pushes, oldest first (coalescing keeps at most one).
    public var deferred: [Push] = []
    /// When background pushes were delivered in the last hour, for throttling.
    public var recentDeliveries: [VirtualInstant] = []

    public init() {}
}
