import ArgumentParser
import BGEmuClient
import Foundation

/// `bgemu submit DEVICE BUNDLE_ID appRefresh|processing IDENTIFIER`: the app's code submits a task request, as
/// `BGTaskScheduler.submit` does (`POST …/task-requests`, R15–R21).
struct SubmitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submit",
        abstract: "Submit a BGTaskScheduler request for an app, as its code would.",
        discussion: """
            KIND is appRefresh (BGAppRefreshTaskRequest) or processing (BGProcessingTaskRequest). --earliest sets \
            earliestBeginDate that long after the device's virtual now (15m, 1h30m, …), as \
            Date(timeIntervalSinceNow:) in the app would. The app's code must be running (launch it first). \
            Refusals are BGTaskScheduler's: notPermitted (R15), unavailable (R18), tooManyPendingTaskRequests \
            (R17), and a request without a registered launch handler crashes the app (R16).
            """)

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case appRefresh, processing
    }

    @OptionGroup var client: ClientOptions
    @Argument(help: "The device's id (dev_…).") var device: String
    @Argument(help: "The app's bundle id.") var bundleId: String
    @Argument(help: "appRefresh or processing.") var kind: Kind
    @Argument(help: "The task identifier (one of BGTaskSchedulerPermittedIdentifiers).") var identifier: String
    @Option(help: "earliestBeginDate, this long after the device's now: 15m, 1h30m, 3600.") var earliest: String?
    @Flag(help: "requiresExternalPower (processing requests).") var requiresPower = false
    @Flag(help: "requiresNetworkConnectivity (processing requests).") var requiresNetwork = false
    @Flag(help: "Print the pending request as JSON.") var json = false

    func validate() throws {
        if let earliest {
            do { _ = try DurationArgument(parsing: earliest) } catch { throw ValidationError("--earliest: \(error)") }
        }
        if kind == .appRefresh, requiresPower || requiresNetwork {
            throw ValidationError("--requires-power and --requires-network are options of processing requests.")
        }
    }

    static let hints = [
        "appNotRunning": "the app's code is not running; launch it first: bgemu launch DEVICE BUNDLE_ID",
        "notPermitted": "the identifier must be in the app's BGTaskSchedulerPermittedIdentifiers and its UIBackgroundModes "
            + "must declare fetch (appRefresh) or processing",
        "noLaunchHandler": "the app registered no launch handler for the identifier at launch: "
            + "bgemu install --launch-handler IDENTIFIER, or launch it again",
    ]

    func run() throws {
        try CommandFailure.reporting(hints: Self.hints) {
            let service = try client.client()
            var body: [String: JSONValue] = ["kind": .string(kind.rawValue), "identifier": .string(identifier)]
            if let earliest {
                let span = try DurationArgument(parsing: earliest)
                guard let now = try service.clock(device)["now"]?.stringValue.flatMap(Instant.parse) else {
                    throw CommandFailure.local("the device's clock has no readable now")
                }
                body["earliestBeginDate"] = .string(Instant.format(now.addingTimeInterval(span.seconds)))
            }
            if kind == .processing {
                body["requiresExternalPower"] = .bool(requiresPower)
                body["requiresNetworkConnectivity"] = .bool(requiresNetwork)
            }
            let request = try service.submitTaskRequest(device, bundleId, .object(body))
            if json { return Terminal.line(request.text) }
            var line = "submitted \(kind.rawValue) \(identifier) for \(bundleId) on \(device)"
            if let date = request["earliestBeginDate"]?.stringValue { line += ", not before \(date)" }
            Terminal.line(line)
        }
    }
}

/// RFC 3339 instants as the service writes them: `2026-01-01T00:15:00.000Z`.
enum Instant {
    static func parse(_ text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }

    static func format(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
