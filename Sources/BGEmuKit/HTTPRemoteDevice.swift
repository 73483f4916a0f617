import BGEmuClient
import Foundation

/// ``RemoteDevice`` over bgemu's HTTP API, through the project's one client (``APIClient``): its typed routes,
/// its problem type and its pager.
package struct HTTPRemoteDevice: RemoteDevice {
    package let deviceId: String
    let client: APIClient

    package init(client: APIClient, deviceId: String) {
        self.client = client
        self.deviceId = deviceId
    }

    /// Creates a device.
    package static func createDevice(client: APIClient, _ draft: DeviceDraft) throws -> HTTPRemoteDevice {
        let created = try mapped { try client.createDevice(draft) }
        guard let id = created["id"]?.stringValue else { throw BGEmuError.transport("a created device without an id") }
        return HTTPRemoteDevice(client: client, deviceId: id)
    }

    /// Runs a call of the client: a refusal is thrown as its ``ServiceProblem``, anything else as
    /// ``BGEmuError/transport(_:)``.
    @discardableResult
    static func mapped<T>(_ call: () throws -> T) throws -> T {
        do { return try call() } catch ClientFailure.refused(let problem) {
            throw problem
        } catch {
            throw BGEmuError.transport("\(error)")
        }
    }

    package func install(_ installation: Installation) throws -> InstalledApp {
        let answer = try Self.mapped { () throws -> JSONValue in
            switch installation {
            case .infoPlist(let data, let bundleId):
                return try client.installApp(
                    deviceId, bytes: Array(data), contentType: "application/x-plist", bundleId: bundleId, launchHandlers: [])
            case .declared(let bundleId, let modes, let identifiers):
                return try client.installApp(deviceId, [
                    "bundleId": .string(bundleId), "launchHandlers": [],
                    "infoPlist": [
                        "UIBackgroundModes": .array(modes.map(JSONValue.string)),
                        "BGTaskSchedulerPermittedIdentifiers": .array(identifiers.map(JSONValue.string)),
                    ],
                ])
            }
        }
        let plist = answer["infoPlist"]
        return InstalledApp(
            bundleId: answer["bundleId"]?.stringValue ?? "",
            permittedIdentifiers: plist?["BGTaskSchedulerPermittedIdentifiers"]?.stringsValue ?? [],
            backgroundModes: plist?["UIBackgroundModes"]?.stringsValue ?? [])
    }

    package func launch(_ bundleId: String, launchHandlers: [String]) throws {
        try Self.mapped { try client.perform(.launch, deviceId, bundleId, launchHandlers: launchHandlers) }
    }

    package func lifecycle(_ bundleId: String, _ action: LifecycleAction) throws {
        let appAction: AppAction = switch action {
        case .background: .background
        case .foreground: .foreground
        case .forceQuit: .forceQuit
        case .terminate: .terminate
        }
        try Self.mapped { try client.perform(appAction, deviceId, bundleId) }
    }

    package func advance(to target: Date, stopAtAppCode: Bool) throws -> AdvanceOutcome {
        let answer = try Self.mapped {
            try client.advanceClock(deviceId, .instant(VirtualTime.format(target)), stopAtAppCode: stopAtAppCode)
        }
        guard let now = answer["now"]?.stringValue.flatMap(VirtualTime.parse) else {
            throw BGEmuError.transport("an advance answer without now")
        }
        return AdvanceOutcome(now: now, stopped: answer["stopped"]?.boolValue ?? false)
    }

    package func clockNow() throws -> Date {
        guard let now = try Self.mapped({ try client.clock(deviceId) })["now"]?.stringValue.flatMap(VirtualTime.parse) else {
            throw BGEmuError.transport("a clock without now")
        }
        return now
    }

    package func setConditions(_ patch: [String: JSONValue]) throws {
        try Self.mapped { try client.setConditions(deviceId, patch) }
    }

    package func events(after: Int64) throws -> [DeviceEvent] {
        try Self.mapped { try client.events(deviceId, after: after) }.compactMap(DeviceEvent.init(json:))
    }

    package func submit(_ bundleId: String, _ request: TaskRequestBody) throws {
        var body: [String: JSONValue] = ["kind": .string(request.kind), "identifier": .string(request.identifier)]
        if let date = request.earliestBeginDate { body["earliestBeginDate"] = .string(VirtualTime.format(date)) }
        if request.kind == "processing" {
            body["requiresNetworkConnectivity"] = .bool(request.requiresNetworkConnectivity)
            body["requiresExternalPower"] = .bool(request.requiresExternalPower)
        }
        if let continued = request.continued {
            body["title"] = .string(continued.title)
            body["subtitle"] = .string(continued.subtitle)
            body["strategy"] = .string(continued.strategy)
            body["requiresGPU"] = .bool(continued.requiresGPU)
        }
        try Self.mapped { try client.submitTaskRequest(deviceId, bundleId, .object(body)) }
    }

    package func cancelTaskRequest(_ bundleId: String, identifier: String) throws {
        try Self.mapped { try client.cancelTaskRequests(deviceId, bundleId, identifier: identifier) }
    }

    package func cancelAllTaskRequests(_ bundleId: String) throws {
        try Self.mapped { try client.cancelTaskRequests(deviceId, bundleId) }
    }

    package func pendingTaskRequests(_ bundleId: String) throws -> [TaskRequestBody] {
        try Self.mapped { try client.taskRequests(deviceId, bundleId) }.compactMap { item in
            guard let kind = item["kind"]?.stringValue, let identifier = item["identifier"]?.stringValue else { return nil }
            return TaskRequestBody(
                kind: kind, identifier: identifier,
                earliestBeginDate: item["earliestBeginDate"]?.stringValue.flatMap(VirtualTime.parse),
                requiresNetworkConnectivity: item["requiresNetworkConnectivity"]?.boolValue ?? false,
                requiresExternalPower: item["requiresExternalPower"]?.boolValue ?? false,
                continued: item["title"]?.stringValue.map { title in
                    ContinuedRequestBody(
                        title: title, subtitle: item["subtitle"]?.stringValue ?? "",
                        strategy: item["strategy"]?.stringValue ?? "queue", requiresGPU: item["requiresGPU"]?.boolValue ?? false)
                })
        }
    }

    package func completeRun(_ bundleId: String, runId: String, _ completion: RunCompletion) throws {
        let body: JSONValue = switch completion {
        case .success(let success): ["success": .bool(success)]
        case .fetchResult(let result): ["result": .string(result)]
        }
        try Self.mapped { try client.completeRun(deviceId, bundleId, run: runId, body) }
    }

    package func reportProgress(_ bundleId: String, runId: String, _ report: ProgressReport) throws {
        var body: [String: JSONValue] = [
            "completedUnitCount": .integer(report.completedUnitCount), "totalUnitCount": .integer(report.totalUnitCount),
        ]
        if let title = report.title { body["title"] = .string(title) }
        if let subtitle = report.subtitle { body["subtitle"] = .string(subtitle) }
        try Self.mapped { try client.reportProgress(deviceId, bundleId, run: runId, .object(body)) }
    }

    package func cancelContinuedProcessing(_ bundleId: String, runId: String) throws {
        try Self.mapped { try client.cancelRun(deviceId, bundleId, run: runId) }
    }

    package func beginBackgroundTask(_ bundleId: String, name: String?) throws -> String? {
        try Self.mapped { try client.beginBackgroundTask(deviceId, bundleId, name: name) }["id"]?.stringValue
    }

    package func endBackgroundTask(_ bundleId: String, taskId: String) throws {
        try Self.mapped { try client.endBackgroundTask(deviceId, bundleId, task: taskId) }
    }

    package func setFetchInterval(_ bundleId: String, _ interval: JSONValue) throws {
        try Self.mapped { try client.setFetchInterval(deviceId, bundleId, interval) }
    }

    package func push(_ payload: [UInt8], topic: String, apnsId: String) throws {
        try Self.mapped { try client.push(deviceId, payload: payload, headers: [("apns-topic", topic), ("apns-id", apnsId)]) }
    }

    package func appStatus(_ bundleId: String) throws -> AppStatus {
        let app = try Self.mapped { try client.app(deviceId, bundleId) }
        return AppStatus(state: app["state"]?.stringValue ?? "notRunning",
                         backgroundTimeRemaining: app["backgroundTimeRemaining"]?.numberValue,
                         backgroundAppRefresh: app["settings"]?["backgroundAppRefresh"]?.boolValue ?? true)
    }

    package func setAppSettings(_ bundleId: String, _ patch: [String: JSONValue]) throws {
        try Self.mapped { try client.setAppSettings(deviceId, bundleId, patch) }
    }

    package func conditions() throws -> DeviceConditions {
        let conditions = try Self.mapped { try client.device(deviceId) }["conditions"]
        return DeviceConditions(
            lowPowerMode: conditions?["lowPowerMode"]?.boolValue ?? false,
            backgroundAppRefresh: conditions?["backgroundAppRefresh"]?.boolValue ?? true,
            locked: conditions?["locked"]?.boolValue ?? false)
    }

    package func scheduleNotification(_ bundleId: String, _ notification: LocalNotificationBody) throws {
        var body: [String: JSONValue] = ["identifier": .string(notification.identifier), "repeats": .bool(notification.repeats)]
        if let date = notification.fireDate { body["fireDate"] = .string(VirtualTime.format(date)) }
        if let interval = notification.timeInterval { body["timeInterval"] = .number(interval) }
        if let title = notification.title { body["title"] = .string(title) }
        if let text = notification.body { body["body"] = .string(text) }
        try Self.mapped { try client.scheduleNotification(deviceId, bundleId, .object(body)) }
    }

    package func cancelNotification(_ bundleId: String, identifier: String) throws {
        do {
            try Self.mapped { try client.cancelNotification(deviceId, bundleId, identifier: identifier) }
        } catch let problem as ServiceProblem where problem.status == 404 {
            // Not pending (delivered, or never added): iOS ignores it too.
        }
    }
}
