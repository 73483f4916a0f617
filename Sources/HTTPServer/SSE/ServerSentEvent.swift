/// One event of a `text/event-stream` body, as defined by the WHATWG HTML Standard §9.2 "Server-sent events"
/// (https://html.spec.whatwg.org/multipage/server-sent-events.html).
///
/// `encoded()` writes the fields in the order `id`, `event`, `retry`, then one `data:` line per line of
/// `data`, and the blank line that dispatches the event (§9.2.6 "Interpreting an event stream"). Every line ends
/// in LF and the stream is UTF-8, as §9.2.5 requires.
public struct ServerSentEvent: Sendable, Equatable {
    /// The `text/event-stream` media type (§9.2.5).
    public static let mediaType = "text/event-stream"

    /// The event's id, which the client echoes in `Last-Event-ID` when it reconnects. CR, LF and NUL are
    /// stripped when encoding: a line break would end the field early, and §9.2.6 ignores an `id` containing
    /// NUL. An empty id resets the client's last event id.
    public var id: String?
    /// The event type the client dispatches on (`message` when nil or empty). CR, LF and NUL are stripped
    /// when encoding.
    public var event: String?
    /// The payload; every line break in it (CRLF, CR or LF) starts a new `data:` line, and the client joins
    /// them back with LF. Note that a client dispatches nothing for an event whose data is empty (§9.2.6).
    public var data: String
    /// The reconnection time in milliseconds the client should use from now on; a negative value is omitted
    /// (§9.2.6 takes only ASCII digits).
    public var retry: Int?

    /// An event with `data` and, optionally, an id, a type and a reconnection time.
    public init(id: String? = nil, event: String? = nil, data: String, retry: Int? = nil) {
        self.id = id
        self.event = event
        self.data = data
        self.retry = retry
    }

    /// The event as bytes for the stream, blank line included.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.utf8.count + (id?.utf8.count ?? 0) + (event?.utf8.count ?? 0) + 32)
        if let id { Self.appendField("id", sanitized: id, to: &bytes) }
        if let event { Self.appendField("event", sanitized: event, to: &bytes) }
        if let retry, retry >= 0 { Self.appendField("retry", sanitized: String(retry), to: &bytes) }
        Self.appendLines(of: data, prefix: "data: ", to: &bytes)
        bytes.append(lineFeed)
        return bytes
    }

    /// A comment block, `: text` followed by a blank line, which clients ignore (§9.2.6: a line starting with
    /// a colon): the keep-alive heartbeat that stops proxies from closing an idle stream. A line break in
    /// `text` starts another comment line.
    public static func comment(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 4)
        appendLines(of: text, prefix: ": ", to: &bytes)
        bytes.append(lineFeed)
        return bytes
    }

    /// `name: value` and LF, with CR, LF and NUL left out of `value`.
    private static func appendField(_ name: String, sanitized value: String, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: name.utf8)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
        for byte in value.utf8 where byte != carriageReturn && byte != lineFeed && byte != 0 {
            bytes.append(byte)
        }
        bytes.append(lineFeed)
    }

    /// `prefix` and one line of `text` per line, each ended by LF; CRLF, CR and LF all break lines (§9.2.5
    /// `end-of-line`).
    private static func appendLines(of text: String, prefix: String, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: prefix.utf8)
        var afterCarriageReturn = false
        for byte in text.utf8 {
            switch byte {
            case carriageReturn:
                bytes.append(lineFeed)
                bytes.append(contentsOf: prefix.utf8)
                afterCarriageReturn = true
            case lineFeed:
                if !afterCarriageReturn {
                    bytes.append(lineFeed)
                    bytes.append(contentsOf: prefix.utf8)
                }
                afterCarriageReturn = false
            default:
                bytes.append(byte)
                afterCarriageReturn = false
            }
        }
        bytes.append(lineFeed)
    }
}

private let lineFeed = UInt8(ascii: "\n")
private let carriageReturn = UInt8(ascii: "\r")
