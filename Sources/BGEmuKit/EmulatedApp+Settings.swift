extension EmulatedApp {
    /// The user changes the app's own switches in Settings; each left nil keeps its value. The app's Background App
    /// Refresh off makes `submit` throw `.unavailable` and `backgroundRefreshStatus` answer `.denied` (R18); a
    /// running app gets `backgroundRefreshStatusDidChangeNotification`.
    public func setSettings(backgroundAppRefresh: Bool? = nil, isolation: isolated (any Actor)? = #isolation) async throws {
        var patch: [String: JSONValue] = [:]
        if let backgroundAppRefresh { patch["backgroundAppRefresh"] = .bool(backgroundAppRefresh) }
        try await device.perform { try service.setAppSettings(bundleId, patch) }
    }
}
