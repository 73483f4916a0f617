import Foundation
import HTTPServer
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

    @Test func aStreamAcceptedButNotYetStartedHoldsItsPlace() throws {
        let api = try EventTestHarness(maximumStreams: 1)
        let tenant = try api.makeTenant("acme")
        let stream: HTTPHeaders = ["Accept": "text/event-stream"]
        // Accepted: its head is not sent yet, so its stream has not attached (subscriberCount is still 0).
        var accepted: HTTPResponse? = api.respond(.get, "/v1/events", key: tenant.key, headers: stream)
        #expect(accepted?.status.code == 200)
        #expect(api.hub.subscriberCount == 0)
        let second = api.send(.get, "/v1/events", key: tenant.key, headers: stream)
        #expect(second.status == 503 && second.problemCode == "tooManyStreams")
        // Never started (a HEAD request, a client gone before the head): releasing the response gives the place back.
        accepted = nil
        let third = api.openStream("/v1/events", key: tenant.key)
        #expect(third.response.status.code == 200)
        #expect(api.hub.subscriberCount == 1)
        #expect(api.send(.get, "/v1/events", key: tenant.key, headers: stream).status == 503)
        third.writer.disconnect()
        #expect(third.writer.wait { _ in api.hub.subscriberCount == 0 })
        #expect(api.openStream("/v1/events", key: tenant.key).response.status.code == 200)
    }

    /// One tenant's streams cannot take every place: past its share it is told so (429), and another tenant still
    /// gets a stream.
    @Test func aTenantsShareIsItsOwnAndAnotherTenantStillGetsAStream() throws {
        let api = try EventTestHarness(maximumStreams: 10, maximumStreamsPerTenant: 2)
        let noisy = try api.makeTenant("noisy"), quiet = try api.makeTenant("quiet")
        let stream: HTTPHeaders = ["Accept": "text/event-stream"]
        let first = api.openStream("/v1/events", key: noisy.key)
        // Accepted but not yet attached also counts against the tenant's share.
        var accepted: HTTPResponse? = api.respond(.get, "/v1/events", key: noisy.key, headers: stream)
        #expect(first.response.status.code == 200 && accepted?.status.code == 200)
        let third = api.send(.get, "/v1/events", key: noisy.key, headers: stream)
        #expect(third.status == 429 && third.problemCode == "tooManyStreamsForTenant")
        #expect(third.headers["Retry-After"] == "5")
        #expect(api.openStream("/v1/events", key: quiet.key).response.status.code == 200)
        // A place given back is the tenant's again.
        accepted = nil
        #expect(api.openStream("/v1/events", key: noisy.key).response.status.code == 200)
        #expect(api.send(.get, "/v1/events", key: noisy.key, headers: stream).status == 429)
    }
}
