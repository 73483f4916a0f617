import ArgumentParser
import BGEmuClient
import Foundation

/// `bgemu advance DEVICE DURATION`: lets virtual time pass on a device (`POST …/clock/advance`).
struct AdvanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "advance",
        abstract: "Let virtual time pass on a device.",
        discussion: """
            DURATION is 90s, 15m, 24h, 7d, a combination largest unit first (1h30m), or plain seconds (3600); at \
            most 30 days at a time. --to moves the clock to an RFC 3339 instant instead. Everything that falls \
            due on the way happens at its own virtual instant (POST /v1/devices/{deviceId}/clock/advance). \
            Prints the clock's new time and how many events the advance recorded.
            """)

    @OptionGroup var client: ClientOptions

    @Argument(help: "The device's id (dev_…).")
    var device: String

    @Argument(help: "How long: 90s, 15m, 24h, 7d, 1h30m or seconds.")
    var duration: String?

    @Option(help: "Move the clock to this RFC 3339 instant instead (2026-01-02T08:00:00Z).")
    var to: String?

    @Flag(help: "Print the service's answer as JSON.")
    var json = false

    func validate() throws {
        switch (duration, to) {
        case (nil, nil): throw ValidationError("Give a DURATION (15m, 24h, …) or --to INSTANT.")
        case (.some, .some): throw ValidationError("Give a DURATION or --to, not both.")
        case (.some(let text), nil):
            do { _ = try DurationArgument(parsing: text) } catch { throw ValidationError("\(error)") }
        default: break
        }
    }

    func run() throws {
        try CommandFailure.reporting {
            let span = try duration.map { try DurationArgument(parsing: $0) }
            let target: ClockTarget = span.map { .seconds($0.seconds) } ?? .instant(to ?? "")
            let answer = try client.client().advanceClock(device, target)
            if json { return Terminal.line(answer.text) }
            var line = "clock of \(device) at \(answer["now"]?.stringValue ?? "?")"
            if let span { line += " (+\(span.text))" }
            if let events = answer["eventsEmitted"]?.intValue { line += "; \(events) event\(events == 1 ? "" : "s") recorded" }
            Terminal.line(line)
        }
    }
}
