import Foundation
import Testing
@testable import Emulation

/// The forecast request as JSON: an unknown key is refused at every level, and `app.behavior` and
/// `app.atLaunch.fetchInterval` are read by the same decoders as the install body's `behavior` and
/// `PUT …/fetch-interval`'s `interval` (`AppBehaviorCoding`, `FetchIntervalCoding`).
@Suite struct ForecastRequestDecodingTests {
    private static let base = """
        {"devices": 10, "days": 1,
         "app": {"bundleId": "com.example.weather",
                 "infoPlist": {"UIBackgroundModes": ["fetch"], "BGTaskSchedulerPermittedIdentifiers": ["com.example.r"]},
                 "atLaunch": {"submit": [{"kind": "appRefresh", "identifier": "com.example.r"}], "fetchInterval": 900},
                 "behavior": {"appRefresh": {"completeAfter": 3}}},
         "population": {
             "usage": [{"name": "u", "share": 1, "hours": [8], "opensPerDay": 1, "spreadMinutes": 10, "sessionMinutes": 3}],
             "charging": [{"name": "c", "share": 1, "durationHours": 8, "daysShare": 1, "spreadMinutes": 0}],
             "batteryDrainPerHour": {"min": 1, "max": 2},
             "network": {"homeFromHour": 19, "homeToHour": 8, "home": {"wifi": 1, "cellular": 0, "none": 0},
                         "away": {"wifi": 0, "cellular": 1, "none": 0}}},
         "pushes": [{"everyMinutes": 60}]}
        """

    /// `base` with the JSON `value` set at `path` (keys, and array indices as digits).
    private static func body(setting value: String, at path: [String]) -> Data {
        let json = try! JSONSerialization.jsonObject(with: Data(value.utf8), options: [.fragmentsAllowed])
        func set(_ node: Any, _ path: ArraySlice<String>) -> Any {
            guard let head = path.first else { return json }
            if let index = Int(head), var array = node as? [Any] {
                array[index] = set(array[index], path.dropFirst())
                return array
            }
            var object = node as? [String: Any] ?? [:]
            object[head] = set(object[head] as Any, path.dropFirst())
            return object
        }
        let root = try! JSONSerialization.jsonObject(with: Data(base.utf8))
        return try! JSONSerialization.data(withJSONObject: set(root, path[...]))
    }

    private func issues(_ data: Data) -> [FieldIssue]? {
        do {
            _ = try JSONDecoder().decode(ForecastRequest.self, from: data)
            return nil
        } catch EmulationError.invalid(let issues) {
            return issues
        } catch {
            return [FieldIssue("?", "\(error)")]
        }
    }

    @Test func theBaseRequestDecodes() throws {
        let request = try JSONDecoder().decode(ForecastRequest.self, from: Self.body(setting: "10", at: ["devices"]))
        #expect(request.app.atLaunch.fetchInterval == .seconds(.seconds(900)))
        #expect(request.app.behavior?.runs[.appRefresh]?.completeAfter == .seconds(3))
        #expect(request.validate().isEmpty)
    }

    /// R41: a continued processing task starts at the user's tap in the foreground; a forecast has none to launch.
    @Test func R41_aForecastSubmitOfAContinuedProcessingRequestIsAnIssueOnItsKind() throws {
        let data = Self.body(setting: #"{"kind": "continuedProcessing", "identifier": "com.example.r"}"#, at: ["app", "atLaunch", "submit", "0"])
        let request = try JSONDecoder().decode(ForecastRequest.self, from: data)
        #expect(request.validate().map(\.field) == ["app.atLaunch.submit[0].kind"])
        #expect(request.app.resolvedBehavior.runs[.continuedProcessing] == nil)
    }

    @Test(arguments: [
        (["extra"], "extra"),
        (["app", "extra"], "app.extra"),
        (["app", "infoPlist", "extra"], "app.infoPlist.extra"),
        (["app", "atLaunch", "extra"], "app.atLaunch.extra"),
        (["app", "atLaunch", "submit", "0", "extra"], "app.atLaunch.submit[0].extra"),
        (["app", "behavior", "extra"], "app.behavior.extra"),
        (["app", "behavior", "appRefresh", "extra"], "app.behavior.appRefresh.extra"),
        (["population", "extra"], "population.extra"),
        (["population", "usage", "0", "extra"], "population.usage[0].extra"),
        (["population", "charging", "0", "extra"], "population.charging[0].extra"),
        (["population", "batteryDrainPerHour", "extra"], "population.batteryDrainPerHour.extra"),
        (["population", "network", "extra"], "population.network.extra"),
        (["population", "network", "home", "extra"], "population.network.home.extra"),
        (["pushes", "0", "extra"], "pushes[0].extra"),
    ])
    func anUnknownKeyIsRefusedAtEveryLevel(path: [String], field: String) {
        #expect(issues(Self.body(setting: "1", at: path))?.map(\.field) == [field])
    }

    @Test(arguments: [
        (#"{"appRefresh": {"result": "success"}}"#, "app.behavior.appRefresh.completeAfter"),
        (#"{"appRefresh": {"completeAfter": 90000}}"#, "app.behavior.appRefresh.completeAfter"),
        (#"{"appRefresh": {"completeAfter": null}}"#, "app.behavior.appRefresh.completeAfter"),
        (#"{"fetch": {"completeAfter": 3, "result": "success"}}"#, "app.behavior.fetch.result"),
        (#"{"fetch": {"completeAfter": 3, "resubmit": true}}"#, "app.behavior.fetch.resubmit"),
        (#"{"appRefresh": {"completeAfter": 3, "resubmitAfter": "never"}}"#, "app.behavior.appRefresh.resubmitAfter"),
        (#"{"onEnterBackground": {"endAfter": -1}}"#, "app.behavior.onEnterBackground.endAfter"),
    ])
    func theBehaviorRefusesWhatTheInstallBodyRefuses(behavior: String, field: String) {
        #expect(issues(Self.body(setting: behavior, at: ["app", "behavior"])).map { $0.map(\.field) } == [field])
        // The install body's decoder is the same one: the issue is the same, under the install body's path.
        struct Install: Decodable {
            var behavior: AppBehavior?
            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: AnyKey.self)
                behavior = try c.decodeIfPresent(AppBehaviorCoding.self, forKey: AnyKey("behavior"))?.behavior
            }
        }
        do {
            _ = try JSONDecoder().decode(Install.self, from: Data(#"{"behavior": \#(behavior)}"#.utf8))
            Issue.record("the install body took \(behavior)")
        } catch EmulationError.invalid(let found) {
            #expect(found.map(\.field) == [String(field.dropFirst("app.".count))])
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test(arguments: [#""sometimes""#, "604801", "-1"])
    func theFetchIntervalRefusesWhatTheFetchIntervalRouteRefuses(value: String) {
        #expect(issues(Self.body(setting: value, at: ["app", "atLaunch", "fetchInterval"])).map { $0.map(\.field) }
            == ["app.atLaunch.fetchInterval"])
    }

    @Test func anEncodedRequestDecodesToItself_behaviorAndIntervalIncluded() throws {
        let request = try JSONDecoder().decode(ForecastRequest.self, from: Self.body(setting: #""minimum""#, at: ["app", "atLaunch", "fetchInterval"]))
        let again = try JSONDecoder().decode(ForecastRequest.self, from: JSONEncoder().encode(request))
        #expect(again == request)
        #expect(again.app.atLaunch.fetchInterval == .minimum)
    }
}
