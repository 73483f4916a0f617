import Emulation

/// `POST …/apps` as JSON.
struct InstallAppRequest: Decodable {
    var bundleId: String
    var displayName: String?
    var infoPlist: InfoPlistBody?
    var launchHandlers: [String]?
    var behavior: AppBehavior?

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["bundleId", "displayName", "infoPlist", "launchHandlers", "behavior"])
        let c = try decoder.container(keyedBy: AnyKey.self)
        bundleId = try c.decode(String.self, forKey: AnyKey("bundleId"))
        displayName = try c.decodeIfPresent(String.self, forKey: AnyKey("displayName"))
        infoPlist = try c.decodeIfPresent(InfoPlistBody.self, forKey: AnyKey("infoPlist"))
        launchHandlers = try c.decodeIfPresent([String].self, forKey: AnyKey("launchHandlers"))
        behavior = try c.decodeIfPresent(BehaviorBody.self, forKey: AnyKey("behavior"))?.behavior
    }

    func installation() throws -> AppInstallation {
        let plist = infoPlist ?? InfoPlistBody()
        if let declared = plist.CFBundleIdentifier, declared != bundleId {
            throw EmulationError.invalid([FieldIssue("infoPlist.CFBundleIdentifier", "must equal bundleId when given")])
        }
        return AppInstallation(
            bundleId: bundleId, displayName: displayName, backgroundModes: plist.UIBackgroundModes ?? [],
            permittedIdentifiers: plist.BGTaskSchedulerPermittedIdentifiers ?? [],
            exitsOnSuspend: plist.UIApplicationExitsOnSuspend ?? false, launchHandlers: launchHandlers)
    }
}

/// The Info.plist keys bgemu reads, as JSON.
struct InfoPlistBody: Codable {
    var UIBackgroundModes: [String]?
    var BGTaskSchedulerPermittedIdentifiers: [String]?
    var UIApplicationExitsOnSuspend: Bool?
    var CFBundleIdentifier: String?

    init(
        UIBackgroundModes: [String]? = nil, BGTaskSchedulerPermittedIdentifiers: [String]? = nil,
        UIApplicationExitsOnSuspend: Bool? = nil, CFBundleIdentifier: String? = nil
    ) {
        self.UIBackgroundModes = UIBackgroundModes
        self.BGTaskSchedulerPermittedIdentifiers = BGTaskSchedulerPermittedIdentifiers
        self.UIApplicationExitsOnSuspend = UIApplicationExitsOnSuspend
        self.CFBundleIdentifier = CFBundleIdentifier
    }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: [
            "UIBackgroundModes", "BGTaskSchedulerPermittedIdentifiers", "UIApplicationExitsOnSuspend", "CFBundleIdentifier",
        ])
        let c = try decoder.container(keyedBy: AnyKey.self)
        UIBackgroundModes = try c.decodeIfPresent([String].self, forKey: AnyKey("UIBackgroundModes"))
        BGTaskSchedulerPermittedIdentifiers = try c.decodeIfPresent(
            [String].self, forKey: AnyKey("BGTaskSchedulerPermittedIdentifiers"))
        UIApplicationExitsOnSuspend = try c.decodeIfPresent(Bool.self, forKey: AnyKey("UIApplicationExitsOnSuspend"))
        CFBundleIdentifier = try c.decodeIfPresent(String.self, forKey: AnyKey("CFBundleIdentifier"))
    }
}

/// An app as answered, with what the system tracks of it at `now`.
struct AppBody: Encodable {
    var app: App
    var backgroundTimeRemaining: Double?

    init(_ app: App, on device: Device, now: VirtualInstant) {
        self.app = app
        backgroundTimeRemaining = device.backgroundTimeRemaining(app.bundleId, at: now)
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.encode(app.bundleId, forKey: AnyKey("bundleId"))
        try c.encode(app.displayName, forKey: AnyKey("displayName"))
        try c.encode(
            InfoPlistBody(
                UIBackgroundModes: app.manifest.backgroundModes.map(\.rawValue),
                BGTaskSchedulerPermittedIdentifiers: app.manifest.permittedIdentifiers,
                UIApplicationExitsOnSuspend: app.manifest.exitsOnSuspend),
            forKey: AnyKey("infoPlist"))
        try c.encode(app.launchHandlers, forKey: AnyKey("launchHandlers"))
        try c.encode(app.settings, forKey: AnyKey("settings"))
        try c.encode(app.state.rawValue, forKey: AnyKey("state"))
        // null in the foreground (where iOS itself reports DBL_MAX, R10) and whenever no code runs.
        try c.encode(backgroundTimeRemaining, forKey: AnyKey("backgroundTimeRemaining"))
        try c.encode(app.runtime.openTasks.map(BackgroundTaskBody.init), forKey: AnyKey("backgroundTasks"))
        try c.encode(app.runtime.taskRequests.map(TaskRequestBody.init), forKey: AnyKey("taskRequests"))
        try c.encode(app.runtime.openRuns.map(RunBody.init), forKey: AnyKey("runs"))
        try c.encode(FetchIntervalBody(app.runtime.fetchInterval).interval.wireValue, forKey: AnyKey("fetchInterval"))
        try c.encode(app.runtime.forceQuit, forKey: AnyKey("forceQuit"))
        try c.encode(app.behavior != nil, forKey: AnyKey("scripted"))
        try c.encode(RFC3339.format(app.installedAt), forKey: AnyKey("installedAt"))
    }
}

/// `GET|PUT …/background-modes`.
struct BackgroundModesBody: Codable {
    var backgroundModes: [String]

    init(_ modes: [BackgroundMode]) { backgroundModes = modes.map(\.rawValue) }

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["backgroundModes"])
        let c = try decoder.container(keyedBy: AnyKey.self)
        backgroundModes = try c.decode([String].self, forKey: AnyKey("backgroundModes"))
    }
}

/// `PATCH …/settings`.
struct SettingsPatch: Decodable {
    var backgroundAppRefresh: Bool?

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["backgroundAppRefresh"])
        let c = try decoder.container(keyedBy: AnyKey.self)
        backgroundAppRefresh = try c.decodeIfPresent(Bool.self, forKey: AnyKey("backgroundAppRefresh"))
    }
}
