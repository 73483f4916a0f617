/// Reads `text/event-stream` bytes as they arrive and answers whole events (WHATWG HTML §9.2.6): lines end in CRLF,
/// LF or CR (a CRLF split across two reads is one line end); `field: value` with one optional space after the
/// colon; a line starting with `:` is a comment; a blank line dispatches the event, an event with no `data` is not
/// dispatched; the type defaults to `message`; the last event id persists across events until an `id:` changes it
/// (one holding a NUL is ignored); `retry:` sets the reconnection time.
public struct ServerSentEventParser: Sendable {
    /// One dispatched event.
    public struct Event: Sendable, Equatable {
        /// The last event id in force when it was dispatched (`Last-Event-ID` on a reconnection).
        public var id: String?
        public var type: String
        public var data: String

        public init(id: String?, type: String, data: String) {
            self.id = id
            self.type = type
            self.data = data
        }
    }

    /// The reconnection time the server asked for (`retry:`), in milliseconds.
    public private(set) var retryMilliseconds: Int?
    private var pending: [UInt8] = []
    private var lastWasCR = false
    private var id: String?
    private var type = ""
    private var data: [String] = []

    public init() {}

    /// Feeds more bytes; answers the events they complete, in order.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Event] {
        var events: [Event] = []
        for byte in bytes {
            if lastWasCR {
                lastWasCR = false
                if byte == 0x0A { continue }  // the LF of a CRLF
            }
            if byte == 0x0D || byte == 0x0A {
                lastWasCR = byte == 0x0D
                if let event = line(String(decoding: pending, as: UTF8.self)) { events.append(event) }
                pending.removeAll(keepingCapacity: true)
            } else {
                pending.append(byte)
            }
        }
        return events
    }

    private mutating func line(_ line: String) -> Event? {
        if line.isEmpty {
            defer { type = ""; data = [] }
            guard !data.isEmpty else { return nil }
            return Event(id: id, type: type.isEmpty ? "message" : type, data: data.joined(separator: "\n"))
        }
        if line.hasPrefix(":") { return nil }
        let field: Substring, value: Substring
        if let colon = line.firstIndex(of: ":") {
            field = line[..<colon]
            let rest = line[line.index(after: colon)...]
            value = rest.hasPrefix(" ") ? rest.dropFirst() : rest
        } else {
            field = line[...]
            value = ""
        }
        switch field {
        case "event": type = String(value)
        case "data": data.append(String(value))
        case "id" where !value.contains("\0"): id = String(value)
        case "retry": if !value.isEmpty, value.allSatisfy(\.isASCIIDigit), let ms = Int(value) { retryMilliseconds = ms }
        default: break
        }
        return nil
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
