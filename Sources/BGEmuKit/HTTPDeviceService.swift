import BGEmuHTTP
import Foundation

/// ``DeviceService`` over bgemu's HTTP API, with the project's blocking client (one connection per request).
package struct HTTPDeviceService: DeviceService {
    package let deviceId: String
    let client: HTTPClient

    package init(client: HTTPClient, deviceId: String) {
        self.client = client
        self.deviceId = deviceId
    }

    var devicePath: String { "/v1/devices/\(deviceId)" }
    func appPath(_ bundleId: String) -> String { "\(devicePath)/apps/\(Self.escape(bundleId))" }

    /// Creates a device; `body` is a `CreateDevice`.
    package static func createDevice(client: HTTPClient, body: JSONValue) throws -> HTTPDeviceService {
        let created = try call(client, "POST", "/v1/devices", json: body)
        guard let id = created["id"]?.stringValue else { throw BGEmuError.transport("a created device without an id") }
        return HTTPDeviceService(client: client, deviceId: id)
    }

    /// Sends a request and answers its JSON body; a status of 400 or more is thrown as a ``ServiceProblem``.
    @discardableResult
    static func call(
        _ client: HTTPClient, _ method: String, _ path: String, json: JSONValue? = nil, body: [UInt8]? = nil,
        contentType: String? = nil, headers more: [(String, String)] = []
    ) throws -> JSONValue {
        var headers = [("Accept", "application/json")] + more
        var payload: [UInt8] = []
        if let json {
            headers.append(("Content-Type", "application/json"))
            payload = json.bytes
        } else if let body {
            headers.append(("Content-Type", contentType ?? "application/octet-stream"))
            payload = body
        }
        let response: HTTPClient.Response
        do {
            response = try client.send(method, path, headers: headers, body: payload)
        } catch {
            throw BGEmuError.transport("\(method) \(path): \(error)")
        }
        guard response.status < 400 else { throw ServiceProblem(status: response.status, body: response.body) }
        do { return try JSONValue.parse(response.body) } catch {
            throw BGEmuError.transport("\(method) \(path): the answer is not JSON")
        }
    }

    @discardableResult
    func call(_ method: String, _ path: String, json: JSONValue? = nil) throws -> JSONValue {
        try Self.call(client, method, path, json: json)
    }

    /// A path segment or query value, percent-encoded.
    static func escape(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    package func install(_ installation: Installation) throws -> InstalledApp {
        let answer: JSONValue
        switch installation {
        case .infoPlist(let data, let bundleId):
            answer = try Self.call(
                client, "POST", "\(devicePath)/apps?bundleId=\(Self.escape(bundleId))&launchHandlers=",
                body: Array(data), contentType: "application/x-plist")
        case .declared(let bundleId, let modes, let identifiers):
            answer = try call("POST", "\(devicePath)/apps", json: .object([
                "bundleId": .string(bundleId), "launchHandlers": .array([]),
                "infoPlist": .object([
                    "UIBackgroundModes": .array(modes.map(JSONValue.string)),
                    "BGTaskSchedulerPermittedIdentifiers": .array(identifiers.map(JSONValue.string)),
                ]),
            ]))
        }
        let plist = answer["infoPlist"]
        return InstalledApp(
            bundleId: answer["bundleId"]?.stringValue ?? "",
            permittedIdentifiers: plist?["BGTaskSchedulerPermittedIdentifiers"]?.arrayValue?.compactMap(\.stringValue) ?? [],
            backgroundModes: plist?["UIBackgroundModes"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    }

    package func launch(_ bundleId: String, launchHandlers: [String]) throws {
        try call("POST", "\(appPath(bundleId))/launch", json: .object(["launchHandlers": .array(launchHandlers.map(JSONValue.string))]))
    }

    package func lifecycle(_ bundleId: String, _ action: LifecycleAction) throws {
        try Self.call(client, "POST", "\(appPath(bundleId))/\(action.rawValue)")
    }

    package func advance(to target: Date, stopAtAppCode: Bool) throws -> AdvanceOutcome {
        var body: [String: JSONValue] = ["to": .string(VirtualTime.format(target))]
        if stopAtAppCode { body["stopAtAppCode"] = .bool(true) }
        let answer = try call("POST", "\(devicePath)/clock/advance", json: .object(body))
        guard let now = answer["now"]?.stringValue.flatMap(VirtualTime.parse) else {
            throw BGEmuError.transport("an advance answer without now")
        }
        return AdvanceOutcome(now: now, stopped: answer["stopped"]?.boolValue ?? false)
    }

    package func clockNow() throws -> Date {
        guard let now = try call("GET", "\(devicePath)/clock")["now"]?.stringValue.flatMap(VirtualTime.parse) else {
            throw BGEmuError.transport("a clock without now")
        }
        return now
    }

    package func setConditions(_ patch: [String: JSONValue]) throws {
        try call("PATCH", "\(devicePath)/conditions", json: .object(patch))
    }

    package func events(after: Int64) throws -> [DeviceEvent] {
        var events: [DeviceEvent] = []
        var cursor = after
        while true {
            let page = try call("GET", "\(devicePath)/events?after=\(cursor)&limit=500")
            events += page["items"]?.arrayValue?.compactMap(DeviceEvent.init(json:)) ?? []
            guard let next = page["nextCursor"]?.stringValue.flatMap({ Int64($0) }), next > cursor else { return events }
            cursor = next
        }
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
        try call("POST", "\(appPath(bundleId))/task-requests", json: .object(body))
    }

    package func cancelTaskRequest(_ bundleId: String, identifier: String) throws {
        try call("DELETE", "\(appPath(bundleId))/task-requests/\(Self.escape(identifier))")
    }

    package func cancelAllTaskRequests(_ bundleId: String) throws {
        try call("DELETE", "\(appPath(bundleId))/task-requests")
    }

    package func pendingTaskRequests(_ bundleId: String) throws -> [TaskRequestBody] {
        let list = try call("GET", "\(appPath(bundleId))/task-requests")
        return list["items"]?.arrayValue?.compactMap { item in
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
        } ?? []
    }

    package func completeRun(_ bundleId: String, runId: String, _ completion: RunCompletion) throws {
        let body: JSONValue = switch completion {
        case .success(let success): .object(["success": .bool(success)])
        case .fetchResult(let result): .object(["result": .string(result)])
        }
        try call("POST", "\(appPath(bundleId))/runs/\(Self.escape(runId))/complete", json: body)
    }

    package func reportProgress(_ bundleId: String, runId: String, _ report: ProgressReport) throws {
        var body: [String: JSONValue] = [
            "completedUnitCount": .number(Double(report.completedUnitCount)),
            "totalUnitCount": .number(Double(report.totalUnitCount)),
        ]
        if let title = report.title { body["title"] = .string(title) }
        if let subtitle = report.subtitle { body["subtitle"] = .string(subtitle) }
        try call("POST", "\(appPath(bundleId))/runs/\(Self.escape(runId))/progress", json: .object(body))
    }

    package func cancelContinuedProcessing(_ bundleId: String, runId: String) throws {
        try call("POST", "\(appPath(bundleId))/runs/\(Self.escape(runId))/cancel")
    }

    package func beginBackgroundTask(_ bundleId: String, name: String?) throws -> String? {
        let answer = try call("POST", "\(appPath(bundleId))/background-tasks", json: .object(name.map { ["name": .string($0)] } ?? [:]))
        return answer["id"]?.stringValue
    }

    package func endBackgroundTask(_ bundleId: String, taskId: String) throws {
        try call("DELETE", "\(appPath(bundleId))/background-tasks/\(Self.escape(taskId))")
    }

    package func setFetchInterval(_ bundleId: String, _ interval: JSONValue) throws {
        try call("PUT", "\(appPath(bundleId))/fetch-interval", json: .object(["interval": interval]))
    }

    package func push(_ payload: [UInt8], topic: String, apnsId: String) throws {
        try Self.call(client, "POST", "\(devicePath)/push", body: payload, contentType: "application/json",
                      headers: [("apns-topic", topic), ("apns-id", apnsId)])
    }

    package func appStatus(_ bundleId: String) throws -> AppStatus {
        let app = try call("GET", appPath(bundleId))
        return AppStatus(state: app["state"]?.stringValue ?? "notRunning",
                         backgroundTimeRemaining: app["backgroundTimeRemaining"]?.numberValue,
                         backgroundAppRefresh: app["settings"]?["backgroundAppRefresh"]?.boolValue ?? true)
    }

    package func setAppSettings(_ bundleId: String, _ patch: [String: JSONValue]) throws {
        try call("PATCH", "\(appPath(bundleId))/settings", json: .object(patch))
    }

    package func conditions() throws -> DeviceConditions {
        let conditions = try call("GET", devicePath)["conditions"]
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
        try call("POST", "\(appPath(bundleId))/notifications", json: .object(body))
    }

    package func cancelNotification(_ bundleId: String, identifier: String) throws {
        do {
            try call("DELETE", "\(appPath(bundleId))/notifications/\(Self.escape(identifier))")
        } catch let problem as ServiceProblem where problem.status == 404 {
            // Not pending (delivered, or never added): iOS ignores it too.
        }
    }
}
