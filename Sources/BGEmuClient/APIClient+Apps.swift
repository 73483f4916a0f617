/// An app's lifecycle action as its route names it (`POST …/apps/{bundleId}/{action}`).
public enum AppAction: String, Sendable {
    case launch, background, foreground, terminate
    case forceQuit = "force-quit"
}

extension APIClient {
    /// `/v1/devices/{device}/apps/{bundleId}/…`.
    static func appPath(_ device: String, _ bundleId: String, _ rest: String...) -> String {
        PathEncoding.path(["v1", "devices", device, "apps", bundleId] + rest)
    }

    /// `POST …/apps` with a JSON installation body (`InstallApp`): the installed app.
    public func installApp(_ device: String, _ body: JSONValue) throws(ClientFailure) -> JSONValue {
        try json("POST", Self.devicePath(device, "apps"), body: body)
    }

    /// `POST …/apps` with an `Info.plist` (XML or binary), an `.ipa` or zipped `.app`, or a JSON body, as
    /// `contentType` says; `bundleId` and `settings` (`NAME=VALUE`) fill in the build settings the plist refers to,
    /// `launchHandlers` (when not nil) the identifiers the app registers at launch.
    public func installApp(
        _ device: String, bytes: [UInt8], contentType: String, bundleId: String? = nil, settings: [String] = [],
        launchHandlers: [String]? = nil
    ) throws(ClientFailure) -> JSONValue {
        var query: [(String, String)] = []
        if let bundleId { query.append(("bundleId", bundleId)) }
        query += settings.map { ("setting", $0) }
        if let launchHandlers { query.append(("launchHandlers", launchHandlers.joined(separator: ","))) }
        return try upload("POST", Self.devicePath(device, "apps"), query: query, bytes: bytes, contentType: contentType)
    }

    /// `GET …/apps/{bundleId}`.
    public func app(_ device: String, _ bundleId: String) throws(ClientFailure) -> JSONValue {
        try json("GET", Self.appPath(device, bundleId))
    }

    /// `POST …/apps/{bundleId}/{action}`: the app after it. A launch may name the identifiers the app registers
    /// with `BGTaskScheduler` during it (R16).
    @discardableResult
    public func perform(
        _ action: AppAction, _ device: String, _ bundleId: String, launchHandlers: [String]? = nil
    ) throws(ClientFailure) -> JSONValue {
        let body: JSONValue? = launchHandlers.map { ["launchHandlers": .array($0.map(JSONValue.string))] }
        return try json("POST", Self.appPath(device, bundleId, action.rawValue), body: body)
    }

    /// `PATCH …/apps/{bundleId}/settings` (the app's own switches: `backgroundAppRefresh`).
    @discardableResult
    public func setAppSettings(_ device: String, _ bundleId: String, _ patch: [String: JSONValue]) throws(ClientFailure) -> JSONValue {
        try json("PATCH", Self.appPath(device, bundleId, "settings"), body: .object(patch))
    }

    /// `PUT …/apps/{bundleId}/fetch-interval` (`setMinimumBackgroundFetchInterval`).
    @discardableResult
    public func setFetchInterval(_ device: String, _ bundleId: String, _ interval: JSONValue) throws(ClientFailure) -> JSONValue {
        try json("PUT", Self.appPath(device, bundleId, "fetch-interval"), body: ["interval": interval])
    }

    /// `POST …/apps/{bundleId}/notifications`: a local notification (R40).
    @discardableResult
    public func scheduleNotification(_ device: String, _ bundleId: String, _ body: JSONValue) throws(ClientFailure) -> JSONValue {
        try json("POST", Self.appPath(device, bundleId, "notifications"), body: body)
    }

    /// `DELETE …/apps/{bundleId}/notifications/{identifier}`.
    public func cancelNotification(_ device: String, _ bundleId: String, identifier: String) throws(ClientFailure) {
        _ = try send("DELETE", Self.appPath(device, bundleId, "notifications", identifier))
    }
}
