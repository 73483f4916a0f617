/// Changes to the device itself: its conditions, its policy and its apps.
extension DeviceEngine {
    /// Records the creation of the device (its first event).
    public mutating func created() {
        emit(.deviceCreated, data: [
            "osVersion": .string(device.osVersion.description), "profile": .string(device.profile.name),
            "clock": .string(device.clock.mode.rawValue), "seed": .int(Int64(bitPattern: device.seed)),
        ])
    }

    /// The user or the environment changes the device's conditions (battery, power, network, …).
    public mutating func setConditions(_ conditions: DeviceConditions) {
        let old = device.conditions
        guard old != conditions else { return }
        device.conditions = conditions
        var changes: [String: EventValue] = [:]
        func note(_ name: String, _ from: EventValue, _ to: EventValue) {
            if from != to { changes[name] = ["from": from, "to": to] }
        }
        note("batteryLevel", .int(Int64(old.batteryLevel)), .int(Int64(conditions.batteryLevel)))
        note("charging", .bool(old.charging), .bool(conditions.charging))
        note("lowPowerMode", .bool(old.lowPowerMode), .bool(conditions.lowPowerMode))
        note("network", .string(old.network.rawValue), .string(conditions.network.rawValue))
        note("backgroundAppRefresh", .bool(old.backgroundAppRefresh), .bool(conditions.backgroundAppRefresh))
        note("locked", .bool(old.locked), .bool(conditions.locked))
        note("userActive", .bool(old.userActive), .bool(conditions.userActive))
        emit(.deviceConditionsChanged, data: ["changes": .object(changes)])
        // R20: a processing run expires when the user starts using the device or power is removed.
        let inUse = (!conditions.locked && old.locked) || (conditions.userActive && !old.userActive)
        let unplugged = old.charging && !conditions.charging
        for i in device.appSlots {
            for run in device.apps[i].runtime.runs where run.kind == .processing && run.state == .running {
                if inUse {
                    runDeadlinePassed(device.apps[i].bundleId, runId: run.id, reason: "deviceInUse")
                } else if unplugged, run.requiresExternalPower {
                    runDeadlinePassed(device.apps[i].bundleId, runId: run.id, reason: "powerRemoved")
                }
            }
        }
        deliverDeferredPushes()  // R30: the power-aware policy may allow now
        replanTransfers()
    }

    /// Replaces the device's policy overrides (validated by the caller with `Profile.validate`).
    public mutating func setPolicyOverrides(_ overrides: [String: Double]) {
        guard overrides != device.policyOverrides else { return }
        device.policyOverrides = overrides
        policy = device.policy
        emit(.devicePolicyChanged, data: ["overrides": .object(overrides.mapValues(EventValue.double))])
        replanTransfers()
    }

    /// Installs a validated app.
    public mutating func install(_ app: App) throws {
        guard device.app(app.bundleId) == nil else {
            throw EmulationError.conflict(code: "alreadyInstalled", detail: "\(app.bundleId) is installed on this device already.")
        }
        device.apps.append(app)
        emit(.appInstalled, bundleId: app.bundleId, data: [
            "backgroundModes": .array(app.manifest.backgroundModes.map { .string($0.rawValue) }),
        ])
    }

    /// Removes an app; a running one ends first.
    public mutating func uninstall(_ bundleId: String) throws {
        let i = try slot(of: bundleId)
        if device.apps[i].state != .notRunning { terminate(i, reason: "uninstalled", tellApp: false) }
        cancelTimers { $0.bundleId == bundleId }
        device.apps.remove(at: i)
        emit(.appUninstalled, bundleId: bundleId)
    }

    /// The per-app Background App Refresh switch (R18).
    public mutating func setAppSettings(_ bundleId: String, _ settings: AppSettings) throws {
        let i = try slot(of: bundleId)
        guard device.apps[i].settings != settings else { return }
        device.apps[i].settings = settings
        emit(.appSettingsChanged, bundleId: bundleId, data: ["backgroundAppRefresh": .bool(settings.backgroundAppRefresh)])
    }

    /// Replaces the declared background modes.
    public mutating func setBackgroundModes(_ bundleId: String, _ modes: [BackgroundMode]) throws {
        let i = try slot(of: bundleId)
        device.apps[i].manifest.backgroundModes = modes
    }
}

extension DeviceEngine {
    /// Renames the device (no event: the name is a label, not emulated state).
    public mutating func rename(_ name: String) { device.name = name }
}
