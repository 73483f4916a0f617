import ArgumentParser
import BGEmuClient

/// `bgemu home DEVICE BUNDLE_ID`: the user goes Home, the app leaves the foreground (`POST …/background`, R2).
struct HomeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "home",
        abstract: "Send an app to the background, as the user going Home.",
        discussion: """
            POST /v1/devices/{deviceId}/apps/{bundleId}/background: the app gets applicationWillResignActive and \
            applicationDidEnterBackground, then about 5 s of background time (longer with a background task) \
            before it is suspended (R2, R8). Prints the app's state and how long it may still run.
            """)

    @OptionGroup var client: ClientOptions
    @OptionGroup var target: AppArguments
    @Flag(help: "Print the app after the call as JSON.") var json = false

    func run() throws {
        try CommandFailure.reporting(hints: ["notInForeground": "the app is not in the foreground; launch it first: bgemu launch DEVICE BUNDLE_ID"]) {
            let app = try client.client().perform(.background, target.device, target.bundleId)
            if json { return Terminal.line(app.text) }
            Terminal.line(AppLine.text(app, verb: "sent \(target.bundleId) home on \(target.device)"))
        }
    }
}

/// `bgemu foreground DEVICE BUNDLE_ID`: the user brings a background app back (`POST …/foreground`, R1).
struct ForegroundCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "foreground",
        abstract: "Bring a background or suspended app back to the foreground.",
        discussion: """
            POST /v1/devices/{deviceId}/apps/{bundleId}/foreground: the app gets applicationWillEnterForeground \
            and applicationDidBecomeActive (R1). A terminated app is launched instead with `bgemu launch`.
            """)

    @OptionGroup var client: ClientOptions
    @OptionGroup var target: AppArguments
    @Flag(help: "Print the app after the call as JSON.") var json = false

    func run() throws {
        try CommandFailure.reporting(hints: ["notRunning": "the app is not running; launch it: bgemu launch DEVICE BUNDLE_ID"]) {
            let app = try client.client().perform(.foreground, target.device, target.bundleId)
            if json { return Terminal.line(app.text) }
            Terminal.line(AppLine.text(app, verb: "brought \(target.bundleId) to the foreground on \(target.device)"))
        }
    }
}

/// An app after a lifecycle call as one line: `sent com.example.news home on dev_…: background, 5 s left`.
enum AppLine {
    static func text(_ app: JSONValue, verb: String) -> String {
        var line = "\(verb): \(app["state"]?.stringValue ?? "?")"
        if let remaining = app["backgroundTimeRemaining"]?.exactNumber { line += ", \(remaining) s of background time left" }
        return line
    }
}
