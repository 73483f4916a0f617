import Foundation
import Testing
@testable import API

/// `…/apps/{bundleId}/notifications` in-process (R40).
@Suite struct NotificationRoutesTests {
    let api: APIHarness
    let key: String
    let device: String

    init() throws {
        (api, key, device) = try APIHarness.withDevice()
        #expect(api.send(.post, "/v1/devices/\(device)/apps", key: key, json: #"{"bundleId":"com.example.weather"}"#).status == 201)
    }

    var base: String { "/v1/devices/\(device)/apps/com.example.weather/notifications" }

    func schedule(_ json: String) -> TestResponse { api.send(.post, base, key: key, json: json) }

    @Test func scheduleListAndCancel() {
        let later = schedule(#"{"identifier":"later","timeInterval":7200,"title":"T","body":"B"}"#)
        #expect(later.status == 201 && later.headers["Location"] == "\(base)/later")
        #expect(later.json["repeats"] as? Bool == false && later.json["timeInterval"] as? Double == 7200)
        let soon = schedule(#"{"identifier":"soon","fireDate":"2030-01-01T00:00:00Z"}"#)
        #expect(soon.status == 201 && soon.json["timeInterval"] is NSNull)
        let list = api.send(.get, base, key: key)
        #expect(list.items.compactMap { $0["identifier"] as? String } == ["later", "soon"])
        #expect(api.send(.delete, "\(base)/later", key: key).status == 204)
        #expect(api.send(.delete, "\(base)/later", key: key).status == 404)
        #expect(api.send(.get, base, key: key).items.count == 1)
    }

    /// R40: a time-interval trigger is at most a year; past it, the request names the field.
    @Test func R40_aTimeIntervalPastAYearIsRefusedNamingTheField() {
        #expect(schedule(#"{"identifier":"year","timeInterval":31622400}"#).status == 201)  // 366 days
        let tooLong = schedule(#"{"identifier":"longer","timeInterval":31622401}"#)
        #expect(tooLong.status == 422)
        #expect(tooLong.text.contains("timeInterval"), "\(tooLong.text)")
    }

    /// Found by schemathesis: a `Location` carried a client-chosen identifier raw, so it was no URI reference.
    @Test func locationPercentEncodesClientChosenIdentifiers() {
        let created = schedule(#"{"identifier":"été 1/2","timeInterval":60}"#)
        #expect(created.status == 201)
        let location = created.headers["Location"] ?? ""
        #expect(location == "\(base)/%C3%A9t%C3%A9%201%2F2")
        #expect(location.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F })
        #expect(api.send(.delete, location, key: key).status == 204)
    }

    @Test func itFiresOnTheVirtualClock() {
        _ = schedule(#"{"identifier":"n","timeInterval":60}"#)
        _ = api.send(.post, "/v1/devices/\(device)/clock/advance", key: key, json: #"{"seconds":61}"#)
        #expect(api.send(.get, base, key: key).items.isEmpty)
    }

    @Test func invalidRequestsAreRefused() {
        #expect(schedule(#"{"identifier":"n"}"#).status == 422)
        #expect(schedule(#"{"identifier":"n","timeInterval":60,"fireDate":"2030-01-01T00:00:00Z"}"#).status == 422)
        #expect(schedule(#"{"identifier":"n","timeInterval":30,"repeats":true}"#).errorFields == ["timeInterval"])
        #expect(schedule(#"{"identifier":"n","fireDate":"soon"}"#).errorFields == ["fireDate"])
        // A well-formed date the device's clock has passed conflicts with the device's state.
        let past = schedule(#"{"identifier":"n","fireDate":"2025-12-31T00:00:00Z"}"#)
        #expect(past.status == 409 && past.problemCode == "fireDateNotAhead")
        #expect(schedule(#"{"identifier":"n","timeInterval":60,"sound":"x"}"#).errorFields == ["sound"])
    }
}
