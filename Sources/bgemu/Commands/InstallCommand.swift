import ArgumentParser
import BGEmuClient
import Foundation

/// `bgemu install DEVICE PATH`: installs an app from its `Info.plist`, an `.ipa`, a zipped `.app`, or an app folder,
/// through `POST /v1/devices/{deviceId}/apps`.
struct InstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Install an app on a device from its Info.plist, an .ipa or a zipped .app.",
        discussion: """
            PATH is what the file holds, whatever its name: an Info.plist, XML or binary (sent as \
            application/x-plist), an .ipa or a zipped .app (sent as application/zip), an app folder NAME.app \
            (its Info.plist is sent), or a JSON installation body (application/json, see InstallApp in \
            openapi.yaml). `--bundle-id` and `--setting` fill in build settings an Info.plist refers to \
            ($(PRODUCT_BUNDLE_IDENTIFIER) and the like); they are sent as the query parameters `bundleId` and \
            `setting=NAME=VALUE`.
            """)

    @OptionGroup var client: ClientOptions

    @Argument(help: "The device's id (dev_…).")
    var device: String

    @Argument(help: "An Info.plist, .ipa, .app.zip, NAME.app folder or JSON installation body.")
    var path: String

    @Option(help: "The bundle id, where the Info.plist leaves it to a build setting (query bundleId).")
    var bundleId: String?

    @Option(
        name: .customLong("setting"),
        help: ArgumentHelp("A build setting the Info.plist refers to (repeatable).", valueName: "NAME=VALUE"))
    var settings: [String] = []

    @Option(name: .customLong("launch-handler"),
            help: "An identifier the app registers with BGTaskScheduler at launch (repeatable; default: every permitted identifier).")
    var launchHandlers: [String] = []

    @Flag(help: "Print the installed app as JSON.")
    var json = false

    func validate() throws {
        for setting in settings { _ = try SettingOption(setting) }
    }

    func run() throws {
        try CommandFailure.reporting {
            let service = try client.client()
            let upload = try UploadFile(path: path)
            let app = try service.installApp(
                device, bytes: upload.bytes, contentType: upload.contentType, bundleId: bundleId, settings: settings,
                launchHandlers: launchHandlers.isEmpty ? nil : launchHandlers)
            if json { return Terminal.line(app.text) }
            Terminal.line(Self.describe(app, device: device))
        }
    }

    /// `installed com.example.news (News) on dev_…: background modes fetch, processing; permitted identifiers …`.
    static func describe(_ app: JSONValue, device: String) -> String {
        let bundleId = app["bundleId"]?.stringValue ?? "?"
        var line = "installed \(bundleId)"
        if let name = app["displayName"]?.stringValue { line += " (\(name))" }
        line += " on \(device)"
        let plist = app["infoPlist"]
        func list(_ values: JSONValue?) -> String {
            let items = values?.stringsValue ?? []
            return items.isEmpty ? "none" : items.joined(separator: ", ")
        }
        line += ": background modes \(list(plist?["UIBackgroundModes"]))"
        line += "; permitted identifiers \(list(plist?["BGTaskSchedulerPermittedIdentifiers"]))"
        if let handlers = app["launchHandlers"]?.stringsValue, !handlers.isEmpty {
            line += "; launch handlers \(handlers.joined(separator: ", "))"
        }
        return line
    }
}
