import BGEmuClient
import Testing

/// The one event-stream reader of every client (WHATWG HTML §9.2.6), whatever the byte boundaries: what the CLI's
/// and BGEmuKit's two parsers each did, and where they differed (`retry:`, the default type, the last event id).
@Suite struct ServerSentEventParserTests {
    let stream = "retry: 2000\n\n: keep-alive\n\nid: 7\nevent: run.started\ndata: {\"a\":1}\n\nid: 8\r\nevent: x\r\ndata: one\r\ndata: two\r\n\r\n"

    @Test func eventsAreSplitAtBlankLinesWhateverTheChunks() {
        let bytes = Array(stream.utf8)
        for size in [1, 2, 3, 5, 17, bytes.count] {
            var parser = ServerSentEventParser()
            var events: [ServerSentEventParser.Event] = []
            var index = 0
            while index < bytes.count {
                events += parser.feed(bytes[index..<min(bytes.count, index + size)])
                index += size
            }
            #expect(events == [
                .init(id: "7", type: "run.started", data: #"{"a":1}"#), .init(id: "8", type: "x", data: "one\ntwo"),
            ], "chunks of \(size)")
            #expect(parser.retryMilliseconds == 2000)
        }
    }

    @Test func multiLineDataBareCRAndAMissingTypeFollowTheSpec() {
        var parser = ServerSentEventParser()
        let events = parser.feed(Array("data:a\rdata: b\r\rid\rdata\n\n".utf8))
        #expect(events == [.init(id: nil, type: "message", data: "a\nb"), .init(id: "", type: "message", data: "")])
    }

    @Test func theLastEventIdPersistsAndAnIdWithANulIsIgnored() {
        var parser = ServerSentEventParser()
        let events = parser.feed(Array("id: 4\ndata: a\n\ndata: b\n\nid: 5\u{0}\ndata: c\n\n".utf8))
        #expect(events.map(\.id) == ["4", "4", "4"])
    }

    @Test func aRetryThatIsNotAllDigitsIsIgnored() {
        var parser = ServerSentEventParser()
        _ = parser.feed(Array("retry: 1500\n\nretry: 2s\n\nretry: -1\n\n".utf8))
        #expect(parser.retryMilliseconds == 1500)
    }
}
