import ArgumentParser

/// `DEVICE BUNDLE_ID`: the app a command acts on.
struct AppArguments: ParsableArguments {
    @Argument(help: "The device's id (dev_…).") var device: String
    @Argument(help: "The app's bundle id.") var bundleId: String
}

/// `DEVICE BUNDLE_ID IDENTIFIER`: one of an app's task requests.
struct TaskArguments: ParsableArguments {
    @OptionGroup var app: AppArguments
    @Argument(help: "The task request's identifier (one of the app's BGTaskSchedulerPermittedIdentifiers).")
    var identifier: String

    var device: String { app.device }
    var bundleId: String { app.bundleId }
}
