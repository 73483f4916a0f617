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
        LogSink.shared.append(line(event, timestamp: LogTimestamp.now()), urgent: event.level >= .warning)
    }

    /// The bytes of `event`'s line: the handler's metadata, the provider's and the event's merged (the later
    /// winning), sorted by key.
    func line(_ event: LogEvent, timestamp: [UInt8]) -> [UInt8] {
        var pairs: [(key: String, value: String)] = []
        let provided = metadataProvider?.get() ?? [:]
        if !metadata.isEmpty || !provided.isEmpty || event.metadata?.isEmpty == false {
            var merged = metadata
            if !provided.isEmpty { merged.merge(provided) { _, new in new } }
            if let extra = event.metadata { merged.merge(extra) { _, new in new } }
            pairs = merged.map { ($0.key, $0.value.description) }
        }
        return LogLine.bytes(
            timestamp: timestamp, level: event.level.rawValue, label: label, metadata: pairs,
            message: event.message.description)
    }
}
