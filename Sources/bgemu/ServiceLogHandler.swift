import Foundation
import Logging

/// A log handler that writes one line per message to standard output.
///
/// Unlike swift-log's `StreamLogHandler`, setting metadata only stores it: every request sets its request id and
/// tenant, and most requests log nothing at the default level, so rendering happens only when a line is written.
struct ServiceLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String, level: Logger.Level) {
        self.label = label
        self.logLevel = level
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        var line = Self.timestamp() + " " + event.level.rawValue + " " + label + ":"
        if !merged.isEmpty {
            line += " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        line += " " + event.message.description + "\n"
        FileHandle.standardOutput.write(Data(line.utf8))
    }

    private static func timestamp() -> String {
        Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
