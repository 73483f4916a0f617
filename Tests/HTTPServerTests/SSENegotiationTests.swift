@testable import HTTPServer
import Testing

@Suite("Server-sent event negotiation and resumption")
struct SSENegotiationTests {
    static func request(_ target: String = "/v1/events", headers: HTTPHeaders = HTTPHeaders()) -> HTTPRequest {
        HTTPRequest(method: .get, target: target, headers: headers)
    }

    @Test func lastEventIdPrefersTheHeader() {
        #expect(LastEventID.from(Self.request("/e?lastEventId=5", headers: ["Last-Event-ID": "9"])) == "9")
        #expect(LastEventID.from(Self.request("/e?lastEventId=5", headers: ["last-event-id": "9"])) == "9")
        #expect(LastEventID.from(Self.request("/e?lastEventId=5", headers: ["Last-Event-ID": ""])) == "5")
        #expect(LastEventID.from(Self.request("/e?lastEventId=a%20b")) == "a b")
        #expect(LastEventID.from(Self.request("/e?since=3", headers: [:]), queryName: "since") == "3")
        #expect(LastEventID.from(Self.request("/e?since=3")) == nil)
        #expect(LastEventID.from(Self.request("/e?lastEventId=")) == nil)
        #expect(LastEventID.from(Self.request("/e")) == nil)
    }

    @Test(arguments: [
        ("text/event-stream", true),
        ("text/event-stream;q=0.5", true),
        ("TEXT/Event-Stream", true),
        ("application/json, text/event-stream", true),
        ("text/event-stream, application/json", true),
        ("application/json;q=0.9, text/event-stream", true),
        ("text/event-stream;q=0.5, */*;q=0.1", true),
        ("text/event-stream ; q=1.000 , application/json ; q=1", true),
        ("text/event-stream;charset=\"a,b\";q=0.8, application/json;q=0.5", true),
        ("application/json, text/event-stream;q=0.9", false),
        ("text/event-stream;q=0.5, */*", false),
        ("text/event-stream;q=0.5, application/*", false),
        ("text/event-stream;q=0", false),
        ("text/event-stream;q=2", false),
        ("text/event-stream;q=abc", false),
        ("*/*", false),
        ("text/*", false),
        ("application/json", false),
        ("", false),
        ("text/event-streamx", false),
    ])
    func acceptNegotiation(accept: String, prefersStream: Bool) {
        #expect(AcceptNegotiation.prefersEventStream(Self.request(headers: ["Accept": accept])) == prefersStream)
    }

    @Test func acceptAcrossSeveralFieldsAndWithout() {
        #expect(!AcceptNegotiation.prefersEventStream(Self.request()))
        let split = HTTPHeaders([(name: "Accept", value: "application/json;q=0.2"), (name: "Accept", value: "text/event-stream")])
        #expect(AcceptNegotiation.prefersEventStream(Self.request(headers: split)))
    }

    @Test func mostSpecificRangeDecidesTheWeight() {
        let ranges = AcceptMediaRange.parseList("*/*;q=0.1, application/*;q=0.5, application/json;q=0.8, text/html")
        #expect(AcceptNegotiation.quality(type: "application", subtype: "json", in: ranges) == 0.8)
        #expect(AcceptNegotiation.quality(type: "application", subtype: "xml", in: ranges) == 0.5)
        #expect(AcceptNegotiation.quality(type: "image", subtype: "png", in: ranges) == 0.1)
        #expect(AcceptNegotiation.quality(type: "image", subtype: "png", in: AcceptMediaRange.parseList("text/html")) == 0)
        #expect(AcceptMediaRange.parseList("garbage, */json, a/b;q=0.5").map(\.subtype) == ["b"])
    }
}
