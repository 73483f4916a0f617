import Foundation
import Testing

/// Four background tasks begun in the foreground, the app sent home, requests submitted, then each task ended, over
/// HTTP against the real executable: the service answers every call and lives on. This sequence (found running
/// Firefox's background code through BGEmuKit) once crashed the whole service in `endBackgroundTask`, through a
/// `_read` accessor of the engine's app subscript.
@Suite struct BackgroundTaskEndEndToEndTests {
    static let key = "bgtask-end-e2e-key-0123456789"

    @Test func R13_endingFourTasksAfterSubmitsInTheBackgroundIsAnsweredAndTheServiceLivesOn() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        defer { service.stop() }
        let api = service.client(key: Self.key)
        let device = try #require(try api.request("POST", "/v1/devices", json: #"{"name":"tasks"}"#).json["id"] as? String)
        let app = "/v1/devices/\(device)/apps/a.b"
        #expect(try api.request("POST", "/v1/devices/\(device)/apps", json: """
            {"bundleId":"a.b","infoPlist":{"UIBackgroundModes":["fetch","processing"],
             "BGTaskSchedulerPermittedIdentifiers":["a.b.1","a.b.2","a.b.3"]}}
            """).status == 201)
        #expect(try api.request("POST", "\(app)/launch").status == 200)
        var tasks: [String] = []
        for _ in 0..<4 { tasks.append(try #require(try api.request("POST", "\(app)/background-tasks", json: "{}").json["id"] as? String)) }
        #expect(try api.request("POST", "\(app)/background").status == 200)
        #expect(try api.request("POST", "\(app)/task-requests", json: #"{"kind":"appRefresh","identifier":"a.b.1"}"#).status == 201)
        for task in tasks { #expect(try api.request("DELETE", "\(app)/background-tasks/\(task)").status == 204) }
        #expect(try api.request("GET", app).json["state"] as? String != nil)
        #expect(!service.output.contains("crashed"))
    }
}
