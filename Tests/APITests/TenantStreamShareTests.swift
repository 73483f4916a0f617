import Foundation
import HTTPServer
import Testing
@testable import API

/// A tenant's share of the event streams is also a fraction of the instance's: with a small `--max-streams` and the
/// default absolute share (1,024), one tenant used to take every place.
@Suite struct TenantStreamShareTests {
    @Test func aTenantsShareIsTheSmallerOfItsAbsoluteShareAndHalfOfTheInstance() {
        #expect(EventHub.tenantShare(maximumStreams: 50, maximumStreamsPerTenant: 1024) == 25)
        #expect(EventHub.tenantShare(maximumStreams: 16_384, maximumStreamsPerTenant: 1024) == 1024)
        #expect(EventHub.tenantShare(maximumStreams: 51, maximumStreamsPerTenant: 1024) == 26)
        #expect(EventHub.tenantShare(maximumStreams: 1, maximumStreamsPerTenant: 1024) == 1)
        #expect(EventHub.tenantShare(maximumStreams: 50, maximumStreamsPerTenant: 10) == 10)
    }

    @Test func withFiftyStreamsOneTenantTakesHalfAndAnotherTenantStillGetsAStream() throws {
        let api = try EventTestHarness(maximumStreams: 50)
        let greedy = try api.makeTenant("greedy"), other = try api.makeTenant("other")
        #expect(api.hub.maximumStreamsPerTenant == 25)
        var held: [(response: HTTPResponse, writer: RecordingStreamWriter)] = []
        for _ in 0..<25 { held.append(api.openStream("/v1/events", key: greedy.key)) }
        #expect(held.allSatisfy { $0.response.status.code == 200 })
        let refused = api.send(.get, "/v1/events", key: greedy.key, headers: ["Accept": "text/event-stream"])
        #expect(refused.status == 429 && refused.problemCode == "tooManyStreamsForTenant")
        #expect(refused.text.contains("25 event streams"))
        #expect(api.openStream("/v1/events", key: other.key).response.status.code == 200)
        for stream in held { stream.writer.disconnect() }
    }
}
