import Foundation

/// What bgemu reads from a real `Info.plist`, XML or binary (`bplist00`), after expanding its build settings.
public struct InfoPlist: Sendable, Equatable {
    /// `CFBundleIdentifier`.
    public var bundleId: String
    /// `CFBundleDisplayName`, else `CFBundleName`.
    public var displayName: String?
    /// `UIBackgroundModes` as written, before validation.
    public var backgroundModes: [String]
    /// `BGTaskSchedulerPermittedIdentifiers`.
    public var permittedIdentifiers: [String]
    /// `UIApplicationExitsOnSuspend`.
    public var exitsOnSuspend: Bool
    /// Build settings referred to outside the keys the emulation needs that nothing sets, sorted; their
    /// references are kept as written.
    public var unresolvedBuildSettings: [String]

    public init(
        bundleId: String, displayName: String? = nil, backgroundModes: [String] = [],
        permittedIdentifiers: [String] = [], exitsOnSuspend: Bool = false, unresolvedBuildSettings: [String] = []
    ) {
        self.bundleId = bundleId
        self.displayName = displayName
        self.backgroundModes = backgroundModes
        self.permittedIdentifiers = permittedIdentifiers
        self.exitsOnSuspend = exitsOnSuspend
        self.unresolvedBuildSettings = unresolvedBuildSettings
    }

    /// The keys the emulation reads: a build setting left unresolved in one of them is an error, not a note.
    public static let emulatedKeys: Set<String> = [
        "CFBundleIdentifier", "UIBackgroundModes", "BGTaskSchedulerPermittedIdentifiers", "UIApplicationExitsOnSuspend",
    ]

    /// Reads a property list; `EmulationError.invalid` names the key that is missing, of the wrong type, or that
    /// refers to a build setting nothing gives.
    public static func parse(
        _ bytes: [UInt8], settings: BuildSettings = BuildSettings(), requestedBundleId: String? = nil,
        settingsGiven: SettingsGiven = .upload
    ) throws -> InfoPlist {
        if BinaryPropertyListCheck.claims(bytes), let problem = BinaryPropertyListCheck.problem(bytes) {
            throw EmulationError.invalid([FieldIssue("Info.plist", "is not a property list (XML or binary): it \(problem)")])
        }
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            throw EmulationError.invalid([FieldIssue("Info.plist", "is not a property list (XML or binary)")])
        }
        guard let dict = root as? [String: Any] else {
            throw EmulationError.invalid([FieldIssue("Info.plist", "the top level must be a dictionary")])
        }
        return try read(dict, settings: settings, requestedBundleId: requestedBundleId, settingsGiven: settingsGiven)
    }

    /// Reads a property list's top-level dictionary, expanding every string in it with `settings` (Xcode's
    /// "Expand Build Settings in Info.plist File"). Field names in issues start with `fieldPrefix`.
    /// `requestedBundleId` is the bundle identifier the client gave as a build setting: a plist that writes
    /// another one literally, without a setting, is refused rather than installed under a name not asked for.
    public static func read(
        _ dict: [String: Any], settings: BuildSettings, fieldPrefix: String = "", requestedBundleId: String? = nil,
        settingsGiven: SettingsGiven = .upload
    ) throws -> InfoPlist {
        var settings = settings
        if let literal = dict["CFBundleIdentifier"] as? String, !literal.contains("$(") && !literal.contains("${") {
            if let requestedBundleId, requestedBundleId != literal {
                throw EmulationError.invalid([FieldIssue(
                    "bundleId",
                    "the Info.plist's CFBundleIdentifier is \"\(literal)\", written without a build setting, so "
                        + "bundleId=\(requestedBundleId) cannot apply to it")])
            }
            if settings.literalBundleId == nil { settings.literalBundleId = literal }
        }
        var expansion = PropertyListExpansion(settings: settings)
        var expanded: [String: Any] = [:]
        for key in dict.keys.sorted() { expanded[key] = expansion.expand(dict[key]!, path: key) }

        var issues: [FieldIssue] = []
        var unresolved = Set<String>()
        for reference in expansion.unresolved {
            let key = String(reference.path.prefix { $0 != "[" })
            guard emulatedKeys.contains(key) else {
                unresolved.insert(reference.setting)
                continue
            }
            issues.append(FieldIssue(fieldPrefix + reference.path, unresolvedMessage(reference.setting, settingsGiven)))
        }
        func strings(_ key: String) -> [String] {
            guard let value = expanded[key] else { return [] }
            guard let array = value as? [Any], let strings = array as? [String] else {
                issues.append(FieldIssue(fieldPrefix + key, "must be an array of strings"))
                return []
            }
            return strings
        }
        let bundleId = expanded["CFBundleIdentifier"] as? String
        if bundleId == nil {
            issues.append(FieldIssue(fieldPrefix + "CFBundleIdentifier", "is required and must be a string"))
        }
        let modes = strings("UIBackgroundModes")
        let identifiers = strings("BGTaskSchedulerPermittedIdentifiers")
        var exits = false
        if let value = expanded["UIApplicationExitsOnSuspend"] {
            if let flag = boolean(value) { exits = flag } else {
                issues.append(FieldIssue(fieldPrefix + "UIApplicationExitsOnSuspend", "must be a boolean"))
            }
        }
        guard issues.isEmpty, let bundleId else { throw EmulationError.invalid(issues) }
        let displayName = (expanded["CFBundleDisplayName"] as? String) ?? (expanded["CFBundleName"] as? String)
        return InfoPlist(
            bundleId: bundleId, displayName: displayName, backgroundModes: modes, permittedIdentifiers: identifiers,
            exitsOnSuspend: exits, unresolvedBuildSettings: unresolved.sorted())
    }

    /// A boolean, or a string that an expanded setting made of one (`YES`, `NO`, `true`, `false`, `1`, `0`).
    static func boolean(_ value: Any) -> Bool? {
        if let flag = value as? Bool { return flag }
        guard let text = value as? String else { return nil }
        switch text.lowercased() {
        case "yes", "true", "1": return true
        case "no", "false", "0": return false
        default: return nil
        }
    }

    /// How to give a setting that a key the emulation needs refers to.
    static func unresolvedMessage(_ setting: String, _ given: SettingsGiven) -> String {
        switch given {
        case .upload:
            let how = setting == "PRODUCT_BUNDLE_IDENTIFIER"
                ? "?bundleId=com.example.app (or ?setting=PRODUCT_BUNDLE_IDENTIFIER=com.example.app)"
                : "?setting=\(setting)=VALUE"
            return "refers to the build setting \(setting), which nothing sets: pass it with \(how), in a buildSettings "
                + "object, or in an xcconfig part"
        case .forecastRequest:
            let how = setting == "PRODUCT_BUNDLE_IDENTIFIER" ? "app.bundleId" : "app.buildSettings as \(setting)=VALUE"
            return "refers to the build setting \(setting), which nothing sets: pass it in \(how)"
        }
    }

    /// Where the client gives the build settings a property list refers to, for the message that asks for one.
    public enum SettingsGiven: Sendable {
        /// An upload to the `apps` route: its query, a JSON `buildSettings` object, `.xcconfig` parts.
        case upload
        /// A forecast request: `app.bundleId` and `app.buildSettings`.
        case forecastRequest
    }
}
