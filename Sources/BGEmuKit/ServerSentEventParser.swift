/// Splits a `text/event-stream` into events as its bytes arrive (WHATWG HTML §9.2.6): `id:`, `event:` and
/// `data:` fields, an event at each blank line, comments (`:`) and `retry:` skipped.
struct ServerSentEventParser {
    struct Message: Equatable {
        var id: String?
        var event: String?
        var data: String
    }

    private var pending: [UInt8] = []
    private var id: String?
    private var event: String?
    private var data: [String] = []

    /// The events completed by `bytes`.
    mutating func feed(_ bytes: [UInt8]) -> [Message] {
        pending += bytes
        var messages: [Message] = []
        while let end = pending.firstIndex(where: { $0 == 10 || $0 == 13 }) {
            // A CR LF pair must be whole before the line is read.
            if pending[end] == 13, end + 1 == pending.count { break }
            var line = String(decoding: pending[..<end], as: UTF8.self)
            let skip = pending[end] == 13 && pending[end + 1] == 10 ? 2 : 1
            pending.removeFirst(end + skip)
            if line.isEmpty {
                if !data.isEmpty { messages.append(Message(id: id, event: event, data: data.joined(separator: "\n"))) }
                event = nil
                data = []
                continue
            }
            if line.hasPrefix(":") { continue }
            var value = ""
            if let colon = line.firstIndex(of: ":") {
                value = String(line[line.index(after: colon)...])
                if value.hasPrefix(" ") { value.removeFirst() }
                line = String(line[..<colon])
            }
            switch line {
            case "id": id = value
            case "event": event = value
            case "data": data.append(value)
            default: break
            }
        }
        return messages
    }
}
