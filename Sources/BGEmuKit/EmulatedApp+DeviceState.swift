import Foundation

/// The notifications a change of the device's state posts on `NotificationCenter.default`, from the device's events
/// (`device.conditionsChanged`, which every app of the device sees, and the app's own `app.settingsChanged`):
/// `NSProcessInfoPowerStateDidChange` for Low Power Mode, `backgroundRefreshStatusDidChangeNotification` for
/// Low Power Mode and either Background App Refresh switch, the protected-data pair for the lock. The app reads the
/// new values from `ProcessInfo` and `UIApplication` in its observers.
///
/// A running app gets them within the event's turn. A suspended app gets them when it runs again (before the
/// callback that resumes it), each name once, as iOS delivers the notifications a suspended app missed on resume;
/// an app that is not running gets none (its next launch reads the values fresh).
extension EmulatedApp {
    /// Posts, or keeps for the app's next resume, what `event` (a change of the device's state) means for the app.
    func deviceStateChanged(_ event: DeviceEvent) {
        let names = Self.stateNotifications(for: event)
        guard !names.isEmpty else { return }
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
        now.forEach(Self.post)
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
        missed.forEach(Self.post)
    }

    /// The notifications `event` posts, in the order iOS posts them.
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
    private static func post(_ name: Notification.Name) {
        let object: Any = name == .NSProcessInfoPowerStateDidChange ? ProcessInfo.processInfo : UIApplication.shared
        NotificationCenter.default.post(name: name, object: object)
    }
}
