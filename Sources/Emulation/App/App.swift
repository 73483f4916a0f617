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
    /// How the app answers by itself when woken; nil waits for the client.
    public var behavior: AppBehavior?
    /// What the system tracks of the app while it runs.
    public var runtime: AppRuntime
    /// Build settings its uploaded `Info.plist` refers to that nothing set (kept as written there).
    public var unresolvedBuildSettings: [String] = []
    /// What reading its build settings left aside (an `.xcconfig`'s `#include` lines, say).
    public var buildSettingNotes: [String] = []

    public init(
        bundleId: String, displayName: String? = nil, manifest: AppManifest, launchHandlers: [String]? = nil,
        settings: AppSettings = AppSettings(), state: AppState = .notRunning, installedAt: VirtualInstant,
        behavior: AppBehavior? = nil
    ) {
        self.bundleId = bundleId
        self.displayName = displayName
        self.manifest = manifest
        self.launchHandlers = launchHandlers ?? manifest.permittedIdentifiers
        self.settings = settings
        self.state = state
        self.installedAt = installedAt
        self.behavior = behavior
        self.runtime = AppRuntime()
    }

    /// Whether code of the app can run now (it is not suspended or terminated).
    public var isRunning: Bool { state == .active || state == .inactive || state == .background }

    private enum CodingKeys: String, CodingKey {
        case bundleId, displayName, manifest, launchHandlers, settings, state, installedAt, behavior, runtime
        case unresolvedBuildSettings, buildSettingNotes
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        bundleId = try c.decode(String.self, forKey: .bundleId)
        displayName = try c.decodeIfPresent(String.self, forKey: .displayName)
        manifest = try c.decode(AppManifest.self, forKey: .manifest)
        launchHandlers = try c.decode([String].self, forKey: .launchHandlers)
        settings = try c.decode(AppSettings.self, forKey: .settings)
        state = try c.decode(AppState.self, forKey: .state)
        installedAt = try c.decode(VirtualInstant.self, forKey: .installedAt)
        behavior = try c.decodeIfPresent(AppBehavior.self, forKey: .behavior)
        runtime = try c.decodeIfPresent(AppRuntime.self, forKey: .runtime) ?? AppRuntime()
        unresolvedBuildSettings = try c.decodeIfPresent([String].self, forKey: .unresolvedBuildSettings) ?? []
        buildSettingNotes = try c.decodeIfPresent([String].self, forKey: .buildSettingNotes) ?? []
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

extension App {
    /// The scripted answer of the app's runs of `kind`, if its behaviour scripts one. A method, so that the engine
    /// reads it from the app in place: the optional chain `apps[i].behavior?.runs[kind]` copied the whole app.
    func script(_ kind: RunKind) -> RunBehavior? { behavior?.runs[kind] }
}
