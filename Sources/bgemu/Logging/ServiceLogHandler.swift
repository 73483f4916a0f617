import Foundation
import Logging

/// A log handler that writes one line per message to standard output, through ``LogSink``'s buffer.
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
        var line = LogTimestamp.now()
        line.reserveCapacity(256)
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: event.level.rawValue.utf8)
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: label.utf8)
        line.append(UInt8(ascii: ":"))
        let provided = metadataProvider?.get() ?? [:]
        if !metadata.isEmpty || !provided.isEmpty || event.metadata?.isEmpty == false {
            var merged = metadata
            if !provided.isEmpty { merged.merge(provided) { _, new in new } }
            if let extra = event.metadata { merged.merge(extra) { _, new in new } }
            for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
                line.append(UInt8(ascii: " "))
                line.append(contentsOf: key.utf8)
                line.append(UInt8(ascii: "="))
                line.append(contentsOf: value.description.utf8)
            }
        }
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: event.message.description.utf8)
        line.append(UInt8(ascii: "\n"))
        LogSink.shared.append(line, urgent: event.level >= .warning)
    }
}
