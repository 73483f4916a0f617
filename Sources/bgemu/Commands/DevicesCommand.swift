import ArgumentParser
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
            let devices = try client.client().allItems("/v1/devices")
            if json {
                for device in devices {
                    let data = try JSONSerialization.data(withJSONObject: device, options: [.sortedKeys])
                    Terminal.line(String(decoding: data, as: UTF8.self))
                }
                return
            }
            guard !devices.isEmpty else { return Terminal.error("No devices yet: create one with POST /v1/devices.") }
            var rows = [["ID", "NAME", "iOS", "CLOCK", "APPS"]]
            for device in devices {
                let clock = device["clock"] as? [String: Any] ?? [:]
                var time = clock["now"] as? String ?? "?"
                if clock["mode"] as? String == "realtime" { time += " (realtime ×\(Self.number(clock["scale"])))" }
                rows.append([
                    device["id"] as? String ?? "?", device["name"] as? String ?? "", device["osVersion"] as? String ?? "?",
                    time, "\(device["appCount"] as? Int ?? 0)",
                ])
            }
            Terminal.table(rows).forEach(Terminal.line)
        }
    }

    /// `2`, `0.5`: a JSON number without a needless fraction.
    static func number(_ value: Any?) -> String {
        guard let value = value as? Double else { return "?" }
        return value == value.rounded() ? String(Int(value)) : String(value)
    }
}
