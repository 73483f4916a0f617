import Foundation

/// The per-device rows as CSV (RFC 4180: a header line, CRLF line ends, a field quoted when it holds a comma, a
/// quote or a line end), for a notebook: one row per device, its person, then per run kind its runs, expired
/// runs, first-run delay and why-not, then its pushes.
extension ForecastReport {
    /// The run kinds the rows carry, in a fixed order: those the summary reports, then `remoteNotification` when
    /// pushes were sent.
    var csvKinds: [String] {
        var kinds: [String] = []
        if result.appRefresh != nil { kinds.append("appRefresh") }
        if result.processing != nil { kinds.append("processing") }
        if result.fetch != nil { kinds.append("fetch") }
        if result.pushes != nil { kinds.append("remoteNotification") }
        return kinds
    }

    /// The CSV text: the header, then one line per device in device order. An empty field is a value the device
    /// has not (a first-run delay where nothing ran, a why-not where something did).
    public func csv() -> String {
        let kinds = csvKinds
        var header = [
            "device", "usage", "charging", "lowPowerMode", "backgroundAppRefreshOff", "appBackgroundAppRefreshOff",
            "forceQuits", "startBattery", "drainPerHour", "installedAtSeconds", "opens",
        ]
        for kind in kinds {
            header += ["started", "expired", "firstRunDelaySeconds", "whyNot"].map { "\(kind).\($0)" }
        }
        let pushFields = ["sent", "deliveredAtOnce", "deferred", "deliveredLater", "coalesced", "dropped", "pending"]
        if result.pushes != nil { header += pushFields.map { "pushes.\($0)" } }
        var out = Self.csvLine(header)
        for row in devices {
            let person = row.person
            var fields = [
                String(row.device), person.usage, person.charging, person.lowPowerMode.rawValue,
                String(person.backgroundAppRefreshOff), String(person.appBackgroundAppRefreshOff),
                String(person.forceQuits), String(person.startBattery), String(person.drainPerHour),
                String(row.installedAtSeconds), String(row.opens),
            ]
            for kind in kinds {
                let runs = row.runs[kind] ?? ForecastDeviceRuns()
                fields += [
                    String(runs.started), String(runs.expired), runs.firstRunDelaySeconds.map { String($0) } ?? "",
                    runs.whyNot ?? "",
                ]
            }
            if result.pushes != nil {
                let p = row.pushes ?? ForecastDevicePushes()
                fields += [p.sent, p.deliveredAtOnce, p.deferred, p.deliveredLater, p.coalesced, p.dropped, p.pending]
                    .map { String($0) }
            }
            out += Self.csvLine(fields)
        }
        return out
    }

    private static func csvLine(_ fields: [String]) -> String {
        fields.map(csvField).joined(separator: ",") + "\r\n"
    }

    /// A field as RFC 4180 writes it: quoted, its quotes doubled, when it holds a comma, a quote or a line end.
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
