import Foundation

/// The app of a forecast: its Info.plist keys, how its handlers answer, and what it does each time the user opens it.
public struct ForecastApp: Sendable, Equatable, Codable {
    /// The bundle identifier (reverse-DNS, as on install).
    public var bundleId: String
    /// Its Info.plist keys, under Apple's names.
    public var infoPlist: ForecastInfoPlist
    /// What its launch registers with `BGTaskScheduler.register` (R16); nil: every permitted identifier.
    public var launchHandlers: [String]?
    /// How its handlers answer; nil: `defaultBehavior` (complete after 5 s, BGTasks resubmit).
    public var behavior: AppBehavior?
    /// What the app's code does at each open. Default: nothing.
    public var atLaunch: ForecastLaunchActions

    public init(
        bundleId: String, infoPlist: ForecastInfoPlist, launchHandlers: [String]? = nil, behavior: AppBehavior? = nil,
        atLaunch: ForecastLaunchActions = ForecastLaunchActions()
    ) {
        self.bundleId = bundleId
        self.infoPlist = infoPlist
        self.launchHandlers = launchHandlers
        self.behavior = behavior
        self.atLaunch = atLaunch
    }

    /// The same installation the `apps` route validates.
    public var installation: AppInstallation {
        AppInstallation(
            bundleId: bundleId, backgroundModes: infoPlist.UIBackgroundModes,
            permittedIdentifiers: infoPlist.BGTaskSchedulerPermittedIdentifiers,
            exitsOnSuspend: infoPlist.UIApplicationExitsOnSuspend, launchHandlers: launchHandlers)
    }

    /// The behaviour the forecast scripts: the request's, else a well-behaved app that completes every run after
    /// 5 s (R27 scores that up) and resubmits each BGTask request as it submitted it at launch (R21).
    public var resolvedBehavior: AppBehavior {
        if let behavior { return behavior }
        var runs: [RunKind: RunBehavior] = [
            .fetch: RunBehavior(completeAfter: .seconds(5), result: .newData),
            .remoteNotification: RunBehavior(completeAfter: .seconds(5), result: .newData),
        ]
        for kind in TaskRequestKind.discretionary {
            let submission = atLaunch.submit.first { $0.kind == kind }
            runs[kind == .appRefresh ? .appRefresh : .processing] = RunBehavior(
                completeAfter: .seconds(5), result: .success, resubmit: submission != nil,
                resubmitAfter: submission?.earliestBeginSeconds.map { .seconds($0) })
        }
        return AppBehavior(runs: runs)
    }

    /// The run kinds the forecast reports on: the BGTask kinds the app submits, and fetch when it sets an interval.
    public var reportedKinds: [RunKind] {
        var kinds: [RunKind] = []
        if atLaunch.submit.contains(where: { $0.kind == .appRefresh }) { kinds.append(.appRefresh) }
        if atLaunch.submit.contains(where: { $0.kind == .processing }) { kinds.append(.processing) }
        if let interval = atLaunch.fetchInterval, interval != .never { kinds.append(.fetch) }
        return kinds
    }

    /// `buildSettings` is read with a file, never written: the request's echo holds the keys read from it.
    private enum CodingKeys: String, CodingKey {
        case bundleId, infoPlist, buildSettings, launchHandlers, behavior, atLaunch
    }

    /// Absent optional fields take their defaults; an unknown key is an issue.
    ///
    /// `infoPlist` is the object of keys, or a string holding a real `Info.plist` file: its XML text, or a binary
    /// property list in Base64. A file's strings are expanded with `buildSettings` (`{"PRODUCT_BUNDLE_IDENTIFIER":
    /// "com.example.app"}`) and Xcode's defaults, as an upload to the `apps` route is; its `CFBundleIdentifier` is
    /// the bundle id when `bundleId` is not given.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["bundleId", "infoPlist", "buildSettings", "launchHandlers", "behavior", "atLaunch"])
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let given = try c.decodeIfPresent(String.self, forKey: .bundleId)
        if let file = try? c.decodeIfPresent(String.self, forKey: .infoPlist) {
            let settings = try c.decodeIfPresent([String: String].self, forKey: .buildSettings) ?? [:]
            let read = try Self.readInfoPlist(file, settings: settings, bundleId: given)
            bundleId = read.bundleId
            infoPlist = ForecastInfoPlist(
                UIBackgroundModes: read.backgroundModes, BGTaskSchedulerPermittedIdentifiers: read.permittedIdentifiers,
                UIApplicationExitsOnSuspend: read.exitsOnSuspend)
        } else {
            bundleId = try c.decode(String.self, forKey: .bundleId)
            infoPlist = try c.decodeIfPresent(ForecastInfoPlist.self, forKey: .infoPlist) ?? ForecastInfoPlist()
            if c.contains(.buildSettings) {
                throw EmulationError.invalid([FieldIssue("app.buildSettings", "applies to an Info.plist file given as a string in app.infoPlist")])
            }
        }
        launchHandlers = try c.decodeIfPresent([String].self, forKey: .launchHandlers)
        behavior = try c.decodeIfPresent(AppBehaviorCoding.self, forKey: .behavior)?.behavior
        atLaunch = try c.decodeIfPresent(ForecastLaunchActions.self, forKey: .atLaunch) ?? ForecastLaunchActions()
    }

    /// Reads an Info.plist file given as a string (XML text, or a property list in Base64) as an upload is read;
    /// issues name `app.infoPlist…`, `app.buildSettings…` or `app.bundleId`. The settings are checked first, by the
    /// rule of an upload's (``BuildSettings/clientSettingIssues(_:field:)``), every bad one named.
    static func readInfoPlist(_ file: String, settings: [String: String], bundleId: String?) throws -> InfoPlist {
        let settingIssues = BuildSettings.clientSettingIssues(settings, field: "app.buildSettings")
        guard settingIssues.isEmpty else { throw EmulationError.invalid(settingIssues) }
        let text = file.drop { $0.isWhitespace || $0 == "\u{FEFF}" }  // a byte-order mark may lead the XML
        let bytes: [UInt8]
        if text.hasPrefix("<") {
            bytes = Array(text.utf8)  // without what led it: a byte-order mark, blank lines
        } else if let data = Data(base64Encoded: String(text), options: .ignoreUnknownCharacters), !data.isEmpty {
            bytes = Array(data)
        } else {
            throw EmulationError.invalid([FieldIssue(
                "app.infoPlist", "must be an object of Info.plist keys, or the text of an Info.plist (XML, or a binary property list in Base64)")])
        }
        var levels = [BuildSettings.Level(source: "buildSettings", values: settings)]
        if let bundleId { levels.append(BuildSettings.Level(source: "bundleId", values: ["PRODUCT_BUNDLE_IDENTIFIER": bundleId])) }
        do {
            return try InfoPlist.parse(
                bytes, settings: BuildSettings(levels), requestedBundleId: bundleId, settingsGiven: .forecastRequest)
        } catch EmulationError.invalid(let issues) {
            throw EmulationError.invalid(issues.map { issue in
                switch issue.field {
                case "bundleId": FieldIssue("app.bundleId", issue.message)
                case "Info.plist": FieldIssue("app.infoPlist", issue.message)
                default: FieldIssue(issue.field.hasPrefix("app.") ? issue.field : "app.infoPlist." + issue.field, issue.message)
                }
            })
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(bundleId, forKey: .bundleId)
        try c.encode(infoPlist, forKey: .infoPlist)
        try c.encodeIfPresent(launchHandlers, forKey: .launchHandlers)
        try c.encodeIfPresent(behavior.map(AppBehaviorCoding.init), forKey: .behavior)
        try c.encode(atLaunch, forKey: .atLaunch)
    }
}

/// The Info.plist keys the emulation reads, under their Apple names (as the `apps` route's JSON `infoPlist`).
public struct ForecastInfoPlist: Sendable, Equatable, Codable {
    /// The declared background modes (`fetch`, `processing`, `remote-notification`, …), validated as on install.
    public var UIBackgroundModes: [String]
    /// The identifiers the app may submit (R15).
    public var BGTaskSchedulerPermittedIdentifiers: [String]
    /// R4: the app ends instead of entering the background.
    public var UIApplicationExitsOnSuspend: Bool

    public init(UIBackgroundModes: [String] = [], BGTaskSchedulerPermittedIdentifiers: [String] = [], UIApplicationExitsOnSuspend: Bool = false) {
        self.UIBackgroundModes = UIBackgroundModes
        self.BGTaskSchedulerPermittedIdentifiers = BGTaskSchedulerPermittedIdentifiers
        self.UIApplicationExitsOnSuspend = UIApplicationExitsOnSuspend
    }

    private enum CodingKeys: String, CodingKey {
        case UIBackgroundModes, BGTaskSchedulerPermittedIdentifiers, UIApplicationExitsOnSuspend
    }

    /// Absent optional fields take their defaults; an unknown key is an issue.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["UIBackgroundModes", "BGTaskSchedulerPermittedIdentifiers", "UIApplicationExitsOnSuspend"])
        let c = try decoder.container(keyedBy: CodingKeys.self)
        UIBackgroundModes = try c.decodeIfPresent([String].self, forKey: .UIBackgroundModes) ?? []
        BGTaskSchedulerPermittedIdentifiers = try c.decodeIfPresent([String].self, forKey: .BGTaskSchedulerPermittedIdentifiers) ?? []
        UIApplicationExitsOnSuspend = try c.decodeIfPresent(Bool.self, forKey: .UIApplicationExitsOnSuspend) ?? false
    }
}

/// What the app's code does each time the user opens it (after `didFinishLaunching` or `willEnterForeground`):
/// it submits its requests (the same identifier replaces a pending one, R17) and sets its fetch interval (R28).
public struct ForecastLaunchActions: Sendable, Equatable, Codable {
    /// The requests submitted at each open. Default none.
    public var submit: [ForecastSubmission]
    /// nil leaves the interval alone (`never` until set).
    public var fetchInterval: FetchInterval?

    public init(submit: [ForecastSubmission] = [], fetchInterval: FetchInterval? = nil) {
        self.submit = submit
        self.fetchInterval = fetchInterval
    }

    private enum CodingKeys: String, CodingKey {
        case submit, fetchInterval
    }

    /// `fetchInterval` is seconds, `"minimum"` or `"never"` (`FetchIntervalCoding`, as `PUT …/fetch-interval`).
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["submit", "fetchInterval"])
        let c = try decoder.container(keyedBy: CodingKeys.self)
        submit = try c.decodeIfPresent([ForecastSubmission].self, forKey: .submit) ?? []
        fetchInterval = try c.decodeIfPresent(FetchIntervalCoding.self, forKey: .fetchInterval)?.interval
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(submit, forKey: .submit)
        try c.encodeIfPresent(fetchInterval.map(FetchIntervalCoding.init), forKey: .fetchInterval)
    }
}

/// One `BGTaskScheduler.submit` the app makes at each open.
public struct ForecastSubmission: Sendable, Equatable, Codable {
    /// `appRefresh` or `processing`.
    public var kind: TaskRequestKind
    /// A permitted identifier (R15).
    public var identifier: String
    /// `earliestBeginDate` as seconds after the submit; nil: none.
    public var earliestBeginSeconds: Double?
    /// R20: runs only with a network. Default false.
    public var requiresNetworkConnectivity: Bool
    /// R20: a processing request that runs only on the charger. Default false.
    public var requiresExternalPower: Bool

    public init(
        kind: TaskRequestKind, identifier: String, earliestBeginSeconds: Double? = nil,
        requiresNetworkConnectivity: Bool = false, requiresExternalPower: Bool = false
    ) {
        self.kind = kind
        self.identifier = identifier
        self.earliestBeginSeconds = earliestBeginSeconds
        self.requiresNetworkConnectivity = requiresNetworkConnectivity
        self.requiresExternalPower = requiresExternalPower
    }

    private enum CodingKeys: String, CodingKey {
        case kind, identifier, earliestBeginSeconds, requiresNetworkConnectivity, requiresExternalPower
    }

    /// Absent optional fields take their defaults; an unknown key is an issue.
    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["kind", "identifier", "earliestBeginSeconds", "requiresNetworkConnectivity", "requiresExternalPower"])
        let c = try decoder.container(keyedBy: CodingKeys.self)
        kind = try c.decode(TaskRequestKind.self, forKey: .kind)
        identifier = try c.decode(String.self, forKey: .identifier)
        earliestBeginSeconds = try c.decodeIfPresent(Double.self, forKey: .earliestBeginSeconds)
        requiresNetworkConnectivity = try c.decodeIfPresent(Bool.self, forKey: .requiresNetworkConnectivity) ?? false
        requiresExternalPower = try c.decodeIfPresent(Bool.self, forKey: .requiresExternalPower) ?? false
    }

    /// The request as submitted at `now`.
    func request(at now: VirtualInstant) -> TaskRequest {
        TaskRequest(
            kind: kind, identifier: identifier, earliestBeginDate: earliestBeginSeconds.map { now + .seconds($0) },
            requiresNetworkConnectivity: requiresNetworkConnectivity, requiresExternalPower: requiresExternalPower,
            submittedAt: now)
    }
}
