/// The background-execution keys of an app's Info.plist.
public struct AppManifest: Sendable, Codable, Equatable {
    /// `UIBackgroundModes`.
    public var backgroundModes: [BackgroundMode]
    /// `BGTaskSchedulerPermittedIdentifiers`.
    public var permittedIdentifiers: [String]
    /// `UIApplicationExitsOnSuspend` (R4).
    public var exitsOnSuspend: Bool

    public init(backgroundModes: [BackgroundMode] = [], permittedIdentifiers: [String] = [], exitsOnSuspend: Bool = false) {
        self.backgroundModes = backgroundModes
        self.permittedIdentifiers = permittedIdentifiers
        self.exitsOnSuspend = exitsOnSuspend
    }

    public func declares(_ mode: BackgroundMode) -> Bool { backgroundModes.contains(mode) }
}
