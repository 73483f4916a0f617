import CompactJSON
import Emulation
import Foundation
import Testing
@testable import API

/// `EncodedBodyCache`: a body's bytes are reused only while its stamp is equal; any change is encoded anew.
@Suite struct EncodedBodyCacheTests {
    struct Body: Encodable, Equatable, Sendable {
        var name: String
        var count: Int
    }

    @Test func anEqualStampReusesTheBytesAndAChangedOneIsEncodedAnew() throws {
        let cache = EncodedBodyCache<Body>(limit: 10)
        let encoder = CompactJSONEncoder()
        let bytes = { (key: String, body: Body) in try cache.bytes(for: key, stamp: body) { try encoder.encode(body) } }
        #expect(try bytes("a", Body(name: "x", count: 1)) == Array(#"{"count":1,"name":"x"}"#.utf8))
        #expect(try bytes("a", Body(name: "x", count: 2)) == Array(#"{"count":2,"name":"x"}"#.utf8))
        #expect(try bytes("b", Body(name: "y", count: 2)) == Array(#"{"count":2,"name":"y"}"#.utf8))
        #expect(try bytes("a", Body(name: "x", count: 2)) == Array(#"{"count":2,"name":"x"}"#.utf8))
    }

    @Test func aReuseDoesNotEncodeAndTheTableIsBounded() throws {
        let cache = EncodedBodyCache<Int>(limit: 3)
        var encodings = 0
        for _ in 0..<5 {
            _ = cache.bytes(for: "k", stamp: 7) {
                encodings += 1
                return [7]
            }
        }
        #expect(encodings == 1)
        #expect(cache.bytes(for: "k", stamp: 8) { [8] } == [8])  // a new stamp is encoded anew
        for key in ["a", "b", "c", "d"] { _ = cache.bytes(for: key, stamp: 1) { [1] } }
        #expect(cache.count <= 3)
    }
}

/// `DeviceBody.Stamp`: two devices have equal stamps exactly when their answers are equal, whichever part of the
/// device differs (so a cached answer is never served for a device whose answer changed, nor rebuilt for nothing).
@Suite struct DeviceBodyStampTests {
    @Test func theStampChangesExactlyWhenTheAnswerDoes() throws {
        let wall: Int64 = 1_790_000_000_000
        let base = Device(
            id: "dev_1", tenantId: "t", name: "Phone", model: "iPhone", osVersion: OSVersion(major: 17),
            multitaskingSupported: true, clock: DeviceClock(), seed: 1, createdAt: Date(timeIntervalSince1970: 1_700_000_000))
        let app = App(bundleId: "com.example.app", manifest: AppManifest(), installedAt: .defaultStart)
        var changes: [(String, (inout Device) -> Void)] = [
            ("name", { $0.name = "Renamed" }),
            ("model", { $0.model = "iPad" }),
            ("osVersion", { $0.osVersion = OSVersion(major: 12) }),
            ("multitaskingSupported", { $0.multitaskingSupported = false }),
            ("policyOverrides", { $0.policyOverrides = ["processingRun": 120] }),
            ("clock.mode", { $0.clock.mode = .realtime }),
            ("clock.scale", { $0.clock.scale = 2 }),
            ("clock.anchor", { $0.clock.anchor = VirtualInstant(milliseconds: $0.clock.anchor.milliseconds + 1) }),
            ("conditions.batteryLevel", { $0.conditions.batteryLevel = 50 }),
            ("conditions.charging", { $0.conditions.charging.toggle() }),
            ("conditions.lowPowerMode", { $0.conditions.lowPowerMode.toggle() }),
            ("conditions.network", { $0.conditions.network = .cellular }),
            ("conditions.backgroundAppRefresh", { $0.conditions.backgroundAppRefresh.toggle() }),
            ("conditions.locked", { $0.conditions.locked.toggle() }),
            ("conditions.userActive", { $0.conditions.userActive.toggle() }),
            ("seed", { $0.seed = 2 }),
            ("createdAt", { $0.createdAt = $0.createdAt.addingTimeInterval(0.001) }),
            ("apps", { $0.apps = [app] }),
            ("scenario", { $0.scenario = "smoke" }),
        ]
        // A part of the device the answer does not show: the stamp must not change either.
        changes.append(("tenantId (not in the answer)", { $0.tenantId = "other" }))
        for (name, change) in changes {
            var changed = base
            change(&changed)
            let bodiesEqual = DeviceBody(base, wallMilliseconds: wall) == DeviceBody(changed, wallMilliseconds: wall)
            let stampsEqual = DeviceBody.Stamp(base, wallMilliseconds: wall) == DeviceBody.Stamp(changed, wallMilliseconds: wall)
            #expect(stampsEqual == bodiesEqual, "\(name): stamps equal \(stampsEqual), answers equal \(bodiesEqual)")
        }
        // A realtime clock's answer moves with the wall clock, and its stamp with it.
        var realtime = base
        realtime.clock = DeviceClock(mode: .realtime, wallMilliseconds: wall)
        #expect(DeviceBody.Stamp(realtime, wallMilliseconds: wall) != DeviceBody.Stamp(realtime, wallMilliseconds: wall + 5))
        #expect(DeviceBody.Stamp(base, wallMilliseconds: wall) == DeviceBody.Stamp(base, wallMilliseconds: wall + 5))
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
