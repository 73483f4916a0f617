/// Remote notifications: APNs's checks, the power-aware delivery of background pushes, coalescing and
/// throttling, and the wake-up run (R29–R31). A push to the app in the foreground reaches its delegate at once:
/// the power-aware policy and the budget are for background pushes only (R30).
extension DeviceEngine {
    /// APNs hands a push to the device. A push APNs would refuse throws `PushRejection` and leaves no trace.
    public mutating func receivePush(_ request: PushRequest) throws(PushRejection) -> PushOutcome {
        let push = try APNsValidation.validate(request, now: now)
        guard let i = device.appSlot(push.bundleId) else {
            throw PushRejection(400, "BadTopic", "apns-topic \(push.bundleId) names no app installed on the device.")
        }
        emit(.pushReceived, bundleId: push.bundleId, data: [
            "apnsId": .string(push.apnsId), "pushType": .string(push.pushType.rawValue), "priority": .int(Int64(push.priority)),
            "contentAvailable": .bool(push.contentAvailable), "alert": .bool(push.alerting),
            "collapseId": .optional(push.collapseId), "expiration": push.expiration.map(EventValue.instant) ?? .null,
        ])
        var notified = false
        if push.alerting {
            deliverNotification(i, source: "remote", identifier: push.apnsId, title: push.title, body: push.body)
            notified = true
        }
        var outcome: PushOutcome
        if push.contentAvailable {
            outcome = wake(i, push)
        } else if notified {
            outcome = PushOutcome(apnsId: push.apnsId, kind: .delivered, inForeground: inForeground(i))
            emit(.pushDelivered, bundleId: push.bundleId, data: [
                "apnsId": .string(push.apnsId), "runId": .null, "inForeground": .bool(inForeground(i)),
            ])
        } else {
            outcome = drop(i, push, reason: "noContentAvailable")
        }
        outcome.notificationDelivered = notified
        return outcome
    }

    /// R29–R31: a push with `content-available: 1` wakes the app now, is deferred, or is dropped. The app in
    /// the foreground gets it at once, whatever the power-aware policy (R30).
    private mutating func wake(_ i: AppSlot, _ push: Push) -> PushOutcome {
        if let reason = dropReason(i, push) { return drop(i, push, reason: reason) }
        if inForeground(i) { return deliver(i, push, reason: "push") }
        guard let reason = deferralReason(i) else { return deliver(i, push, reason: "push") }
        if push.deliverNowOrNever { return drop(i, push, reason: "expired") }
        return deferPush(i, push, reason: reason)
    }

    /// Why a wake-up can never happen, whatever the power: nil when it can.
    private func dropReason(_ i: AppSlot, _ push: Push) -> String? {
        let app = device.apps[i]
        if policy.appRefreshRun == nil { return "unsupportedOS" }  // content-available came with iOS 7
        if !app.manifest.declares(.remoteNotification) { return "modeMissing" }  // R29
        if app.runtime.forceQuit { return "forceQuit" }  // R31
        if push.isExpired(at: now) { return "expired" }
        // Background App Refresh governs background delivery; the foreground app's delegate gets the push anyway.
        if !inForeground(i), !device.conditions.backgroundAppRefresh || !app.settings.backgroundAppRefresh {
            return "backgroundAppRefreshOff"
        }
        return nil
    }

    /// Whether the app is in the foreground (active or inactive), where a push reaches it at once.
    private func inForeground(_ i: AppSlot) -> Bool {
        device.apps[i].state == .active || device.apps[i].state == .inactive
    }

    /// R30: the power-aware policy; nil when a background push may be delivered now.
    private func deferralReason(_ i: AppSlot) -> String? {
        let c = device.conditions
        if c.lowPowerMode { return "lowPowerMode" }
        if c.batteryLevel <= policy.criticalBatteryLevel, !c.charging { return "batteryCritical" }
        if budgetUsed(i) >= dailyBudget(i) { return "budget" }
        let hourAgo = now - .seconds(3600)
        let recent = device.apps[i].runtime.pushesDelivered(after: hourAgo)
        if recent >= policy.backgroundPushesPerHour { return "throttled" }
        return nil
    }

    /// R31: the app is woken, or launched into the background, with a `remoteNotification` run (≈30 s), and its
    /// delegate's `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)` is called for it (the
    /// `app.delegate` event names the run, whose end the completion handler reports).
    /// R30: the app in the foreground gets `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`
    /// while active: no background time is granted (no run) and the delivery does not count towards
    /// `backgroundPushesPerHour`.
    private mutating func deliver(_ i: AppSlot, _ push: Push, reason: String) -> PushOutcome {
        if inForeground(i) {
            delegate(i, .didReceiveRemoteNotification, ["apnsId": .string(push.apnsId), "reason": .string(reason)])
            emit(.pushDelivered, bundleId: push.bundleId, data: [
                "apnsId": .string(push.apnsId), "runId": .null, "inForeground": true,
            ])
            return PushOutcome(apnsId: push.apnsId, kind: .delivered, inForeground: true)
        }
        let run = startRun(
            i, kind: .remoteNotification, reason: reason, duration: policy.appRefreshRun ?? .seconds(30),
            extra: ["apnsId": .string(push.apnsId)])
        delegate(i, .didReceiveRemoteNotification, ["apnsId": .string(push.apnsId), "reason": .string(reason), "runId": .string(run.id)])
        var pushes = device.apps[i].runtime.pushes ?? AppPushes()
        let hourAgo = now - .seconds(3600)
        pushes.recentDeliveries = pushes.recentDeliveries.filter { $0 > hourAgo } + [now]
        device.apps[i].runtime.pushes = pushes
        emit(.pushDelivered, bundleId: push.bundleId, data: [
            "apnsId": .string(push.apnsId), "runId": .string(run.id), "inForeground": false,
        ])
        return PushOutcome(apnsId: push.apnsId, kind: .delivered, runId: run.id)
    }

    private mutating func drop(_ i: AppSlot, _ push: Push, reason: String) -> PushOutcome {
        emit(.pushDropped, bundleId: push.bundleId, data: ["apnsId": .string(push.apnsId), "reason": .string(reason)])
        return PushOutcome(apnsId: push.apnsId, kind: .dropped, reason: reason)
    }

    /// R30: held; a newer deferred push replaces the older one (coalescing).
    private mutating func deferPush(_ i: AppSlot, _ push: Push, reason: String) -> PushOutcome {
        var pushes = device.apps[i].runtime.pushes ?? AppPushes()
        let replaced = pushes.deferred.map(\.apnsId)
        for old in replaced {
            emit(.pushCoalesced, bundleId: push.bundleId, data: ["apnsId": .string(old), "replacedBy": .string(push.apnsId)])
            cancelTimers { $0 == .pushExpiration(bundleId: push.bundleId, apnsId: old) }
        }
        pushes.deferred = [push]
        device.apps[i].runtime.pushes = pushes
        emit(.pushDeferred, bundleId: push.bundleId, data: ["apnsId": .string(push.apnsId), "reason": .string(reason)])
        if let expiration = push.expiration {
            schedule(.pushExpiration(bundleId: push.bundleId, apnsId: push.apnsId), at: expiration)
        }
        return PushOutcome(
            apnsId: push.apnsId, kind: replaced.isEmpty ? .deferred : .coalesced, reason: reason, replacedApnsId: replaced.last)
    }

    /// R30: delivers the app's deferred push when the user launches it (at once) or when the policy allows;
    /// drops it when it expired or can no longer be delivered.
    mutating func deliverDeferredPushes(_ i: AppSlot, userLaunch: Bool) {
        guard let deferred = device.apps[i].runtime.pushes?.deferred, !deferred.isEmpty else { return }
        for push in deferred {
            if let reason = dropReason(i, push) {
                removeDeferred(i, push)
                _ = drop(i, push, reason: reason)
            } else if userLaunch || deferralReason(i) == nil {
                removeDeferred(i, push)
                _ = deliver(i, push, reason: userLaunch ? "userLaunch" : "deferredPush")
            }
        }
    }

    /// Rechecks every app's deferred push (at an opportunity, when conditions change).
    mutating func deliverDeferredPushes() {
        // `hasDeferredPush` reads the app in place: the optional chain written here copied the whole app (its
        // arrays and strings retained and released) for every app at every opportunity.
        for i in device.appSlots where device.apps[i].runtime.hasDeferredPush {
            deliverDeferredPushes(i, userLaunch: false)
        }
    }

    /// R31: a force quit drops the app's deferred push.
    mutating func dropDeferredPushes(_ i: AppSlot, reason: String) {
        for push in device.apps[i].runtime.pushes?.deferred ?? [] {
            removeDeferred(i, push)
            _ = drop(i, push, reason: reason)
        }
    }

    /// R30: a push still deferred at its `apns-expiration` is discarded at that instant (APNs stores a push until
    /// then, and no longer). One delivered, dropped or replaced before has nothing left to expire.
    mutating func deferredPushExpired(_ bundleId: String, apnsId: String) {
        guard let i = device.appSlot(bundleId),
              let push = device.apps[i].runtime.pushes?.deferred.first(where: { $0.apnsId == apnsId })
        else { return }
        removeDeferred(i, push)
        _ = drop(i, push, reason: "expired")
    }

    private mutating func removeDeferred(_ i: AppSlot, _ push: Push) {
        device.apps[i].runtime.pushes?.deferred.removeAll { $0.apnsId == push.apnsId }
        cancelTimers { $0 == .pushExpiration(bundleId: push.bundleId, apnsId: push.apnsId) }
    }
}
