import CompactJSON
import Emulation

/// An app of a device's document, with the parts of it that grow (its runs and background tasks) written by hand.
/// Keys in `.sortedKeys` order; an optional is left out when nil, as the synthesized `Encodable` leaves it.
extension DeviceDocument {
    static func write(_ app: App, to writer: inout JSONWriter) throws {
        try writer.object { w in
            if let behavior = app.behavior {
                w.key("behavior")
                try w.encodable(behavior)
            }
            w.key("buildSettingNotes")
            w.array(app.buildSettingNotes) { w, note in w.string(note) }
            w.key("bundleId")
            w.string(app.bundleId)
            if let displayName = app.displayName {
                w.key("displayName")
                w.string(displayName)
            }
            w.key("installedAt")
            w.int(app.installedAt.milliseconds)
            w.key("launchHandlers")
            w.array(app.launchHandlers) { w, handler in w.string(handler) }
            w.key("manifest")
            try w.encodable(app.manifest)
            w.key("runtime")
            try write(app.runtime, to: &w)
            w.key("settings")
            try w.encodable(app.settings)
            w.key("state")
            w.string(app.state.rawValue)
            w.key("unresolvedBuildSettings")
            w.array(app.unresolvedBuildSettings) { w, name in w.string(name) }
        }
    }

    private static func write(_ runtime: AppRuntime, to writer: inout JSONWriter) throws {
        func instant(_ key: StaticString, _ value: VirtualInstant?, _ w: inout JSONWriter) {
            guard let value else { return }
            w.key(key)
            w.int(value.milliseconds)
        }
        try writer.object { w in
            w.key("activities")
            try w.encodable(runtime.activities)
            instant("allowanceEndsAt", runtime.allowanceEndsAt, &w)
            w.key("backgroundTasks")
            w.array(runtime.backgroundTasks) { w, task in write(task, to: &w) }
            w.key("budget")
            try w.encodable(runtime.budget)
            instant("enteredBackgroundAt", runtime.enteredBackgroundAt, &w)
            w.key("fetchInterval")
            try w.encodable(runtime.fetchInterval)
            w.key("forceQuit")
            w.bool(runtime.forceQuit)
            instant("lastDiscretionaryLaunchAt", runtime.lastDiscretionaryLaunchAt, &w)
            instant("lastFetchAt", runtime.lastFetchAt, &w)
            w.key("launchHistory")
            w.array(runtime.launchHistory) { w, launch in w.int(launch.milliseconds) }
            instant("lifecycleGraceEndsAt", runtime.lifecycleGraceEndsAt, &w)
            if let notifications = runtime.notifications {
                w.key("notifications")
                try w.encodable(notifications)
            }
            if let pushes = runtime.pushes {
                w.key("pushes")
                try w.encodable(pushes)
            }
            w.key("runs")
            w.array(runtime.runs) { w, run in write(run, to: &w) }
            w.key("taskRequests")
            try w.encodable(runtime.taskRequests)
            w.key("transfers")
            try w.encodable(runtime.transfers)
            w.key("urlSessions")
            try w.encodable(runtime.urlSessions)
        }
    }

    private static func write(_ run: Run, to writer: inout JSONWriter) {
        writer.object { w in
            w.key("deadline")
            w.int(run.deadline.milliseconds)
            if let endedAt = run.endedAt {
                w.key("endedAt")
                w.int(endedAt.milliseconds)
            }
            w.key("id")
            w.string(run.id)
            if let identifier = run.identifier {
                w.key("identifier")
                w.string(identifier)
            }
            w.key("kind")
            w.string(run.kind.rawValue)
            w.key("launchedApp")
            w.bool(run.launchedApp)
            w.key("reason")
            w.string(run.reason)
            w.key("requiresExternalPower")
            w.bool(run.requiresExternalPower)
            if let requiresNetworkConnectivity = run.requiresNetworkConnectivity {
                w.key("requiresNetworkConnectivity")
                w.bool(requiresNetworkConnectivity)
            }
            if let result = run.result {
                w.key("result")
                w.string(result.rawValue)
            }
            w.key("startedAt")
            w.int(run.startedAt.milliseconds)
            w.key("state")
            w.string(run.state.rawValue)
        }
    }

    private static func write(_ task: BackgroundTask, to writer: inout JSONWriter) {
        writer.object { w in
            w.key("beganAt")
            w.int(task.beganAt.milliseconds)
            if let endedAt = task.endedAt {
                w.key("endedAt")
                w.int(endedAt.milliseconds)
            }
            w.key("endsOnExpiration")
            w.bool(task.endsOnExpiration)
            w.key("id")
            w.string(task.id)
            if let name = task.name {
                w.key("name")
                w.string(name)
            }
            w.key("state")
            w.string(task.state.rawValue)
        }
    }
}
