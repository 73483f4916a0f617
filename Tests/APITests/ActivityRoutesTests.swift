import Foundation
import Testing
@testable import API

/// `…/activities`, `…/location`, `…/accessories/{id}/data`, `…/newsstand-issue` in-process (R35–R39).
@Suite struct ActivityRoutesTests {
    let api: APIHarness
    let key: String
    let device: String

    init() throws {
        (api, key, device) = try APIHarness.withDevice()
        for (bundle, modes) in [("com.example.music", #"["audio"]"#), ("com.example.maps", #"["fetch"]"#),
                                ("com.example.phone", #"["voip"]"#), ("com.example.band", #"["bluetooth-central"]"#),
                                ("com.example.papers", #"["newsstand-content"]"#)] {
            let install = #"{"bundleId":"\#(bundle)","infoPlist":{"UIBackgroundModes":\#(modes)}}"#
            #expect(api.send(.post, "/v1/devices/\(device)/apps", key: key, json: install).status == 201)
        }
    }

    func app(_ bundle: String) -> String { "/v1/devices/\(device)/apps/\(bundle)" }
    func post(_ path: String, _ json: String = "{}") -> TestResponse { api.send(.post, path, key: key, json: json) }
    func put(_ path: String, _ json: String) -> TestResponse { api.send(.put, path, key: key, json: json) }
    func get(_ path: String) -> TestResponse { api.send(.get, path, key: key) }
    func advance(_ seconds: Double) { _ = post("/v1/devices/\(device)/clock/advance", #"{"seconds":\#(seconds)}"#) }

    @Test func audioAnswersWhetherItKeepsTheAppRunning() {
        let music = app("com.example.music")
        _ = post("\(music)/launch")
        let playing = put("\(music)/activities/audio", #"{"active":true}"#)
        #expect(playing.status == 200)
        #expect(playing.json["keepsAppRunning"] as? Bool == true && playing.json["reason"] as? String == "playing")
        _ = post("\(music)/background")
        advance(120)
        #expect(get(music).json["state"] as? String == "background")
        #expect(put("\(music)/activities/audio", #"{"active":false}"#).json["reason"] as? String == "inactive")
        #expect(get(music).json["state"] as? String == "suspended")
        let undeclared = put("\(app("com.example.maps"))/activities/audio", #"{"active":true}"#)
        #expect(undeclared.json["keepsAppRunning"] as? Bool == false && undeclared.json["reason"] as? String == "modeNotDeclared")
        #expect(get("\(music)/activities").items.count == 6)
        #expect(put("\(music)/activities/juggling", #"{"active":true}"#).status == 404)
        #expect(put("\(music)/activities/audio", #"{"active":true,"volume":3}"#).status == 422)
    }

    @Test func voipKeepAliveUnder600SecondsIs422() {
        let phone = app("com.example.phone")
        #expect(put("\(phone)/activities/voip", #"{"active":true,"keepAliveInterval":300}"#).status == 422)
        #expect(put("\(phone)/activities/voip", #"{"active":true}"#).status == 422)
        let ok = put("\(phone)/activities/voip", #"{"active":true,"keepAliveInterval":600}"#)
        #expect(ok.status == 200 && ok.json["reason"] as? String == "wakesForKeepAlive")
        advance(600)
        #expect(get("\(phone)/runs").items.last?["kind"] as? String == "voip")
    }

    @Test func significantLocationChangeRelaunchesTheApp() {
        let maps = app("com.example.maps")
        _ = put("\(maps)/activities/significantLocationChanges", #"{"active":true}"#)
        let moved = post("/v1/devices/\(device)/location", #"{"latitude":48.85,"longitude":2.35}"#)
        #expect(moved.status == 200 && moved.json["wokenApps"] as? [String] == ["com.example.maps"])
        #expect(get("\(maps)/runs").items.last?["kind"] as? String == "location")
        #expect(post("/v1/devices/\(device)/location", #"{"latitude":91,"longitude":0}"#).status == 422)
    }

    @Test func accessoryDataWakesTheBluetoothApp() {
        let band = app("com.example.band")
        _ = put("\(band)/activities/bluetooth", #"{"active":true}"#)
        let data = post("/v1/devices/\(device)/accessories/hr-strap/data", #"{"transport":"bluetooth"}"#)
        #expect(data.status == 200 && data.json["wokenApps"] as? [String] == ["com.example.band"])
        let run = get("\(band)/runs").items.last
        #expect(run?["kind"] as? String == "accessory" && run?["identifier"] as? String == "hr-strap")
        #expect(post("/v1/devices/\(device)/accessories/x/data", #"{"transport":"usb"}"#).status == 422)
    }

    @Test func R38_theAccessoryWakeEndsWithTheAppSuspendedNotTerminated() {
        let band = app("com.example.band")
        _ = post("\(band)/launch")
        _ = put("\(band)/activities/bluetooth", #"{"active":true}"#)
        _ = post("\(band)/background")
        advance(10)
        _ = post("/v1/devices/\(device)/accessories/hr-strap/data", #"{"transport":"bluetooth"}"#)
        #expect(get(band).json["state"] as? String == "background")
        advance(60)
        #expect(get(band).json["state"] as? String == "suspended")
        let run = get("\(band)/runs").items.last
        #expect(run?["state"] as? String == "completed" && run?["result"] is NSNull)
        #expect(get("/v1/devices/\(device)/events?type=app.terminated").items.isEmpty)
    }

    @Test func newsstandIssueLaunchesTheApp() {
        let issue = post("\(app("com.example.papers"))/newsstand-issue", #"{"name":"2026-01"}"#)
        #expect(issue.status == 201 && issue.json["kind"] as? String == "newsstand")
        #expect(post("\(app("com.example.maps"))/newsstand-issue", #"{"name":"2026-01"}"#).problemCode == "modeNotDeclared")
    }
}
