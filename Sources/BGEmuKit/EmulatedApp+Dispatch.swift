import Foundation

/// The device's events, answered by the app's code: the launch handlers, the task's expiration handler, the
/// delegate's callbacks, the launch closure when the system launches the app.
extension EmulatedApp {
    /// Answers `event` with the app's code, bound to this app; answers the launch handler to run on the queue it
    /// was registered with, if any, for the harness to run there and wait for.
    func dispatch(_ event: DeviceEvent) -> (DispatchQueue, QueuedCall)? {
        AppContext.$scoped.withValue(self) { asTurnCode { handle(event) } }
    }

    private func handle(_ event: DeviceEvent) -> (DispatchQueue, QueuedCall)? {
        switch event.type {
        case .appStateChanged:
            if let to = event.string("to") { appStateChanged(to: to) }
        case .deviceConditionsChanged, .appSettingsChanged:
            deviceStateChanged(event)
        case .notificationDelivered:
            notificationDelivered(event)
        case .appDelegate:
            delegateCallback(event)
        case .pushReceived:
            if let apnsId = event.string("apnsId") { lock.withLock { pushes[apnsId] = event.data } }
        case .runStarted:
            return runStarted(event)
        case .runExpiring:
            if let runId = event.string("runId"), let task = lock.withLock({ tasks[runId] }) { task.expirationHandler?() }
        case .runCompleted, .runExpired:
            if let runId = event.string("runId"), let task = lock.withLock({ tasks.removeValue(forKey: runId) }) { task.markEnded() }
        case .backgroundTaskExpiring:
            if let taskId = event.string("taskId"), let entry = BackgroundTaskRegistry.shared.find(self, taskId: taskId) {
                // UIKit calls it synchronously on the main thread (Apple's `beginBackgroundTask(expirationHandler:)`).
                MainQueue.run { entry.expirationHandler?() }
            }
        case .backgroundTaskEnded:
            if let taskId = event.string("taskId") { BackgroundTaskRegistry.shared.forget(self, taskIds: [taskId]) }
        case .appTerminated:
            terminated(event)
        default:
            break
        }
        return nil
    }

    private func delegateCallback(_ event: DeviceEvent) {
        let application = UIApplication.shared
        let delegate = self.delegate
        switch event.string("callback") {
        case "didFinishLaunching":
            let own = lock.withLock { () -> Bool in
                defer { ownLaunchPending = false }
                return ownLaunchPending && event.string("launchedBy") == "user"
            }
            if !own, let failure = runLaunchClosure() { device.keepFailure(failure) }
        case let callback? where sceneCallback(callback):
            break
        case "didBecomeActive": MainQueue.run { delegate?.applicationDidBecomeActive(application) }
        case "willResignActive": MainQueue.run { delegate?.applicationWillResignActive(application) }
        case "didEnterBackground": MainQueue.run { delegate?.applicationDidEnterBackground(application) }
        case "willEnterForeground": MainQueue.run { delegate?.applicationWillEnterForeground(application) }
        case "willTerminate": MainQueue.run { delegate?.applicationWillTerminate(application) }
        case "didReceiveRemoteNotification" where event.string("runId") != nil:
            break  // a push that woke the app: its run's dispatch calls the delegate, with the run's completion handler
        case "didReceiveRemoteNotification":
            let userInfo = pushUserInfo(apnsId: event.string("apnsId"))
            MainQueue.run {
                delegate?.application(application, didReceiveRemoteNotification: userInfo, fetchCompletionHandler: { _ in })
            }
        default: break
        }
        // The launch's notification follows the launch closure (`runLaunchClosure`).
        if let callback = event.string("callback"), callback != "didFinishLaunching" {
            postNotification(after: callback)
        }
    }

    private func runStarted(_ event: DeviceEvent) -> (DispatchQueue, QueuedCall)? {
        guard let runId = event.string("runId") else { return nil }
        let identifier = event.string("identifier") ?? ""
        let delegate = self.delegate
        switch event.string("kind") {
        case "appRefresh", "processing", "continuedProcessing":
            let task = bgTask(for: event, runId: runId, identifier: identifier)
            let handler = lock.withLock { () -> (queue: DispatchQueue?, body: (BGTask) -> Void)? in
                tasks[runId] = task
                return launchHandlerLocked(for: identifier)
            }
            guard let handler else { return nil }
            guard let queue = handler.queue else {
                handler.body(task)
                return nil
            }
            return (queue, QueuedCall { [self] in AppContext.$scoped.withValue(self) { asTurnCode { handler.body(task) } } })
        case "fetch":
            let completion = fetchCompletion(runId)
            MainQueue.run { delegate?.application(UIApplication.shared, performFetchWithCompletionHandler: completion) }
        case "remoteNotification":
            let userInfo = pushUserInfo(apnsId: event.string("apnsId")), completion = fetchCompletion(runId)
            MainQueue.run {
                delegate?.application(UIApplication.shared, didReceiveRemoteNotification: userInfo, fetchCompletionHandler: completion)
            }
        case "urlSessionEvents":
            let completion = onceCompletion(runId)
            MainQueue.run {
                delegate?.application(UIApplication.shared, handleEventsForBackgroundURLSession: identifier, completionHandler: completion)
            }
        default:
            break
        }
        return nil
    }

    /// A fetch completion handler that completes `runId` once.
    private func fetchCompletion(_ runId: String) -> (UIBackgroundFetchResult) -> Void {
        let once = Once()
        return { [self] result in if once.first() { completeRun(runId, .fetchResult(result.wireName)) } }
    }

    private func onceCompletion(_ runId: String) -> () -> Void {
        let once = Once()
        return { [self] in if once.first() { completeRun(runId, .success(true)) } }
    }

    /// The push's `userInfo`: the payload as the harness sent it, else rebuilt from its `push.received` event
    /// (`aps` with `content-available` and `alert`; a payload another client sent keeps no other key).
    private func pushUserInfo(apnsId: String?) -> [AnyHashable: Any] {
        guard let apnsId else { return [:] }
        let (payload, received) = lock.withLock { (payloads[apnsId], pushes[apnsId]) }
        if let payload { return payload }
        guard let push = received else { return [:] }
        var aps: [String: Any] = [:]
        if push["contentAvailable"]?.boolValue == true { aps["content-available"] = 1 }
        if let alert = push["alert"], alert != .null { aps["alert"] = alert.foundationValue }
        return ["aps": aps]
    }

    /// The process ended: its registrations, tasks and background tasks end with it.
    private func terminated(_ event: DeviceEvent) {
        let ended = lock.withLock { () -> [BGTask] in
            endings.append(Termination(reason: event.string("reason") ?? "", terminationCode: event.string("terminationCode"), at: event.at))
            state = "notRunning"
            scene = nil
            handlers = [:]
            registered = []
            launchToSend = false
            ownLaunchPending = false
            defer { tasks = [:] }
            return Array(tasks.values)
        }
        ended.forEach { $0.markEnded() }
        BackgroundTaskRegistry.shared.forget(self)
    }
}
