/// A request to install an app, as a client describes it, validated into an `App`.
public struct AppInstallation: Sendable, Equatable {
    public var bundleId: String
    public var displayName: String?
    public var backgroundModes: [String]
    public var permittedIdentifiers: [String]
    public var exitsOnSuspend: Bool
    /// nil means every permitted identifier (the common case: the app registers all it declares).
    public var launchHandlers: [String]?
    /// How the client spelled the plist's container in field names: `infoPlist.` for JSON, nothing for a real plist.
    public var fieldPrefix: String
    /// Build settings the plist refers to outside the keys the emulation needs that nothing set.
    public var unresolvedBuildSettings: [String] = []
    /// What reading the build settings left aside (an `.xcconfig`'s `#include` lines).
    public var buildSettingNotes: [String] = []

    public init(
        bundleId: String, displayName: String? = nil, backgroundModes: [String] = [], permittedIdentifiers: [String] = [],
        exitsOnSuspend: Bool = false, launchHandlers: [String]? = nil, fieldPrefix: String = "infoPlist."
    ) {
        self.bundleId = bundleId
        self.displayName = displayName
        self.backgroundModes = backgroundModes
        self.permittedIdentifiers = permittedIdentifiers
        self.exitsOnSuspend = exitsOnSuspend
        self.launchHandlers = launchHandlers
        self.fieldPrefix = fieldPrefix
    }

    public init(_ plist: InfoPlist, launchHandlers: [String]? = nil, fieldPrefix: String = "") {
        self.init(
            bundleId: plist.bundleId, displayName: plist.displayName, backgroundModes: plist.backgroundModes,
            permittedIdentifiers: plist.permittedIdentifiers, exitsOnSuspend: plist.exitsOnSuspend,
            launchHandlers: launchHandlers, fieldPrefix: fieldPrefix)
        unresolvedBuildSettings = plist.unresolvedBuildSettings
    }

    /// Checks every field; every issue names its field as the client spelled it.
    public func validated(installedAt: VirtualInstant) throws -> App {
        var issues: [FieldIssue] = []
        if let problem = AppInstallation.bundleIdProblem(bundleId) { issues.append(FieldIssue("bundleId", problem)) }
        if let displayName, displayName.count > 200 {
            issues.append(FieldIssue("displayName", "must be at most 200 characters"))
        }
        let modes: [BackgroundMode]
        switch BackgroundMode.validate(backgroundModes) {
        case .success(let valid): modes = valid
        case .failure(let failure):
            modes = []
            issues += failure.issues.map { FieldIssue(fieldPrefix + "UIBackgroundModes" + $0.field, $0.message) }
        }
        for (index, identifier) in permittedIdentifiers.enumerated() {
            if identifier.isEmpty || identifier.codePointCount > 255 || identifier.containsWhiteSpace
                || identifier.containsControlCharacter
            {
                issues.append(FieldIssue(
                    fieldPrefix + "BGTaskSchedulerPermittedIdentifiers[\(index)]",
                    "must be 1–255 characters without white space or control characters"))
            }
        }
        if Set(permittedIdentifiers).count != permittedIdentifiers.count {
            issues.append(FieldIssue(fieldPrefix + "BGTaskSchedulerPermittedIdentifiers", "must not repeat an identifier"))
        }
        for (index, handler) in (launchHandlers ?? []).enumerated() where !permittedIdentifiers.contains(handler) {
            issues.append(FieldIssue(
                "launchHandlers[\(index)]",
                "\"\(handler)\" is not in BGTaskSchedulerPermittedIdentifiers; registering it would crash the app"))
        }
        guard issues.isEmpty else { throw EmulationError.invalid(issues) }
        let manifest = AppManifest(
            backgroundModes: modes, permittedIdentifiers: permittedIdentifiers, exitsOnSuspend: exitsOnSuspend)
        var app = App(
            bundleId: bundleId, displayName: displayName, manifest: manifest,
            launchHandlers: launchHandlers.map(\.uniqued), installedAt: installedAt)
        app.unresolvedBuildSettings = unresolvedBuildSettings
        app.buildSettingNotes = buildSettingNotes
        return app
    }

    /// Why `bundleId` is not a valid bundle identifier (reverse-DNS: letters, digits, `-` and `.`), or nil.
    public static func bundleIdProblem(_ bundleId: String) -> String? {
        if bundleId.isEmpty || bundleId.utf8.count > 155 { return "must be 1–155 characters" }
        let valid = bundleId.utf8.allSatisfy { c in
            (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 45 || c == 46
        }
        if !valid { return "may contain only letters, digits, '-' and '.'" }
        if bundleId.hasPrefix(".") || bundleId.hasSuffix(".") || bundleId.contains("..") {
            return "must be dot-separated components such as com.example.app"
        }
        return nil
    }
}

extension Array where Element: Hashable {
    /// The elements in order, each kept once.
    var uniqued: [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
