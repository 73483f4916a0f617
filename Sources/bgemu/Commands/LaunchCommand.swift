import ArgumentParser
import BGEmuClient

/// `bgemu launch DEVICE BUNDLE_ID`: the user taps the app's icon (`POST …/apps/{bundleId}/launch`, R1).
struct LaunchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "launch",
        abstract: "Launch an app, or bring it to the foreground, as the user tapping its icon.",
        discussion: """
            POST /v1/devices/{deviceId}/apps/{bundleId}/launch: a notRunning app is launched to active, a \
            background or suspended one comes back to the foreground; another app in the foreground leaves it. \
            Clears the app's force-quit mark (R5).
            """)

    @OptionGroup var client: ClientOptions

    @Argument(help: "The device's id (dev_…).")
    var device: String

    @Argument(help: "The app's bundle id.")
    var bundleId: String

    @Flag(help: "Print the app after the launch as JSON.")
    var json = false

    func run() throws {
        try CommandFailure.reporting {
            let app = try client.client().perform(.launch, device, bundleId)
            if json { return Terminal.line(app.text) }
            Terminal.line("launched \(bundleId) on \(device): \(app["state"]?.stringValue ?? "?")")
        }
    }
}
