import Emulation

// The command each request body asks for, with what the route's path names (the app, the run). A scenario's step
// decodes its fields with the same bodies and so gives the same command.

extension LaunchRequest {
    /// The launch of `bundleId`; `body` is nil when the request had none.
    static func command(_ body: LaunchRequest?, bundleId: String) -> DeviceCommand {
        .launch(bundleId: bundleId, launchHandlers: body?.launchHandlers)
    }
}

extension BeginTaskRequest {
    /// `beginBackgroundTask` in `bundleId`; `body` is nil when the request had none.
    static func command(_ body: BeginTaskRequest?, bundleId: String) -> DeviceCommand {
        .beginBackgroundTask(bundleId: bundleId, name: body?.name)
    }
}

extension CompleteRunRequest {
    /// Completes the run `selector` names.
    func command(bundleId: String, _ selector: RunSelector) -> DeviceCommand {
        .completeRun(bundleId: bundleId, selector, result: result)
    }
}

extension DevicePatch {
    var command: DeviceCommand { .patchDevice(name: name, policy: policy) }
}

extension ConditionsPatch {
    var command: DeviceCommand { .setConditions(change) }
}

extension SettingsPatch {
    func command(bundleId: String) -> DeviceCommand {
        .updateSettings(bundleId: bundleId, backgroundAppRefresh: backgroundAppRefresh)
    }
}

extension FetchIntervalBody {
    func command(bundleId: String) -> DeviceCommand { .setFetchInterval(bundleId: bundleId, interval) }
}

extension MakeURLSessionRequest {
    func command(bundleId: String) -> DeviceCommand {
        .makeURLSession(
            bundleId: bundleId, identifier: identifier, discretionary: discretionary, sendsLaunchEvents: sessionSendsLaunchEvents)
    }
}

extension SetActivityRequest {
    func command(bundleId: String, _ activity: AppActivity) -> DeviceCommand {
        .setActivity(bundleId: bundleId, activity, active: active, keepAliveInterval: keepAliveInterval.map(VirtualDuration.seconds))
    }
}

extension LocationRequest {
    var command: DeviceCommand { .moveDevice(latitude: latitude, longitude: longitude) }
}

extension AccessoryDataRequest {
    func command(accessoryId: String) -> DeviceCommand { .accessoryData(accessoryId: accessoryId, transport: transport) }
}

extension NewsstandIssueRequest {
    func command(bundleId: String) -> DeviceCommand { .newsstandIssue(bundleId: bundleId, name: name) }
}
