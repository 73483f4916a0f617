import Foundation

/// What bgemu reads from a real `Info.plist`, XML or binary (`bplist00`).
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

    public init(
        bundleId: String, displayName: String? = nil, backgroundModes: [String] = [],
        permittedIdentifiers: [String] = [], exitsOnSuspend: Bool = false
    ) {
        self.bundleId = bundleId
        self.displayName = displayName
        self.backgroundModes = backgroundModes
        self.permittedIdentifiers = permittedIdentifiers
        self.exitsOnSuspend = exitsOnSuspend
    }

    /// Reads a property list; `EmulationError.invalid` names the key that is missing or of the wrong type.
    public static func parse(_ bytes: [UInt8]) throws -> InfoPlist {
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            throw EmulationError.invalid([FieldIssue("Info.plist", "is not a property list (XML or binary)")])
        }
        guard let dict = root as? [String: Any] else {
            throw EmulationError.invalid([FieldIssue("Info.plist", "the top level must be a dictionary")])
        }
        var issues: [FieldIssue] = []
        func strings(_ key: String) -> [String] {
            guard let value = dict[key] else { return [] }
            guard let array = value as? [Any], let strings = array as? [String] else {
                issues.append(FieldIssue(key, "must be an array of strings"))
                return []
            }
            return strings
        }
        let bundleId = dict["CFBundleIdentifier"] as? String
        if bundleId == nil { issues.append(FieldIssue("CFBundleIdentifier", "is required and must be a string")) }
        let modes = strings("UIBackgroundModes")
        let identifiers = strings("BGTaskSchedulerPermittedIdentifiers")
        var exits = false
        if let value = dict["UIApplicationExitsOnSuspend"] {
            if let flag = value as? Bool { exits = flag } else {
                issues.append(FieldIssue("UIApplicationExitsOnSuspend", "must be a boolean"))
            }
        }
        guard issues.isEmpty, let bundleId else { throw EmulationError.invalid(issues) }
        let displayName = (dict["CFBundleDisplayName"] as? String) ?? (dict["CFBundleName"] as? String)
        return InfoPlist(
            bundleId: bundleId, displayName: displayName, backgroundModes: modes, permittedIdentifiers: identifiers,
            exitsOnSuspend: exits)
    }
}
