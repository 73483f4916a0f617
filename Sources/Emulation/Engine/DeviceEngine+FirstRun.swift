/// When a pending request would first run if nothing else changed (issue 29: the next opportunity alone ignores the
/// request's own `earliestBeginDate`, its budget and the predicted use).
extension DeviceEngine {
    /// The conditions no passing of time can meet: the app's declarations and the device's and the user's state.
    /// A request blocked by one of them never runs until something else changes.
    static let timelessConditions: Set<String> = [
        "permitted", "launchHandlerRegistered", "networkAvailable", "externalPower", "deviceIdle", "notInForeground",
        "batteryNotCritical", "lowPowerModeOff", "backgroundAppRefreshDevice", "backgroundAppRefreshApp", "notForceQuit",
    ]

    /// How far ahead ``firstRun(of:identifier:conditions:)`` looks.
    static let firstRunHorizon = VirtualDuration.seconds(30 * 86_400)

    /// When the pending request `identifier` of app `i` would start its first run, if nothing but time changed,
    /// and the unmet conditions that keep it from ever running by time alone (then the instant is nil). Found by
    /// playing a copy of this engine forward (the same seeded draws, the same opportunities and budgets), so it is
    /// exact for a device nobody touches; apps' code that a client answers is taken as not answering. Nil with no
    /// blockers: no run within ``firstRunHorizon``.
    func firstRun(of i: AppSlot, identifier: String, conditions: [EligibilityCondition]) -> (at: VirtualInstant?, blockedBy: [String]) {
        let blockers = conditions.filter { !$0.met && Self.timelessConditions.contains($0.name) }.map(\.name)
        guard blockers.isEmpty else { return (nil, blockers) }
        var future = self
        future.events.removeAll(keepingCapacity: false)
        let bundleId = device.apps[i].bundleId
        let horizon = now + Self.firstRunHorizon
        for _ in 0..<10_000 {
            let stopped = (try? future.advance(to: min(horizon, VirtualInstant.latest), stoppingAtAppCode: true)) ?? false
            if let started = future.events.first(where: {
                $0.type == .runStarted && $0.bundleId == bundleId && $0.data["identifier"] == .string(identifier)
            }) {
                return (started.at, [])
            }
            // The request went without running (cancelled, the app gone): it will not run.
            guard future.device.appSlot(bundleId).map({ future.device.apps[$0].runtime.taskRequests.contains { $0.identifier == identifier } }) == true,
                  stopped
            else { return (nil, []) }
            future.events.removeAll(keepingCapacity: true)
        }
        return (nil, [])
    }
}
