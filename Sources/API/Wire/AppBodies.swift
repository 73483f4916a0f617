import Emulation

/// `POST …/apps` as JSON.
struct InstallAppRequest: Decodable {
    var bundleId: String
    var displayName: String?
    var infoPlist: InfoPlistBody?
    var launchHandlers: [String]?
    var behavior: AppBehavior?
    /// Build settings the `infoPlist` strings refer to (`{"MARKETING_VERSION": "1.2"}`), below the query's.
    var buildSettings: [String: String]?

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: [
            "bundleId", "displayName", "infoPlist", "launchHandlers", "behavior", "buildSettings",
        ])
        let c = try decoder.container(keyedBy: AnyKey.self)
        bundleId = try c.decode(String.self, forKey: AnyKey("bundleId"))
        displayName = try c.decodeIfPresent(String.self, forKey: AnyKey("displayName"))
        infoPlist = try c.decodeIfPresent(InfoPlistBody.self, forKey: AnyKey("infoPlist"))
        launchHandlers = try c.decodeIfPresent([String].self, forKey: AnyKey("launchHandlers"))
        behavior = try c.decodeIfPresent(AppBehaviorCoding.self, forKey: AnyKey("behavior"))?.behavior
        buildSettings = try c.decodeIfPresent([String: String].self, forKey: AnyKey("buildSettings"))
    }

    /// The installation, with every string of `infoPlist` (and `displayName`) expanded: the query's settings
    /// first, then `buildSettings`, then Xcode's defaults, with `PRODUCT_BUNDLE_IDENTIFIER` the body's `bundleId`.
    func installation(query: UploadSettings = UploadSettings()) throws -> AppInstallation {
        var issues: [FieldIssue] = []
        if let asked = query.bundleId, asked != bundleId {
            issues.append(FieldIssue("bundleId", "the query's bundleId=\(asked) differs from the body's \"\(bundleId)\""))
        }
        let settings = buildSettings ?? [:]
        issues += BuildSettings.clientSettingIssues(settings, field: "buildSettings")
        guard issues.isEmpty else { throw EmulationError.invalid(issues) }

        let plist = infoPlist ?? InfoPlistBody()
        var dict: [String: Any] = ["CFBundleIdentifier": plist.CFBundleIdentifier ?? bundleId]
        if let modes = plist.UIBackgroundModes { dict["UIBackgroundModes"] = modes }
        if let identifiers = plist.BGTaskSchedulerPermittedIdentifiers { dict["BGTaskSchedulerPermittedIdentifiers"] = identifiers }
        if let exits = plist.UIApplicationExitsOnSuspend { dict["UIApplicationExitsOnSuspend"] = exits }
        if let displayName { dict["CFBundleDisplayName"] = displayName }
        var levels = [query.level, BuildSettings.Level(source: "buildSettings", values: settings)]
        levels.append(BuildSettings.Level(source: "bundleId", values: ["PRODUCT_BUNDLE_IDENTIFIER": bundleId]))
        let read = try InfoPlist.read(
            dict, settings: BuildSettings(levels, literalBundleId: bundleId), fieldPrefix: "infoPlist.")
        if read.bundleId != bundleId {
            throw EmulationError.invalid([FieldIssue("infoPlist.CFBundleIdentifier", "must equal bundleId when given")])
        }
        return AppInstallation(read, launchHandlers: launchHandlers, fieldPrefix: "infoPlist.")
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
        try c.encode(app.unresolvedBuildSettings, forKey: AnyKey("unresolvedBuildSettings"))
        try c.encode(app.buildSettingNotes, forKey: AnyKey("buildSettingNotes"))
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
