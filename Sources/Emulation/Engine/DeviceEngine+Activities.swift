/// Continuous background modes: audio, location, VoIP, accessories and Newsstand (R35–R39, R7).
extension DeviceEngine {
    // MARK: Commands

    /// The app starts or stops a continuous activity. `keepAliveInterval` is the VoIP keep-alive handler's
    /// interval (R37, at least 600 s). Answers whether the activity keeps the app running and, if not, why.
    @discardableResult
    public mutating func setActivity(
        _ bundleId: String, _ activity: AppActivity, active: Bool, keepAliveInterval: VirtualDuration? = nil
    ) throws -> ActivityOutcome {
        let i = try slot(of: bundleId)
        if activity == .voip, active {
            guard let interval = keepAliveInterval else {
                throw EmulationError.unprocessable(field: "keepAliveInterval", detail: "a voip activity needs its keep-alive interval")
            }
            guard interval >= .seconds(600) else {
                throw EmulationError.unprocessable(field: "keepAliveInterval", detail: "must be 600 seconds or more (R37)")
            }
        } else if keepAliveInterval != nil {
            throw EmulationError.unprocessable(field: "keepAliveInterval", detail: "only starting a voip activity takes a keep-alive interval")
        }
        var activities = device.apps[i].runtime.activities
        let was = activities.isActive(activity)
        if active, !was { activities.active.append(activity) }
        if !active { activities.active.removeAll { $0 == activity } }
        if activity == .voip { activities.keepAliveInterval = active ? keepAliveInterval : nil }
        if activity == .significantLocationChanges, !active { activities.lastSignificantFix = nil }
        device.apps[i].runtime.activities = activities
        let outcome = self.outcome(i, activity)
        emit(active ? .activityStarted : .activityStopped, bundleId: bundleId, data: [
            "activity": .string(activity.rawValue), "keepsAppRunning": .bool(outcome.keepsAppRunning),
            "reason": .string(outcome.reason),
        ])
        if activity == .voip {
            cancelTimers { $0 == .voipKeepAlive(bundleId: bundleId) }
            if active, declares(i, activity), let interval = keepAliveInterval {
                schedule(.voipKeepAlive(bundleId: bundleId), at: now + interval)
            }
        }
        if !active { settle(i) }
        return outcome
    }

    /// Whether an activity of the app keeps it running now and, if not, why.
    public func activityOutcome(_ bundleId: String, _ activity: AppActivity) throws -> ActivityOutcome {
        outcome(try slot(of: bundleId), activity)
    }

    /// Whether an activity keeps the app running now and, if not, why.
    func outcome(_ i: AppSlot, _ activity: AppActivity) -> ActivityOutcome {
        let active = device.apps[i].runtime.activities.isActive(activity)
        func answer(_ keeps: Bool, _ reason: String) -> ActivityOutcome {
            ActivityOutcome(activity: activity, active: active, keepsAppRunning: keeps, reason: reason)
        }
        guard active else { return answer(false, "inactive") }
        guard declares(i, activity) else { return answer(false, "modeNotDeclared") }
        switch activity {
        case .audio: return answer(true, "playing")
        case .location: return answer(true, "updatingLocation")
        case .significantLocationChanges: return answer(false, "wakesOnSignificantChange")
        case .voip: return answer(false, "wakesForKeepAlive")
        case .bluetooth, .externalAccessory: return answer(false, "wakesOnAccessoryData")
        }
    }

    /// The device moves (R36): apps updating their location in the background hear of it; significant-change
    /// monitors are woken or relaunched at least `significantChangeDistance` and `significantChangeInterval`
    /// from the last fix they got, a force-quit app too from iOS 8.
    /// Answers the apps woken or relaunched.
    @discardableResult
    public mutating func moveDevice(latitude: Double, longitude: Double) throws -> [String] {
        guard (-90...90).contains(latitude) else { throw EmulationError.invalid([FieldIssue("latitude", "must be from -90 to 90")]) }
        guard (-180...180).contains(longitude) else {
            throw EmulationError.invalid([FieldIssue("longitude", "must be from -180 to 180")])
        }
        let fix = LocationFix(latitude: latitude, longitude: longitude, at: now)
        device.runtime.location = fix
        emit(.deviceLocationChanged, data: ["latitude": .double(latitude), "longitude": .double(longitude)])
        var woken: [String] = []
        for i in device.appSlots {
            let app = device.apps[i]
            if app.runtime.activities.isActive(.location), app.isRunning, app.state == .active || app.state == .inactive || declares(i, .location) {
                emit(.locationDelivered, bundleId: app.bundleId, data: [
                    "latitude": .double(latitude), "longitude": .double(longitude), "significantChange": false,
                ])
            }
            guard app.runtime.activities.isActive(.significantLocationChanges) else { continue }
            if let last = app.runtime.activities.lastSignificantFix {
                guard last.distance(to: fix) >= Double(policy.significantChangeDistance),
                    now - last.at >= policy.significantChangeInterval
                else { continue }
            }
            if app.runtime.forceQuit, device.osVersion.major < 8 { continue }
            device.apps[i].runtime.activities.lastSignificantFix = fix
            emit(.locationDelivered, bundleId: app.bundleId, data: [
                "latitude": .double(latitude), "longitude": .double(longitude), "significantChange": true,
            ])
            if !(app.state == .active || app.state == .inactive) {
                startRun(i, kind: .location, reason: "significantLocationChange", duration: policy.locationWakeRun)
                woken.append(app.bundleId)
            }
        }
        return woken
    }

    /// Data arrives from an accessory (R38): apps with the matching mode and an active activity are woken (a
    /// Bluetooth app is relaunched by state restoration) for `accessoryWakeRun`, then suspended again
    /// (`RunKind.endsBySuspension`).
    /// Answers the apps woken.
    @discardableResult
    public mutating func accessoryData(_ accessoryId: String, transport: AppActivity) throws -> [String] {
        guard transport == .bluetooth || transport == .externalAccessory else {
            throw EmulationError.invalid([FieldIssue("transport", "must be bluetooth or external")])
        }
        emit(.accessoryDataReceived, data: ["accessoryId": .string(accessoryId), "transport": .string(transport.rawValue)])
        var woken: [String] = []
        for i in device.appSlots {
            let app = device.apps[i]
            guard app.runtime.activities.isActive(transport), declares(i, transport) else { continue }
            if app.state == .active || app.state == .inactive { continue }
            if app.state == .notRunning, transport != .bluetooth || app.runtime.forceQuit { continue }
            startRun(i, kind: .accessory, reason: "accessoryData", identifier: accessoryId, duration: policy.accessoryWakeRun)
            woken.append(app.bundleId)
        }
        return woken
    }

    /// A Newsstand issue is available (R39): the app is launched into the background to start its download.
    @discardableResult
    public mutating func newsstandIssue(_ bundleId: String, name: String) throws -> Run {
        let i = try slot(of: bundleId)
        guard device.apps[i].manifest.backgroundModes.contains(.newsstandContent) else {
            throw EmulationError.conflict(code: "modeNotDeclared", detail: "\(bundleId) does not declare newsstand-content.")
        }
        if device.apps[i].state == .active || device.apps[i].state == .inactive {
            throw EmulationError.conflict(code: "inForeground", detail: "\(bundleId) is in the foreground: it downloads the issue itself.")
        }
        return startRun(
            i, kind: .newsstand, reason: "newsstandIssue", identifier: name, duration: policy.appRefreshRun ?? .seconds(30))
    }

    // MARK: The system

    /// R35, R36: audio playing or standard location updates, with the mode, keep a background app running.
    func holdsByActivity(_ i: AppSlot) -> Bool {
        let activities = device.apps[i].runtime.activities
        guard !activities.active.isEmpty else { return false }
        return activities.active.contains { $0.holdsApp && declares(i, $0) }
    }

    /// R35: without the audio mode, audio stops when the app leaves the foreground.
    mutating func stopUndeclaredActivities(_ i: AppSlot) {
        guard device.apps[i].runtime.activities.isActive(.audio), !declares(i, .audio) else { return }
        device.apps[i].runtime.activities.active.removeAll { $0 == .audio }
        emit(.activityStopped, bundleId: device.apps[i].bundleId, data: [
            "activity": "audio", "keepsAppRunning": false, "reason": "modeNotDeclared",
        ])
    }

    /// Audio and standard location updates end with the app's process; the registrations stay.
    mutating func endProcessActivities(_ i: AppSlot) {
        device.apps[i].runtime.activities.active.removeAll(where: \.endsWithProcess)
    }

    /// R37: the keep-alive handler runs in a short `voip` run, and is due again after the interval.
    mutating func voipKeepAliveDue(_ bundleId: String) {
        guard let i = device.appSlot(bundleId), let interval = device.apps[i].runtime.activities.keepAliveInterval,
            device.apps[i].runtime.activities.isActive(.voip)
        else { return }
        schedule(.voipKeepAlive(bundleId: bundleId), at: now + interval)
        let app = device.apps[i]
        if app.runtime.forceQuit { return }
        if app.state == .active || app.state == .inactive {
            emit(.voipKeepAlive, bundleId: bundleId, data: ["inForeground": true])
            return
        }
        emit(.voipKeepAlive, bundleId: bundleId, data: ["inForeground": false])
        startRun(i, kind: .voip, reason: "keepAlive", duration: policy.voipRun)
    }

    /// R7: after a reboot, apps that declare `voip` are relaunched into the background.
    mutating func relaunchVoIPApps() {
        for i in device.appSlots
        where device.apps[i].manifest.backgroundModes.contains(.voip) && !device.apps[i].runtime.forceQuit {
            startRun(i, kind: .voip, reason: "reboot", duration: policy.voipRun)
        }
    }

    private func declares(_ i: AppSlot, _ activity: AppActivity) -> Bool {
        activity.modes.isEmpty || activity.modes.contains { device.apps[i].manifest.backgroundModes.contains($0) }
    }
}

extension EventType {
    public static let activityStarted = EventType("activity.started")
    public static let activityStopped = EventType("activity.stopped")
    public static let deviceLocationChanged = EventType("device.locationChanged")
    public static let locationDelivered = EventType("location.delivered")
    public static let accessoryDataReceived = EventType("accessory.dataReceived")
    public static let voipKeepAlive = EventType("voip.keepAlive")
}
