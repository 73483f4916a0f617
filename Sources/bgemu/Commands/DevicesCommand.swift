import ArgumentParser
import BGEmuClient
import Foundation

/// `bgemu devices`: the tenant's devices as a table (`GET /v1/devices`, every page).
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the tenant's devices: id, name, iOS version, virtual clock, apps.")

    @OptionGroup var client: ClientOptions

    @Flag(help: "Print each device as a JSON line instead.")
    var json = false

    func run() throws {
        try CommandFailure.reporting {
            let devices = try client.client().devices()
            if json { return devices.forEach { Terminal.line($0.text) } }
            guard !devices.isEmpty else { return Terminal.error("No devices yet: create one with POST /v1/devices.") }
            var rows = [["ID", "NAME", "iOS", "CLOCK", "APPS"]]
            for device in devices {
                let clock = device["clock"]
                var time = clock?["now"]?.stringValue ?? "?"
                if clock?["mode"]?.stringValue == "realtime" {
                    time += " (realtime ×\(clock?["scale"]?.exactNumber?.description ?? "?"))"
                }
                rows.append([
                    device["id"]?.stringValue ?? "?", device["name"]?.stringValue ?? "", device["osVersion"]?.stringValue ?? "?",
                    time, "\(device["appCount"]?.intValue ?? 0)",
                ])
            }
            Terminal.table(rows).forEach(Terminal.line)
        }
    }
}
