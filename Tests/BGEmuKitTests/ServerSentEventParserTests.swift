import Testing
@testable import BGEmuKit

/// The event stream's framing (WHATWG HTML §9.2.6), whatever the byte boundaries.
@Suite struct ServerSentEventParserTests {
    let stream = "retry: 2000\n\n: keep-alive\n\nid: 7\nevent: run.started\ndata: {\"a\":1}\n\nid: 8\r\nevent: x\r\ndata: one\r\ndata: two\r\n\r\n"

    @Test func eventsAreSplitAtBlankLinesWhateverTheChunks() {
        for size in [1, 2, 5, stream.utf8.count] {
            var parser = ServerSentEventParser()
            var messages: [ServerSentEventParser.Message] = []
            let bytes = Array(stream.utf8)
            var index = 0
            while index < bytes.count {
                messages += parser.feed(Array(bytes[index..<min(bytes.count, index + size)]))
                index += size
            }
            #expect(messages == [
                .init(id: "7", event: "run.started", data: "{\"a\":1}"),
                .init(id: "8", event: "x", data: "one\ntwo"),
            ], "chunks of \(size)")
        }
    }
}
