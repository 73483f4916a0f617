/// The wildcard identifiers of continued processing (R41): Apple's `init(identifier:title:subtitle:)` says the
/// identifier "must leverage a base wildcard notation": `BGTaskSchedulerPermittedIdentifiers` lists
/// `<bundle id>.<context>.*`, the launch handler is registered for that pattern, and each submitted identifier
/// replaces the `*` (`com.example.app.export.4F2A`).
public enum WildcardIdentifier {
    /// Whether `pattern` is a wildcard identifier of the app `bundleId`: it ends with `.*` and its prefix is the
    /// bundle id or starts with it.
    public static func isPattern(_ pattern: String, of bundleId: String) -> Bool {
        guard pattern.hasSuffix(".*") else { return false }
        let prefix = pattern.dropLast(2)
        return prefix == bundleId || prefix.hasPrefix(bundleId + ".")
    }

    /// Whether `identifier` is an instance of `pattern` (`a.b.*` matches `a.b.x`, never `a.b.` nor `a.b`).
    public static func matches(_ identifier: String, _ pattern: String) -> Bool {
        guard pattern.hasSuffix(".*") else { return false }
        let stem = pattern.dropLast(1)
        return identifier.count > stem.count && identifier.hasPrefix(stem)
    }
}

extension AppManifest {
    /// R15 and R41: a BGTask request's identifier is listed as is; a continued processing request's matches one of
    /// the app's wildcard identifiers.
    func permits(_ request: TaskRequest, bundleId: String) -> Bool {
        guard request.kind == .continuedProcessing else { return permittedIdentifiers.contains(request.identifier) }
        return permittedIdentifiers.contains {
            WildcardIdentifier.isPattern($0, of: bundleId) && WildcardIdentifier.matches(request.identifier, $0)
        }
    }
}

extension App {
    /// R16 and R41: a handler is registered for the identifier, or (continued processing) for its wildcard pattern.
    func hasLaunchHandler(for request: TaskRequest) -> Bool {
        if launchHandlers.contains(request.identifier) { return true }
        return request.kind == .continuedProcessing
            && launchHandlers.contains { WildcardIdentifier.matches(request.identifier, $0) }
    }

    /// `permits` for this app's manifest.
    func permits(_ request: TaskRequest) -> Bool { manifest.permits(request, bundleId: bundleId) }
}
