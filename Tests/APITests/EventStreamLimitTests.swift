import Foundation
import Testing
@testable import API

/// Streams are capped so that they can never use up the file descriptors the API needs.
@Suite struct EventStreamLimitTests {
    @Test func pastTheLimitANewStreamIsRefusedWith503() throws {
        let api = try EventTestHarness(maximumStreams: 1)
        let tenant = try api.makeTenant("acme")
        let (first, writer) = api.openStream("/v1/events", key: tenant.key)
        #expect(first.status.code == 200)
        #expect(writer.wait { _ in api.hub.subscriberCount == 1 })
        let second = api.send(.get, "/v1/events", key: tenant.key, headers: ["Accept": "text/event-stream"])
        #expect(second.status == 503 && second.problemCode == "tooManyStreams")
        #expect(second.headers["Retry-After"] == "5")
        #expect(api.send(.get, "/v1/events", key: tenant.key).status == 200)  // pages are not streams
        writer.disconnect()
        #expect(writer.wait { _ in api.hub.subscriberCount == 0 })
        let third = api.openStream("/v1/events", key: tenant.key).response
        #expect(third.status.code == 200)
    }
}
