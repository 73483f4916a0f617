import Foundation
import Testing
@testable import API

/// The install body's `behavior` and `PUT …/fetch-interval` are read by the decoders the forecast shares
/// (`AppBehaviorCoding`, `FetchIntervalCoding`): the rules they carry hold on the routes.
@Suite struct BehaviorRuleRoutesTests {
    let api: APIHarness
    let key: String
    let device: String

    init() throws {
        (api, key, device) = try APIHarness.withDevice()
    }

    func install(_ behavior: String) -> TestResponse {
        api.send(.post, "/v1/devices/\(device)/apps", key: key, json: """
            {"bundleId":"com.example.weather","infoPlist":{"UIBackgroundModes":["fetch"],
             "BGTaskSchedulerPermittedIdentifiers":["com.example.weather.refresh"]},"behavior":\(behavior)}
            """)
    }

    /// R21: a BGTask handler submits its request again; a fetch handler has nothing to resubmit.
    @Test func R21_onlyBGTaskRunsMayResubmit() {
        let fetch = install(#"{"fetch":{"completeAfter":3,"result":"newData","resubmit":true}}"#)
        #expect(fetch.status == 422)
        #expect(fetch.text.contains("behavior.fetch.resubmit"), "\(fetch.text)")
        #expect(install(#"{"appRefresh":{"completeAfter":3,"resubmit":true}}"#).status == 201)
    }

    /// R28: the minimum background fetch interval is seconds from 0 to a week, `minimum` or `never`.
    @Test func R28_aFetchIntervalOutOfRangeIsRefusedAndAWeekIsTaken() {
        #expect(install("{}").status == 201)
        let path = "/v1/devices/\(device)/apps/com.example.weather/fetch-interval"
        #expect(api.send(.put, path, key: key, json: #"{"interval":604800}"#).status == 200)
        let tooLong = api.send(.put, path, key: key, json: #"{"interval":604801}"#)
        #expect(tooLong.status == 422)
        #expect(tooLong.text.contains("interval"), "\(tooLong.text)")
        #expect(api.send(.put, path, key: key, json: #"{"interval":-1}"#).status == 422)
    }
}
