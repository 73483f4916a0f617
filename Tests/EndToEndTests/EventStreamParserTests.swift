@testable import bgemu
import Testing

/// `bgemu events --follow` reads Server-Sent Events as they arrive (WHATWG HTML §9.2.6): events split anywhere
/// between reads, every line ending, comments, `retry:`.
struct EventStreamParserTests {
    @Test func eventsSplitAcrossReadsAreDispatchedWhole() {
        let stream = "retry: 2000\n\nid: 7\nevent: clock.advanced\ndata: {\"id\":7}\n\n: heartbeat\n\nid: 8\r\nevent: app.installed\r\ndata: {\"id\":8}\r\n\r\n"
        let bytes = Array(stream.utf8)
        for split in [1, 3, 17, bytes.count] {
            var parser = EventStreamParser()
            var events: [EventStreamParser.Event] = []
            var index = 0
            while index < bytes.count {
                events += parser.feed(Array(bytes[index..<min(bytes.count, index + split)]))
                index += split
            }
            #expect(events == [
                .init(id: "7", type: "clock.advanced", data: #"{"id":7}"#), .init(id: "8", type: "app.installed", data: #"{"id":8}"#),
            ], "split \(split)")
            #expect(parser.retryMilliseconds == 2000)
        }
    }

    @Test func multiLineDataBareCRAndAMissingTypeFollowTheSpec() {
        var parser = EventStreamParser()
        let events = parser.feed(Array("data:a\rdata: b\r\rid\rdata\n\n".utf8))
        #expect(events == [.init(id: nil, type: "message", data: "a\nb"), .init(id: "", type: "message", data: "")])
    }
}
