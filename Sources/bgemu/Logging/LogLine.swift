/// The bytes of one line of the service's log: `2026-12-01T19:15:18.123Z info bgemu: key=value … message`,
/// the metadata sorted by key. ``ServiceLogHandler`` and ``ServiceAccessLogWriter`` both write through it, so
/// an access line reads the same whichever path made it.
enum LogLine {
    static func bytes(
        timestamp: [UInt8], level: String, label: String, metadata: [(key: String, value: String)], message: String
    ) -> [UInt8] {
        var line = timestamp
        line.reserveCapacity(256)
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: level.utf8)
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: label.utf8)
        line.append(UInt8(ascii: ":"))
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            line.append(UInt8(ascii: " "))
            line.append(contentsOf: key.utf8)
            line.append(UInt8(ascii: "="))
            line.append(contentsOf: value.utf8)
        }
        line.append(UInt8(ascii: " "))
        line.append(contentsOf: message.utf8)
        line.append(UInt8(ascii: "\n"))
        return line
    }
}
