import ArgumentParser
import BGEmuClient
import Foundation

/// `bgemu push DEVICE [BUNDLE_ID] FILE`: as `xcrun simctl push`, a payload file delivered to an app, through
/// `POST /v1/devices/{deviceId}/push` (R29–R31).
struct PushCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Send a remote notification to an app, as `xcrun simctl push` does.",
        discussion: """
            FILE is an APNs payload (`{"aps": {…}}`), such as a `.apns` file as Simulator and `simctl push` take \
            it, or `-` for standard input. BUNDLE_ID may be left out when the file names the app with a \
            top-level "Simulator Target Bundle". The payload is sent as it is to \
            POST /v1/devices/{deviceId}/push, the bundle id as `apns-topic`; the options set the other APNs \
            headers (by default the service takes `alert` for a payload with an alert, sound or badge, else \
            `background`, and the priority 10 for alerts, 5 for background pushes).

            Prints what APNs and the device made of it: delivered (shown, and/or the app woken with a run), \
            deferred or coalesced by the power-aware policy, or dropped, and why.
            """)

    @OptionGroup var client: ClientOptions

    @Argument(help: "The device's id (dev_…).")
    var device: String

    @Argument(help: ArgumentHelp("[BUNDLE_ID] FILE: the app, then the payload file (`-` for standard input).",
                                 valueName: "bundle-id-and-file"))
    var operands: [String]

    @Option(name: .customLong("type"), help: "apns-push-type: alert or background.")
    var pushType: String?

    @Option(help: "apns-priority: 10, 5 or 1 (a background push must have 5).")
    var priority: String?

    @Option(help: "apns-expiration: UNIX seconds after which a deferred push is dropped (virtual clock); 0 means now or never.")
    var expiration: String?

    @Option(help: "apns-collapse-id: at most 64 bytes.")
    var collapseId: String?

    @Option(help: "apns-id: a UUID; the service makes one up when absent.")
    var apnsId: String?

    @Flag(help: "Print the service's answer as JSON.")
    var json = false

    func validate() throws {
        guard (1...2).contains(operands.count) else {
            throw ValidationError("Give [BUNDLE_ID] FILE after the device: one or two arguments, not \(operands.count).")
        }
    }

    func run() throws {
        try CommandFailure.reporting {
            let service = try client.client()
            let file = operands[operands.count - 1]
            let payload = try LocalFile.read(file, what: "the payload file")
            let target = Self.simulatorTargetBundle(payload)
            let bundleId = operands.count == 2 ? operands[0] : nil
            var headers: [(String, String)] = []
            if let bundleId { headers.append(("apns-topic", bundleId)) }
            for (name, value) in [("apns-push-type", pushType), ("apns-priority", priority), ("apns-expiration", expiration),
                                  ("apns-collapse-id", collapseId), ("apns-id", apnsId)] {
                if let value { headers.append((name, value)) }
            }
            let answer = try service.push(device, payload: payload, headers: headers)
            if json { return Terminal.line(answer.text) }
            Terminal.line(Self.describe(answer, app: bundleId ?? target ?? "the app"))
        }
    }

    /// The app a `simctl push` file names, if it is a JSON object with a string "Simulator Target Bundle".
    static func simulatorTargetBundle(_ payload: [UInt8]) -> String? {
        (try? JSONValue.parse(payload))?["Simulator Target Bundle"]?.stringValue
    }

    /// One line: `delivered push 1B2C… to com.example.news: woke the app (run run_3), alert shown`.
    static func describe(_ answer: JSONValue, app: String) -> String {
        let outcome = answer["outcome"]?.stringValue ?? "accepted"
        let id = answer["apnsId"]?.stringValue ?? "?"
        let reason = answer["reason"]?.stringValue
        let shown = answer["notificationDelivered"]?.boolValue == true
        var line = "\(outcome) push \(id) to \(app)"
        switch outcome {
        case "delivered":
            var what: [String] = []
            if let run = answer["runId"]?.stringValue {
                what.append("woke the app (run \(run)): application(_:didReceiveRemoteNotification:fetchCompletionHandler:)")
            } else if answer["inForeground"]?.boolValue == true {
                what.append("the app in the foreground got application(_:didReceiveRemoteNotification:fetchCompletionHandler:)")
            }
            if shown { what.append("alert shown") }
            if what.isEmpty { what.append(reason.map { "nothing to wake (\($0))" } ?? "nothing shown, nothing woken") }
            line += ": " + what.joined(separator: ", ")
        case "deferred", "coalesced":
            line += ": held by the system (\(reason ?? "policy"))"
            if let replaced = answer["replacedApnsId"]?.stringValue { line += ", replacing \(replaced)" }
            if shown { line += "; alert shown" }
        case "dropped":
            let why = reason ?? "no reason given"
            line += shown ? ": alert shown, app not woken (\(why))" : ": not delivered (\(why))"
        default:
            if let reason { line += " (\(reason))" }
        }
        return line
    }
}
