/// Local notifications: scheduled, fired on the virtual clock whatever the app's state, capped (R40); and the
/// `notification.delivered` event remote alert pushes share.
extension DeviceEngine {
    /// `UNUserNotificationCenter.add`: schedules `notification`, replacing one with the same identifier. Over the
    /// profile's limit, the soonest are kept and the rest dropped (R40).
    public mutating func scheduleNotification(_ bundleId: String, _ notification: LocalNotification) throws {
        let i = try slot(of: bundleId)
        var issues: [FieldIssue] = []
        if notification.identifier.isEmpty { issues.append(FieldIssue("identifier", "must not be empty")) }
        if let interval = notification.timeInterval {
            if interval.milliseconds <= 0 { issues.append(FieldIssue("timeInterval", "must be more than 0")) }
            if notification.repeats, interval < LocalNotification.minimumRepeatInterval {
                issues.append(FieldIssue("timeInterval", "must be at least 60 when repeating, as iOS requires"))
            }
        } else {
            if notification.repeats { issues.append(FieldIssue("repeats", "a repeating notification needs a timeInterval")) }
        }
        guard issues.isEmpty else { throw EmulationError.invalid(issues) }
        // Whether a date is still ahead depends on the device's clock: a conflict with its state, not bad input.
        if notification.timeInterval == nil, notification.fireDate <= now {
            throw EmulationError.conflict(
                code: "fireDateNotAhead", detail: "fireDate \(notification.fireDate) is not after the device's now, \(now).")
        }
        var pending = device.apps[i].runtime.notifications ?? []
        if pending.contains(where: { $0.identifier == notification.identifier }) {
            pending.removeAll { $0.identifier == notification.identifier }
            cancelNotificationTimer(bundleId, notification.identifier)
        }
        pending.append(notification)
        // Soonest first; ties in the order they were scheduled (the sort is stable).
        pending.sort { $0.fireDate < $1.fireDate }
        emit(.notificationScheduled, bundleId: bundleId, data: [
            "identifier": .string(notification.identifier), "fireDate": .instant(notification.fireDate),
            "repeats": .bool(notification.repeats),
        ])
        let limit = policy.pendingNotificationLimit
        if pending.count > limit {
            for dropped in pending[limit...] {
                cancelNotificationTimer(bundleId, dropped.identifier)
                emit(.notificationDropped, bundleId: bundleId, data: [
                    "identifier": .string(dropped.identifier), "reason": "pendingLimit", "limit": .int(Int64(limit)),
                ])
            }
            pending.removeSubrange(limit...)
        }
        device.apps[i].runtime.notifications = pending
        if pending.contains(where: { $0.identifier == notification.identifier }) {
            schedule(.localNotification(bundleId: bundleId, identifier: notification.identifier), at: notification.fireDate)
        }
    }

    /// `removePendingNotificationRequests(withIdentifiers:)`.
    public mutating func cancelNotification(_ bundleId: String, identifier: String) throws {
        let i = try slot(of: bundleId)
        guard device.apps[i].runtime.notifications?.contains(where: { $0.identifier == identifier }) == true else {
            throw EmulationError.notFound(kind: "notification", id: identifier)
        }
        device.apps[i].runtime.notifications?.removeAll { $0.identifier == identifier }
        cancelNotificationTimer(bundleId, identifier)
        emit(.notificationCancelled, bundleId: bundleId, data: ["identifier": .string(identifier)])
    }

    /// R40: the notification fires whatever the app's state; a repeating one is scheduled again.
    mutating func localNotificationDue(_ bundleId: String, identifier: String) {
        guard let i = device.appSlot(bundleId),
            let n = device.apps[i].runtime.notifications?.firstIndex(where: { $0.identifier == identifier }),
            let notification = device.apps[i].runtime.notifications?[n]
        else { return }
        deliverNotification(i, source: "local", identifier: identifier, title: notification.title, body: notification.body)
        if notification.repeats, let interval = notification.timeInterval {
            var pending = device.apps[i].runtime.notifications ?? []
            pending[n].fireDate = now + interval
            pending.sort { $0.fireDate < $1.fireDate }
            device.apps[i].runtime.notifications = pending
            schedule(.localNotification(bundleId: bundleId, identifier: identifier), at: now + interval)
        } else {
            device.apps[i].runtime.notifications?.remove(at: n)
        }
    }

    /// The user is shown a notification: `source` is `local` or `remote`.
    mutating func deliverNotification(_ i: AppSlot, source: String, identifier: String, title: String?, body: String?) {
        emit(.notificationDelivered, bundleId: device.apps[i].bundleId, data: [
            "source": .string(source), "identifier": .string(identifier), "title": .optional(title),
            "body": .optional(body), "appState": .string(device.apps[i].state.rawValue),
        ])
    }

    private mutating func cancelNotificationTimer(_ bundleId: String, _ identifier: String) {
        cancelTimers { $0 == .localNotification(bundleId: bundleId, identifier: identifier) }
    }
}
