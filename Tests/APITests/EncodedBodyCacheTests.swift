import CompactJSON
import Emulation
import Foundation
import Testing
@testable import API

/// `EncodedBodyCache`: a body's bytes are reused only while the body is equal; any change is encoded anew.
@Suite struct EncodedBodyCacheTests {
    struct Body: Encodable, Equatable, Sendable {
        var name: String
        var count: Int
    }

    /// Counts encodings, to tell a reuse from an encoding that happens to give the same bytes.
    final class CountingBody: Encodable, Equatable, @unchecked Sendable {
        nonisolated(unsafe) static var encodings = 0
        let value: Int
        init(_ value: Int) { self.value = value }
        static func == (a: CountingBody, b: CountingBody) -> Bool { a.value == b.value }
        func encode(to encoder: any Encoder) throws {
            Self.encodings += 1
            var c = encoder.singleValueContainer()
            try c.encode(value)
        }
    }

    @Test func anEqualBodyReusesTheBytesAndAChangedOneIsEncodedAnew() throws {
        let cache = EncodedBodyCache<Body>(limit: 10)
        let encoder = CompactJSONEncoder()
        #expect(try cache.bytes(for: "a", Body(name: "x", count: 1), encoder: encoder) == Array(#"{"count":1,"name":"x"}"#.utf8))
        #expect(try cache.bytes(for: "a", Body(name: "x", count: 2), encoder: encoder) == Array(#"{"count":2,"name":"x"}"#.utf8))
        #expect(try cache.bytes(for: "b", Body(name: "y", count: 2), encoder: encoder) == Array(#"{"count":2,"name":"y"}"#.utf8))
        #expect(try cache.bytes(for: "a", Body(name: "x", count: 2), encoder: encoder) == Array(#"{"count":2,"name":"x"}"#.utf8))
    }

    @Test func aReuseDoesNotEncodeAndTheTableIsBounded() throws {
        let cache = EncodedBodyCache<CountingBody>(limit: 3)
        let encoder = CompactJSONEncoder()
        let before = CountingBody.encodings
        for _ in 0..<5 { _ = try cache.bytes(for: "k", CountingBody(7), encoder: encoder) }
        #expect(CountingBody.encodings - before == 1)
        for key in ["a", "b", "c", "d"] { _ = try cache.bytes(for: key, CountingBody(1), encoder: encoder) }
        #expect(cache.count <= 3)
    }
}

/// A device read after any change answers the change (the body cache cannot serve a body of before).
@Suite struct DeviceBodyCacheRouteTests {
    @Test func aDeviceReadAfterEachChangeAnswersTheChange() throws {
        let (api, key, device) = try APIHarness.withDevice()
        #expect(api.send(.get, "/v1/devices/\(device)", key: key).json["name"] as? String == "Test iPhone")
        #expect(api.send(.patch, "/v1/devices/\(device)", key: key, json: #"{"name":"Renamed"}"#).status == 200)
        #expect(api.send(.get, "/v1/devices/\(device)", key: key).json["name"] as? String == "Renamed")
        #expect(api.send(.post, "/v1/devices/\(device)/clock/advance", key: key, json: #"{"seconds":60}"#).status == 200)
        let clock = api.send(.get, "/v1/devices/\(device)", key: key).json["clock"] as? [String: Any]
        #expect(clock?["now"] as? String == "2026-01-01T00:01:00.000Z")
        let first = api.send(.get, "/v1/devices/\(device)", key: key)
        let again = api.send(.get, "/v1/devices/\(device)", key: key)
        #expect(first.body == again.body)
    }
}

/// The policy of a device's answer: the built-in profiles' bytes made once and reused, an overridden policy encoded
/// for itself; either way the bytes are those of the policy asked for.
@Suite struct PolicyFragmentTests {
    @Test func eachPolicysBytesAreItsOwnEncodingAndTheBuiltInsAreReused() throws {
        let overridden = (0..<20).map { n -> Profile in
            var profile = Profile.ios13
            profile.backgroundTaskAllowance = VirtualDuration(seconds: Double(10 + n))
            return profile
        }
        for profile in overridden + [Profile.ios4, Profile.ios7, Profile.ios13] {
            let fragment = PolicyBody.fragment(profile)
            #expect(fragment.value == PolicyBody(profile))
            #expect(fragment.bytes == (try JSONBody.encoder.encode(PolicyBody(profile))))
        }
        #expect(PolicyBody.builtIns.map(\.value.profile) == [Profile.ios13, Profile.ios7, Profile.ios4])
        #expect(PolicyBody.fragment(.ios7).bytes == PolicyBody.builtIns[1].bytes)
    }
}
