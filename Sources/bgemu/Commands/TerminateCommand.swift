import ArgumentParser
import BGEmuClient

/// `bgemu terminate DEVICE BUNDLE_ID`: the system ends the app (`POST …/terminate`, R6), or, with `--force-quit`,
/// the user swipes it away (`POST …/force-quit`, R5).
struct TerminateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "terminate",
        abstract: "Terminate an app as the system does (or force-quit it as the user does).",
        discussion: """
            `xcrun simctl terminate` kills the app's process the way the system does, not the way a user \
            swipes it away, so by default this calls POST /v1/devices/{deviceId}/apps/{bundleId}/terminate: \
            a background or suspended app ends (`memoryPressure`, R6) and the system may launch it again for \
            background work. The system does not end an app in the foreground, nor one that is not running: \
            the service answers 409 (inForeground, notRunning).

            --force-quit calls POST …/force-quit instead, in any state: the user swipes the app away (R5); it \
            is then marked force-quit and gets no background launches until the user launches it again.
            """)

    @OptionGroup var client: ClientOptions

    @Argument(help: "The device's id (dev_…).")
    var device: String

    @Argument(help: "The app's bundle id.")
    var bundleId: String

    @Flag(help: "Force-quit the app as the user does (POST …/force-quit), in any state.")
    var forceQuit = false

    @Flag(help: "Print the app after the termination as JSON.")
    var json = false

    func run() throws {
        let hints = [
            "inForeground":
                "send the app to the background first (POST …/background), or force-quit it: bgemu terminate --force-quit",
            "notRunning": "the app is not running; nothing to terminate",
        ]
        try CommandFailure.reporting(hints: forceQuit ? [:] : hints) {
            let app = try client.client().perform(forceQuit ? .forceQuit : .terminate, device, bundleId)
            if json { return Terminal.line(app.text) }
            let verb = forceQuit ? "force-quit" : "terminated"
            Terminal.line("\(verb) \(bundleId) on \(device): \(app["state"]?.stringValue ?? "?")"
                + (app["forceQuit"]?.boolValue == true ? " (marked force-quit)" : ""))
        }
    }
}
