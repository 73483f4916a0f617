import ArgumentParser
import BGEmuClient
import Foundation

/// `bgemu create NAME`: a new virtual device, its id printed alone, as `xcrun simctl create` prints the new UDID
/// (`POST /v1/devices`).
struct CreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create a virtual device and print its id.",
        discussion: """
            Prints only the new device's id, so that DEVICE=$(bgemu create ci-iphone) keeps it. The clock is \
            manual (time moves with `bgemu advance`) unless --realtime. For every other setting (conditions, \
            policy overrides), use POST /v1/devices.
            """)

    @OptionGroup var client: ClientOptions

    @Argument(help: "The device's name.")
    var name: String

    @Option(help: "The iOS version (4 to 26), which selects the behaviour profile. [default: 17.0]")
    var osVersion: String?

    @Option(help: "The hardware model, free text (iPhone15,2). [default: iPhone]")
    var model: String?

    @Option(help: "The seed of the device's random generator, for repeatable runs.")
    var seed: UInt64?

    @Option(help: "The clock's start, an RFC 3339 instant. [default: 2026-01-01T00:00:00Z]")
    var start: String?

    @Flag(help: "A clock that follows the wall clock instead of a manual one.")
    var realtime = false

    @Flag(help: "Print the device as JSON instead of its id.")
    var json = false

    func run() throws {
        try CommandFailure.reporting {
            let draft = DeviceDraft(name: name, osVersion: osVersion, model: model, seed: seed, realtime: realtime, start: start)
            let device = try client.client().createDevice(draft)
            if json { return Terminal.line(device.text) }
            Terminal.line(device["id"]?.stringValue ?? "?")
        }
    }
}
