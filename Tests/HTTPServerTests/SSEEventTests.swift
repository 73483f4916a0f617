import Foundation
import HTTPServer
import Testing

@Suite("Server-sent event encoding")
struct SSEEventTests {
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// The events a client extracts from `stream`, per WHATWG HTML §9.2.6 "Interpreting an event stream".
    static func interpret(_ stream: String) -> (events: [(type: String, data: String)], lastEventId: String, retry: Int?) {
        var events: [(type: String, data: String)] = []
        var data = "", type = "", lastEventId = "", retry: Int?
        var lines: [Substring] = []
        var start = stream.startIndex
        var index = stream.startIndex
        while index < stream.endIndex {
            // Swift treats "\r\n" as one Character, which is one line break here too.
            if stream[index] == "\r\n" || stream[index] == "\r" || stream[index] == "\n" {
                lines.append(stream[start..<index])
                start = stream.index(after: index)
            }
            index = stream.index(after: index)
        }
        for line in lines {
            if line.isEmpty {
                if !data.isEmpty {
                    if data.hasSuffix("\n") { data.removeLast() }
                    events.append((type.isEmpty ? "message" : type, data))
                }
                data = ""
                type = ""
                continue
            }
            if line.hasPrefix(":") { continue }
            let colon = line.firstIndex(of: ":")
            let name = colon.map { line[..<$0] } ?? line
            var value = colon.map { line[line.index(after: $0)...] } ?? ""
            if value.hasPrefix(" ") { value.removeFirst() }
            switch name {
            case "event": type = String(value)
            case "data": data += value + "\n"
            case "id" where !value.contains("\0"): lastEventId = String(value)
            case "retry" where !value.isEmpty && value.allSatisfy(\.isASCII) && value.allSatisfy(\.isNumber):
                retry = Int(value)
            default: break
            }
        }
        return (events, lastEventId, retry)
    }

    @Test func dataOnly() {
        #expect(Self.text(ServerSentEvent(data: "hello").encoded()) == "data: hello\n\n")
        #expect(Self.text(ServerSentEvent(data: "").encoded()) == "data: \n\n")
        #expect(Self.text(ServerSentEvent(data: " padded").encoded()) == "data:  padded\n\n")
    }

    @Test func idEventAndRetryLines() {
        let event = ServerSentEvent(id: "42", event: "device.updated", data: "{\"a\":1}", retry: 5000)
        #expect(Self.text(event.encoded()) == "id: 42\nevent: device.updated\nretry: 5000\ndata: {\"a\":1}\n\n")
        #expect(Self.text(ServerSentEvent(id: "", data: "x").encoded()) == "id: \ndata: x\n\n")
        #expect(Self.text(ServerSentEvent(data: "x", retry: -1).encoded()) == "data: x\n\n")
        #expect(Self.text(ServerSentEvent(data: "x", retry: 0).encoded()) == "retry: 0\ndata: x\n\n")
    }

    @Test func everyLineBreakStartsADataLine() {
        let cases: [(String, String)] = [
            ("a\nb", "data: a\ndata: b\n\n"),
            ("a\r\nb", "data: a\ndata: b\n\n"),
            ("a\rb", "data: a\ndata: b\n\n"),
            ("a\r\rb", "data: a\ndata: \ndata: b\n\n"),
            ("a\n\rb", "data: a\ndata: \ndata: b\n\n"),
            ("a\r\n\r\nb", "data: a\ndata: \ndata: b\n\n"),
            ("line\n", "data: line\ndata: \n\n"),
            ("\r\n", "data: \ndata: \n\n"),
        ]
        for (data, expected) in cases {
            #expect(Self.text(ServerSentEvent(data: data).encoded()) == expected, "\(data.debugDescription)")
        }
    }

    @Test func idAndEventLoseLineBreaksAndNul() {
        let event = ServerSentEvent(id: "a\r\nb\0c\rd\ne", event: "x\ny\r\nz", data: "d")
        #expect(Self.text(event.encoded()) == "id: abcde\nevent: xyz\ndata: d\n\n")
    }

    @Test func comments() {
        #expect(Self.text(ServerSentEvent.comment("keep-alive")) == ": keep-alive\n\n")
        #expect(Self.text(ServerSentEvent.comment("")) == ": \n\n")
        #expect(Self.text(ServerSentEvent.comment("a\r\nb")) == ": a\n: b\n\n")
        #expect(Self.interpret(Self.text(ServerSentEvent.comment("ping\ndata: nope"))).events.isEmpty)
    }

    @Test(arguments: ["plain", "two\nlines", "crlf\r\nand\rcr", "trailing\n", "\nleading", " space", "é ✓ 🚀", "a:b",
        "data: inner", "\r\n\r\n"])
    func aClientReadsBackWhatWasSent(data: String) {
        var stream = ServerSentEvent.comment("hello")
        stream += ServerSentEvent(id: "7", event: "update", data: data, retry: 3000).encoded()
        stream += ServerSentEvent(data: "second").encoded()
        let parsed = Self.interpret(Self.text(stream))
        // A client normalises every line break in the data to LF.
        let expected = data.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        #expect(parsed.events.count == 2)
        #expect(parsed.events.first?.type == "update")
        #expect(parsed.events.first?.data == expected)
        #expect(parsed.events.last?.type == "message")
        #expect(parsed.events.last?.data == "second")
        #expect(parsed.lastEventId == "7")
        #expect(parsed.retry == 3000)
    }

    @Test func eventStreamResponses() {
        let response = HTTPResponse.eventStream { writer in
            writer.write(ServerSentEvent(data: "x").encoded())
            writer.finish()
        }
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "text/event-stream")
        #expect(response.headers["Cache-Control"] == "no-store")
        guard case .stream = response.body else {
            Issue.record("expected a stream body")
            return
        }
        let custom = HTTPResponse.eventStream(headers: ["Cache-Control": "no-cache", "X-Accel-Buffering": "no"]) { _ in }
        #expect(custom.headers.values("Cache-Control") == ["no-cache"])
        #expect(custom.headers["X-Accel-Buffering"] == "no")
    }
}
