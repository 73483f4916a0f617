import Foundation

/// The notifications a change of the device's state posts on `NotificationCenter.default`, from the device's events
/// (`device.conditionsChanged`, which every app of the device sees, and the app's own `app.settingsChanged`):
/// `NSProcessInfoPowerStateDidChange` for Low Power Mode, `backgroundRefreshStatusDidChangeNotification` when Low
/// Power Mode or a Background App Refresh switch changed the app's status, the protected-data pair for the lock. The app reads the
/// new values from `ProcessInfo` and `UIApplication` in its observers.
///
/// A running app gets them within the event's turn. A suspended app gets them when it runs again (before the
/// callback that resumes it), each name once, as iOS delivers the notifications a suspended app missed on resume;
/// an app that is not running gets none (its next launch reads the values fresh). `NotificationCenter.default` is
/// the process's: with several apps of a device in one process, an observer sees each app's post.
extension EmulatedApp {
    /// Posts, or keeps for the app's next resume, what `event` (a change of the device's state) means for the app.
    func deviceStateChanged(_ event: DeviceEvent) {
        var names = Self.stateNotifications(for: event)
        guard !names.isEmpty, lock.withLock({ state }) != "notRunning" else { return }
        if names.contains(UIApplication.backgroundRefreshStatusDidChangeNotification), !refreshStatusChanged(by: event) {
            names.removeAll { $0 == UIApplication.backgroundRefreshStatusDidChangeNotification }
        }
        let now = lock.withLock { () -> [Notification.Name] in
            switch state {
            case "active", "inactive", "background":
                return names
            case "suspended":
                for name in names where !deferredNotifications.contains(name) { deferredNotifications.append(name) }
                return []
            default:
                return []
            }
        }
        now.forEach(post)
    }

    /// Posts what a suspended app missed, once it runs again (state `to`).
    func appStateChanged(to: String) {
        let missed = lock.withLock { () -> [Notification.Name] in
            state = to
            switch to {
            case "active", "inactive", "background":
                defer { deferredNotifications = [] }
                return deferredNotifications
            case "notRunning":
                deferredNotifications = []
                return []
            default:
                return []
            }
        }
        missed.forEach(post)
    }

    /// Whether `event` changed the app's `backgroundRefreshStatus` (iOS posts its notification only then): its
    /// inputs before the event (the event's `from` values; the app's switch before an `app.settingsChanged` is the
    /// opposite of after, as the service records only changes) against after, the inputs the event does not change
    /// as they are now. True when the service cannot be read, rather than miss a change.
    func refreshStatusChanged(by event: DeviceEvent) -> Bool {
        guard let conditions = attempt({ try service.conditions() }),
              let status = attempt({ try service.appStatus(bundleId) }) else { return true }
        var before = (device: conditions.backgroundAppRefresh, lowPower: conditions.lowPowerMode, app: status.backgroundAppRefresh)
        var after = before
        if event.type == .appSettingsChanged, let on = event.data["backgroundAppRefresh"]?.boolValue {
            (before.app, after.app) = (!on, on)
        }
        if case .object(let changes)? = event.data["changes"] {
            if let from = changes["backgroundAppRefresh"]?["from"]?.boolValue, let to = changes["backgroundAppRefresh"]?["to"]?.boolValue {
                (before.device, after.device) = (from, to)
            }
            if let from = changes["lowPowerMode"]?["from"]?.boolValue, let to = changes["lowPowerMode"]?["to"]?.boolValue {
                (before.lowPower, after.lowPower) = (from, to)
            }
        }
        return (before.device && !before.lowPower && before.app) != (after.device && !after.lowPower && after.app)
    }

    /// The notifications `event` may post, in the order iOS posts them (`backgroundRefreshStatusDidChangeNotification`
    /// only if ``refreshStatusChanged(by:)``).
    static func stateNotifications(for event: DeviceEvent) -> [Notification.Name] {
        switch event.type {
        case .appSettingsChanged:
            return event.data["backgroundAppRefresh"].map { _ in [UIApplication.backgroundRefreshStatusDidChangeNotification] } ?? []
        case .deviceConditionsChanged:
            guard case .object(let changes)? = event.data["changes"] else { return [] }
            var names: [Notification.Name] = []
            if changes["lowPowerMode"] != nil { names.append(.NSProcessInfoPowerStateDidChange) }
            if changes["lowPowerMode"] != nil || changes["backgroundAppRefresh"] != nil {
                names.append(UIApplication.backgroundRefreshStatusDidChangeNotification)
            }
            if let locked = changes["locked"]?["to"]?.boolValue {
                names.append(locked
                    ? UIApplication.protectedDataWillBecomeUnavailableNotification
                    : UIApplication.protectedDataDidBecomeAvailableNotification)
            }
            return names
        default:
            return []
        }
    }

    /// Posts `name` with the object iOS posts it with: the process's `ProcessInfo` for the power state, else the
    /// application.
    private func post(_ name: Notification.Name) {
        let object: Any = name == .NSProcessInfoPowerStateDidChange ? ProcessInfo.processInfo : UIApplication.shared
        postSoon(name, object: object)
    }
}
