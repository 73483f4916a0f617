/// An app installed on a device: what its Info.plist declares, its settings and its lifecycle state.
public struct App: Sendable, Codable, Equatable {
    public var bundleId: String
    public var displayName: String?
    public var manifest: AppManifest
    /// The identifiers registered with `BGTaskScheduler.register` during launch (R16).
    public var launchHandlers: [String]
    public var settings: AppSettings
    public var state: AppState
    /// Virtual time of installation.
    public var installedAt: VirtualInstant

    public init(
        bundleId: String, displayName: String? = nil, manifest: AppManifest, launchHandlers: [String]? = nil,
        settings: AppSettings = AppSettings(), state: AppState = .notRunning, installedAt: VirtualInstant
    ) {
        self.bundleId = bundleId
        self.displayName = displayName
        self.manifest = manifest
        self.launchHandlers = launchHandlers ?? manifest.permittedIdentifiers
        self.settings = settings
        self.state = state
        self.installedAt = installedAt
    }
}

/// The per-app switches a user sets in Settings.
public struct AppSettings: Sendable, Codable, Equatable {
    /// The app's own Background App Refresh switch (R18).
    public var backgroundAppRefresh: Bool
    public init(backgroundAppRefresh: Bool = true) { self.backgroundAppRefresh = backgroundAppRefresh }
}

/// The states of an app (R1).
public enum AppState: String, Sendable, Codable, CaseIterable {
    case notRunning, inactive, active, background, suspended
}
