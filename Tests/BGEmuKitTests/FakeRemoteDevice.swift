import Foundation
@testable import BGEmuKit

/// An in-memory device for the harness's tests: it records what the library sends, answers the way bgemu does
/// (lifecycle events, a submit's event or refusal, a run's completion that suspends an app in the background that
/// holds no background task, the `409 appNotRunning` of a suspended app's calls), and plays scripted events at each
/// advance (a run started resumes a suspended app).
final class FakeRemoteDevice: RemoteDevice, @unchecked Sendable {
    // @unchecked Sendable: every member is behind `lock`.
    enum Call: Equatable {
        case launch([String]), lifecycle(String), advance(stop: Bool), submit(TaskRequestBody), complete(String, RunCompletion)
        case beginBackgroundTask, endBackgroundTask(String), cancel(String), fetchInterval(JSONValue)
        case progress(String, ProgressReport)
    }

    let deviceId = "dev_000000000000000000000001"
    private let lock = NSLock()
    private var log: [DeviceEvent] = []
    private var nextId: Int64 = 1
    private var now = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
    private var recorded: [Call] = []
    private var nextTask = 1
    private var states: [String: String] = [:]
    private var openTasks: [String: Set<String>] = [:]
    private var deviceConditions: [String: JSONValue] = [
        "lowPowerMode": .bool(false), "backgroundAppRefresh": .bool(true), "locked": .bool(false),
    ]
    private var appRefreshSwitch: [String: Bool] = [:]
    /// The local notifications scheduled, in order.
    private(set) var notifications: [LocalNotificationBody] = []
    /// Events to record at each advance, one batch per advance that stops; each batch is a list of
    /// (type, bundleId, data).
    var script: [[(String, String?, [String: JSONValue])]] = []
    /// Events at virtual instants, played by the advance that reaches their instant (after `script` is spent), in
    /// order; a run's own are dropped when the app completes it (its `runId`).
    var timed: [(at: Date, events: [(String, String?, [String: JSONValue])])] = []
    /// A submit refusal to answer: status and code.
    var refusal: (Int, String)?
    /// Seconds each `submit` takes before the fake looks at it (nil: none).
    var submitLatency: Double?

    var calls: [Call] { lock.withLock { recorded } }
    /// The submits and completions among ``calls``, in order: what a test of their ordering compares.
    var submitsAndCompletions: [Call] {
        calls.filter {
            switch $0 {
            case .submit, .complete: true
            default: false
            }
        }
    }
    /// The app's state on the device now (`notRunning` before its first launch).
    func appState(_ bundleId: String) -> String { lock.withLock { states[bundleId] ?? "notRunning" } }
    var virtualNow: Date { lock.withLock { now } }

    init() { _ = emit("device.created", nil, [:]) }

    @discardableResult
    func emit(_ type: String, _ bundleId: String?, _ data: [String: JSONValue]) -> Int64 {
        lock.withLock {
            defer { nextId += 1 }
            log.append(DeviceEvent(id: nextId, type: .init(rawValue: type), bundleId: bundleId, at: now, data: data))
            return nextId
        }
    }

    private func record(_ call: Call) { lock.withLock { recorded.append(call) } }

    private func state(_ bundleId: String, _ to: String, cause: String) {
        let from = lock.withLock { states.updateValue(to, forKey: bundleId) } ?? "notRunning"
        emit("app.stateChanged", bundleId, ["from": .string(from), "to": .string(to), "cause": .string(cause)])
    }

    func install(_ installation: Installation) throws -> InstalledApp {
        guard case .declared(let bundleId, let modes, let identifiers) = installation else {
            throw ServiceProblem(status: 415, code: "unsupportedMediaType", detail: nil)
        }
        emit("app.installed", bundleId, [:])
        return InstalledApp(bundleId: bundleId, permittedIdentifiers: identifiers, backgroundModes: modes)
    }

    func launch(_ bundleId: String, launchHandlers: [String]) throws {
        record(.launch(launchHandlers))
        if lock.withLock({ states[bundleId] ?? "notRunning" }) == "notRunning" {
            emit("app.delegate", bundleId, ["callback": .string("didFinishLaunching"), "launchedBy": .string("user")])
        }
        state(bundleId, "active", cause: "userLaunch")
        emit("app.delegate", bundleId, ["callback": .string("didBecomeActive")])
    }

    func lifecycle(_ bundleId: String, _ action: LifecycleAction) throws {
        record(.lifecycle(action.rawValue))
        switch action {
        case .background:
            emit("app.delegate", bundleId, ["callback": .string("willResignActive")])
            state(bundleId, "background", cause: "userLeft")
            emit("app.delegate", bundleId, ["callback": .string("didEnterBackground")])
        case .foreground:
            emit("app.delegate", bundleId, ["callback": .string("willEnterForeground")])
            state(bundleId, "active", cause: "userReturned")
        case .forceQuit, .terminate:
            state(bundleId, "notRunning", cause: action.rawValue)
            emit("app.terminated", bundleId, ["reason": .string(action == .forceQuit ? "forceQuit" : "memoryPressure")])
        }
    }

    func advance(to target: Date, stopAtAppCode: Bool) throws -> AdvanceOutcome {
        record(.advance(stop: stopAtAppCode))
        let batch = lock.withLock { () -> [(String, String?, [String: JSONValue])]? in
            if script.isEmpty, let next = timed.first, next.at <= target {
                timed.removeFirst()
                now = max(now, next.at)
                return next.events
            }
            guard !script.isEmpty else { now = target; return nil }
            now = min(target, now.addingTimeInterval(10))
            return script.removeFirst()
        }
        for (type, bundleId, data) in batch ?? [] {
            if type == "app.stateChanged", let bundleId, let to = data["to"]?.stringValue {
                lock.withLock { states[bundleId] = to }
            }
            if type == "run.started", let bundleId, lock.withLock({ states[bundleId] }) == "suspended" {
                state(bundleId, "background", cause: "appRefresh")
            }
            emit(type, bundleId, data)
        }
        return AdvanceOutcome(now: virtualNow, stopped: batch != nil)
    }

    func clockNow() throws -> Date { virtualNow }

    /// As bgemu: the changed conditions only, each as `{from, to}`.
    func setConditions(_ patch: [String: JSONValue]) throws {
        let changes = lock.withLock { () -> [String: JSONValue] in
            var changes: [String: JSONValue] = [:]
            for (key, value) in patch where deviceConditions[key] != value {
                changes[key] = .object(["from": deviceConditions[key] ?? .null, "to": value])
                deviceConditions[key] = value
            }
            return changes
        }
        if !changes.isEmpty { emit("device.conditionsChanged", nil, ["changes": .object(changes)]) }
    }

    func conditions() throws -> DeviceConditions {
        lock.withLock {
            DeviceConditions(
                lowPowerMode: deviceConditions["lowPowerMode"]?.boolValue ?? false,
                backgroundAppRefresh: deviceConditions["backgroundAppRefresh"]?.boolValue ?? true,
                locked: deviceConditions["locked"]?.boolValue ?? false)
        }
    }

    func setAppSettings(_ bundleId: String, _ patch: [String: JSONValue]) throws {
        guard let on = patch["backgroundAppRefresh"]?.boolValue else { return }
        lock.withLock { appRefreshSwitch[bundleId] = on }
        emit("app.settingsChanged", bundleId, ["backgroundAppRefresh": .bool(on)])
    }

    func scheduleNotification(_ bundleId: String, _ notification: LocalNotificationBody) throws {
        lock.withLock { notifications.append(notification) }
        emit("notification.scheduled", bundleId, ["identifier": .string(notification.identifier)])
    }

    func cancelNotification(_ bundleId: String, identifier: String) throws {
        lock.withLock { notifications.removeAll { $0.identifier == identifier } }
        emit("notification.cancelled", bundleId, ["identifier": .string(identifier)])
    }

    func events(after: Int64) throws -> [DeviceEvent] { lock.withLock { log.filter { $0.id > after } } }

    /// bgemu's refusal of a call of app code whose app is not running.
    private func requireRunning(_ bundleId: String) throws {
        let current = lock.withLock { states[bundleId] ?? "notRunning" }
        guard current != "suspended", current != "notRunning" else {
            throw ServiceProblem(status: 409, code: "appNotRunning", detail: "\(bundleId) is \(current)")
        }
    }

    func submit(_ bundleId: String, _ request: TaskRequestBody) throws {
        // A service slow to take the submit (a loaded machine): it sees the app's state when it gets to it.
        if let latency = lock.withLock({ submitLatency }) { Thread.sleep(forTimeInterval: latency) }
        try requireRunning(bundleId)
        record(.submit(request))
        if let (status, code) = refusal { throw ServiceProblem(status: status, code: code, detail: "refused") }
        emit("taskRequest.submitted", bundleId, ["identifier": .string(request.identifier)])
        if let continued = request.continued {  // R41: a continued processing request starts at once
            let runId = lock.withLock { () -> String in
                defer { nextTask += 1 }
                return "run_c\(nextTask)"
            }
            emit("run.started", bundleId, [
                "runId": .string(runId), "kind": .string("continuedProcessing"), "identifier": .string(request.identifier),
                "title": .string(continued.title), "subtitle": .string(continued.subtitle), "launchedApp": .bool(false),
            ])
        }
    }

    func reportProgress(_ bundleId: String, runId: String, _ report: ProgressReport) throws {
        record(.progress(runId, report))
    }

    func cancelContinuedProcessing(_ bundleId: String, runId: String) throws {
        record(.cancel(runId))
        emit("run.expiring", bundleId, ["runId": .string(runId), "reason": .string("userCancelled")])
    }

    func cancelTaskRequest(_ bundleId: String, identifier: String) throws { record(.cancel(identifier)) }
    func cancelAllTaskRequests(_ bundleId: String) throws { record(.cancel("*")) }
    func pendingTaskRequests(_ bundleId: String) throws -> [TaskRequestBody] {
        lock.withLock { recorded }.compactMap { if case .submit(let body) = $0 { body } else { nil } }
    }

    func completeRun(_ bundleId: String, runId: String, _ completion: RunCompletion) throws {
        record(.complete(runId, completion))
        lock.withLock { timed.removeAll { $0.events.contains { $0.2["runId"] == .string(runId) } } }
        emit("run.completed", bundleId, ["runId": .string(runId)])
        settle(bundleId)
    }

    /// R23, R13: an app in the background that holds nothing is suspended at once.
    private func settle(_ bundleId: String) {
        let idle = lock.withLock { states[bundleId] == "background" && openTasks[bundleId, default: []].isEmpty }
        if idle { state(bundleId, "suspended", cause: "idle") }
    }

    func beginBackgroundTask(_ bundleId: String, name: String?) throws -> String? {
        try requireRunning(bundleId)
        record(.beginBackgroundTask)
        let id = lock.withLock { () -> String in
            defer { nextTask += 1 }
            openTasks[bundleId, default: []].insert("bgt_\(nextTask)")
            return "bgt_\(nextTask)"
        }
        emit("backgroundTask.began", bundleId, ["taskId": .string(id)])
        return id
    }

    func endBackgroundTask(_ bundleId: String, taskId: String) throws {
        record(.endBackgroundTask(taskId))
        _ = lock.withLock { openTasks[bundleId]?.remove(taskId) }
        emit("backgroundTask.ended", bundleId, ["taskId": .string(taskId), "reason": .string("ended")])
        settle(bundleId)
    }

    func setFetchInterval(_ bundleId: String, _ interval: JSONValue) throws { record(.fetchInterval(interval)) }

    func push(_ payload: [UInt8], topic: String, apnsId: String) throws {
        emit("push.received", topic, ["apnsId": .string(apnsId), "contentAvailable": .bool(true)])
        emit("run.started", topic, ["runId": .string("run_push"), "kind": .string("remoteNotification"),
                                    "apnsId": .string(apnsId), "launchedApp": .bool(false)])
    }

    func appStatus(_ bundleId: String) throws -> AppStatus {
        lock.withLock {
            AppStatus(state: states[bundleId] ?? "notRunning", backgroundTimeRemaining: nil,
                      backgroundAppRefresh: appRefreshSwitch[bundleId] ?? true)
        }
    }
}
