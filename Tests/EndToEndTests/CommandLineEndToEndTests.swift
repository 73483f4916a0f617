import Foundation
import Glibc
import Testing

/// The `xcrun simctl`-like verbs of the real `bgemu` executable against a live service: what they print, what they
/// change on the service, and their exit statuses (0; 1 for a refusal, with the problem's detail on standard error;
/// 2 for a service that cannot be reached).
@Suite(.serialized) struct CommandLineEndToEndTests {
    static let key = "cli-e2e-key-0123456789"
    static let bundle = "chat.rocket.ios"  // the app rocketchat-alert.apns names

    static let infoPlist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <key>CFBundleIdentifier</key>
            <string>chat.rocket.ios</string>
            <key>CFBundleDisplayName</key>
            <string>Rocket.Chat</string>
            <key>UIBackgroundModes</key>
            <array><string>remote-notification</string><string>fetch</string></array>
            <key>BGTaskSchedulerPermittedIdentifiers</key>
            <array><string>chat.rocket.ios.refresh</string></array>
        </dict>
        </plist>
        """

    static func fixture(_ name: String) -> String { CommandLineRunner.fixtures.appendingPathComponent("apns/\(name)").path }

    /// A service with one device (manual clock) and the runner's environment pointing at it.
    func setUp() throws -> (LiveService, CommandLineRunner, String) {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        let device = try service.client(key: Self.key).request("POST", "/v1/devices", json: #"{"name":"ci-phone","seed":7}"#)
        let id = try #require(device.json["id"] as? String)
        var cli = CommandLineRunner()
        cli.environment["BGEMU_URL"] = "http://127.0.0.1:\(service.port)"
        cli.environment["BGEMU_API_KEY"] = Self.key
        return (service, cli, id)
    }

    func events(_ service: LiveService, _ device: String, type: String) throws -> [[String: Any]] {
        try service.client(key: Self.key).request("GET", "/v1/devices/\(device)/events?type=\(type)&limit=500").json["items"]
            as? [[String: Any]] ?? []
    }

    @Test func installPushLaunchAdvanceDevicesAndEvents() throws {
        let (service, cli, device) = try setUp()
        defer { service.stop() }
        let api = service.client(key: Self.key)

        // install: a real Info.plist (XML), uploaded as application/x-plist.
        let plist = service.directory.appendingPathComponent("Info.plist")
        try Data(Self.infoPlist.utf8).write(to: plist)
        let installed = try cli.run(["install", device, plist.path])
        #expect(installed.status == 0, "\(installed.stderr)")
        #expect(installed.lines == ["installed chat.rocket.ios (Rocket.Chat) on \(device): background modes remote-notification, "
            + "fetch; permitted identifiers chat.rocket.ios.refresh; launch handlers chat.rocket.ios.refresh"])
        #expect(try api.request("GET", "/v1/devices/\(device)/apps/\(Self.bundle)").json["state"] as? String == "notRunning")

        // push: a real simctl file naming its app with "Simulator Target Bundle"; no bundle id on the line.
        let alert = try cli.run(["push", device, Self.fixture("rocketchat-alert.apns")])
        #expect(alert.status == 0, "\(alert.stderr)")
        #expect(alert.stdout.hasPrefix("delivered push ") && alert.stdout.hasSuffix(" to chat.rocket.ios: alert shown\n"), "\(alert.stdout)")
        let shown = try events(service, device, type: "notification.delivered")
        #expect(shown.count == 1 && (shown.first?["data"] as? [String: Any])?["title"] as? String == "Hey!")

        // A background push file without a target bundle: the bundle id comes from the line; it wakes the app.
        let background = try cli.run(["push", device, Self.bundle, Self.fixture("kmp-background.apns")])
        #expect(background.status == 0, "\(background.stderr)")
        #expect(background.stdout.contains(" to chat.rocket.ios: woke the app (run run_"), "\(background.stdout)")
        #expect(try events(service, device, type: "run.started").count == 1)

        // Deferred in Low Power Mode (R30), read from standard input; --json gives the raw answer.
        #expect(try api.request("PATCH", "/v1/devices/\(device)/conditions", json: #"{"lowPowerMode":true}"#).status == 200)
        let payload = try Data(contentsOf: URL(fileURLWithPath: Self.fixture("kmp-background.apns")))
        let deferred = try cli.run(["push", device, Self.bundle, "-"], input: Array(payload))
        #expect(deferred.status == 0, "\(deferred.stderr)")
        #expect(deferred.stdout.contains(" to chat.rocket.ios: held by the system (lowPowerMode)"), "\(deferred.stdout)")
        let raw = try cli.run(["push", device, Self.bundle, "-", "--json"], input: Array(payload))
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(raw.stdout.utf8)) as? [String: Any])
        #expect(answer["outcome"] as? String == "coalesced" && answer["reason"] as? String == "lowPowerMode")
        #expect(answer["replacedApnsId"] is String)

        // A file naming an app that is not installed: APNs's BadTopic, exit 1, the detail on standard error.
        let unknownApp = try cli.run(["push", device, Self.fixture("snapyr-mutable-content.apns")])
        #expect(unknownApp.status == 1 && unknownApp.stdout.isEmpty)
        #expect(unknownApp.stderr.contains("com.snapyr.pushtest") && unknownApp.stderr.contains("(400 Bad Request, BadTopic)"),
                "\(unknownApp.stderr)")

        // launch
        let launched = try cli.run(["launch", device, Self.bundle])
        #expect(launched.status == 0 && launched.lines == ["launched chat.rocket.ios on \(device): active"], "\(launched.stderr)")
        #expect(try api.request("GET", "/v1/devices/\(device)/apps/\(Self.bundle)").json["state"] as? String == "active")

        // advance 15m: the clock moves by exactly 900 s.
        let before = try #require(try api.request("GET", "/v1/devices/\(device)/clock").json["now"] as? String)
        let advanced = try cli.run(["advance", device, "15m"])
        #expect(advanced.status == 0, "\(advanced.stderr)")
        let after = try #require(try api.request("GET", "/v1/devices/\(device)/clock").json["now"] as? String)
        let format = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        #expect(try format.parse(after).timeIntervalSince(try format.parse(before)) == 900)
        #expect(advanced.stdout.hasPrefix("clock of \(device) at \(after) (+15m); "), "\(advanced.stdout)")
        #expect(advanced.stdout.contains(" events recorded") || advanced.stdout.contains(" event recorded"))

        // create: prints the new device's id alone, as simctl create prints the UDID.
        let created = try cli.run(["create", "second", "--os-version", "12.4", "--seed", "3", "--start", "2026-03-01T08:00:00Z"])
        #expect(created.status == 0 && created.lines.count == 1, "\(created.stderr)")
        let second = try api.request("GET", "/v1/devices/\(created.stdout.trimmingCharacters(in: .whitespacesAndNewlines))").json
        #expect(second["name"] as? String == "second" && second["osVersion"] as? String == "12.4" && second["profile"] as? String == "ios7")
        #expect((second["clock"] as? [String: Any])?["now"] as? String == "2026-03-01T08:00:00.000Z")

        // devices: a table with the devices' rows, in creation order.
        let devices = try cli.run(["devices"])
        #expect(devices.status == 0)
        #expect(devices.lines.count == 3 && devices.lines[0].hasPrefix("ID") && devices.lines[0].hasSuffix("APPS"))
        let row = devices.lines[1].split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        #expect(row == [device, "ci-phone", "17.0", after, "1"], "\(devices.stdout)")
        let secondRow = devices.lines[2].split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        #expect(secondRow == [second["id"] as? String ?? "?", "second", "12.4", "2026-03-01T08:00:00.000Z", "0"], "\(devices.stdout)")

        // events: every stored event, one line each, oldest first; filters pass through.
        let listed = try cli.run(["events", device])
        let stored = try api.request("GET", "/v1/devices/\(device)/events?limit=500").json["items"] as? [[String: Any]] ?? []
        #expect(listed.status == 0 && listed.lines.count == stored.count && stored.count > 10)
        #expect(listed.lines.first?.hasPrefix("2026-01-01T00:00:00.000Z  device.created") == true, "\(listed.stdout)")
        #expect(listed.lines.last?.contains("clock.advanced") == true)
        let pushes = try cli.run(["events", device, "--type", "push.", "--json"])
        let types = pushes.lines.compactMap { line in
            ((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any])?["type"] as? String
        }
        #expect(types == ["push.received", "push.delivered", "push.received", "push.delivered", "push.received", "push.deferred",
                          "push.received", "push.coalesced", "push.deferred", "push.delivered"], "\(types)")  // the launch delivers the deferred one (R30)
        #expect(types.count == (try events(service, device, type: "push.")).count)

        // terminate: the system does not reclaim a foreground app (409, with a hint); --force-quit does it.
        let refused = try cli.run(["terminate", device, Self.bundle])
        #expect(refused.status == 1 && refused.stderr.contains("inForeground") && refused.stderr.contains("hint: "), "\(refused.stderr)")
        let quit = try cli.run(["terminate", device, Self.bundle, "--force-quit"])
        #expect(quit.status == 0 && quit.lines == ["force-quit chat.rocket.ios on \(device): notRunning (marked force-quit)"])
    }

    @Test func installReadsABinaryPlistAndAnAppFolder() throws {
        let (service, cli, device) = try setUp()
        defer { service.stop() }
        // A binary Info.plist (bplist00) inside an app folder, as Xcode builds it.
        let app = service.directory.appendingPathComponent("News.app")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        let plist: [String: Any] = [
            "CFBundleIdentifier": "com.example.news", "CFBundleName": "News", "UIBackgroundModes": ["processing"],
            "BGTaskSchedulerPermittedIdentifiers": ["com.example.news.cleanup", "com.example.news.refresh"],
        ]
        let binary = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        #expect(binary.starts(with: Array("bplist00".utf8)))
        try binary.write(to: app.appendingPathComponent("Info.plist"))
        let installed = try cli.run(["install", device, app.path, "--launch-handler", "com.example.news.refresh"])
        #expect(installed.status == 0, "\(installed.stderr)")
        #expect(installed.lines == ["installed com.example.news (News) on \(device): background modes processing; permitted identifiers "
            + "com.example.news.cleanup, com.example.news.refresh; launch handlers com.example.news.refresh"])

        // The same app again: the service's 409, its detail on standard error.
        let again = try cli.run(["install", device, app.appendingPathComponent("Info.plist").path])
        #expect(again.status == 1 && again.stderr.contains("(409 Conflict, alreadyInstalled)"), "\(again.stderr)")

        // A file that is nothing bgemu installs: refused here, before any request.
        let notes = service.directory.appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: notes)
        let unknown = try cli.run(["install", device, notes.path])
        #expect(unknown.status == 1 && unknown.stderr.contains("cannot tell what \(notes.path) is"))
    }

    @Test func refusalsExitOneWithTheDetailAndAnUnreachableServiceExitsTwo() throws {
        let (service, cli, device) = try setUp()
        defer { service.stop() }

        let unknown = try cli.run(["launch", "dev_000000000000000000000000", Self.bundle])
        #expect(unknown.status == 1 && unknown.stdout.isEmpty)
        #expect(unknown.stderr == "error: No device \"dev_000000000000000000000000\". (404 Not Found, notFound)\n", "\(unknown.stderr)")

        let noApp = try cli.run(["advance", "dev_000000000000000000000000", "1h"])
        #expect(noApp.status == 1 && noApp.stderr.contains("404 Not Found"))

        let tooLong = try cli.run(["advance", device, "31d"])
        #expect(tooLong.status == 1 && tooLong.stderr.contains("validationFailed"), "\(tooLong.stderr)")

        let badDuration = try cli.run(["advance", device, "15x"])
        #expect(badDuration.status != 0 && badDuration.stderr.contains("unknown unit \"x\""), "\(badDuration.stderr)")

        let wrongKey = try cli.run(["devices", "--api-key", "not-a-key"])
        #expect(wrongKey.status == 1 && wrongKey.stderr.contains("401 Unauthorized"), "\(wrongKey.stderr)")
        #expect(wrongKey.stderr.contains("hint: the service knows no such API key"))

        let missingFile = try cli.run(["push", device, Self.bundle, "/nonexistent/x.apns"])
        #expect(missingFile.status == 1 && missingFile.stderr.contains("cannot read the payload file /nonexistent/x.apns"))

        let unreachable = try cli.run(["devices", "--server", "http://127.0.0.1:1"])
        #expect(unreachable.status == 2 && unreachable.stderr.contains("cannot reach the bgemu service at http://127.0.0.1:1"))

        // BGEMU_SERVER, the scenario command's first name, still works when BGEMU_URL is absent.
        var legacy = cli
        legacy.environment.removeValue(forKey: "BGEMU_URL")
        legacy.environment["BGEMU_SERVER"] = "http://127.0.0.1:\(service.port)"
        #expect(try legacy.run(["devices"]).status == 0)
    }

    @Test func eventsFollowPrintsEventsAsTheyHappen() throws {
        let (service, cli, device) = try setUp()
        defer { service.stop() }
        let api = service.client(key: Self.key)
        let plist = service.directory.appendingPathComponent("Info.plist")
        try Data(Self.infoPlist.utf8).write(to: plist)
        #expect(try cli.run(["install", device, plist.path]).status == 0)

        let follow = try cli.start(["events", device, "--follow"])
        defer { follow.stop() }
        // Once its stream is open, the command follows from there (it read the newest event id before opening
        // it). Nothing of the past is printed: only what happens from now on (and the types below hold no
        // `app.installed`).
        #expect(service.waitForOpenEventStreams(1), "\(follow.complaints.text)")
        #expect(follow.lines.isEmpty, "\(follow.lines)")

        #expect(try cli.run(["launch", device, Self.bundle]).status == 0)
        #expect(try api.request("POST", "/v1/devices/\(device)/clock/advance", json: #"{"seconds":60}"#).status == 200)
        let sawAll = follow.wait { lines in lines.contains { $0.contains("clock.advanced") } }
        #expect(sawAll, "\(follow.lines) \(follow.complaints.text)")
        let types = follow.lines.map { $0.split(separator: " ", omittingEmptySubsequences: true)[1] }
        #expect(types == ["app.stateChanged", "app.delegate", "app.stateChanged", "app.delegate", "clock.advanced"], "\(follow.lines)")
        #expect(follow.lines.first?.contains("chat.rocket.ios") == true && follow.lines.first?.contains("to=inactive") == true)
        #expect(follow.process.isRunning)
        // Ctrl-C ends it (SIGINT, not the SIGKILL that stop() falls back to).
        #expect(follow.stop() == SIGINT && follow.process.terminationReason == .uncaughtSignal)

        // --after 0 --type replays the matching past first, then goes on live.
        let replay = try cli.start(["events", device, "--follow", "--after", "0", "--type", "app.installed", "--json"])
        defer { replay.stop() }
        #expect(replay.wait { $0.count == 1 })
        let first = try #require(replay.lines.first)
        #expect(((try JSONSerialization.jsonObject(with: Data(first.utf8))) as? [String: Any])?["bundleId"] as? String == Self.bundle)
    }

    @Test func eventsFollowResumesAfterTheLastEventWhenTheServiceComesBack() throws {
        let (service, cli, device) = try setUp()
        defer { service.stop() }
        let port = service.port
        let follow = try cli.start(["events", device, "--follow", "--type", "clock."])
        defer { follow.stop() }
        #expect(service.waitForOpenEventStreams(1), "\(follow.complaints.text)")  // following from here on
        #expect(try service.client(key: Self.key).request("POST", "/v1/devices/\(device)/clock/advance", json: #"{"seconds":60}"#).status == 200)
        #expect(follow.wait { $0.count == 1 }, "\(follow.lines)")

        // The service goes away and comes back on the same port and file; what happens before the command
        // reconnects is replayed after the last event it printed (Last-Event-ID), once.
        service.stop()
        #expect(follow.process.isRunning)
        try service.start(apiKey: Self.key, extraArguments: ["--port", String(port)])
        let api = service.client(key: Self.key)
        for seconds in [120, 180] {
            #expect(try api.request("POST", "/v1/devices/\(device)/clock/advance", json: #"{"seconds":\#(seconds)}"#).status == 200)
        }
        #expect(follow.wait(timeout: 30) { $0.count >= 3 }, "\(follow.lines) \(follow.complaints.text)")
        // A pause to show nothing more comes (no event printed twice): it cannot fail for being slow.
        Thread.sleep(forTimeInterval: 0.3)
        let ends = follow.lines.map { $0.components(separatedBy: "to=").last ?? "" }
        #expect(ends == ["2026-01-01T00:01:00.000Z", "2026-01-01T00:03:00.000Z", "2026-01-01T00:06:00.000Z"], "\(follow.lines)")
        #expect(follow.complaints.text.contains("the event stream ended; resuming after event "), "\(follow.complaints.text)")
    }

    @Test func keysCreateOnTheDatabaseFileGivesAKeyTheServiceAccepts() throws {
        let service = try LiveService()
        try service.start()  // a first start: the default tenant's key is printed once, and say it is lost
        let cli = CommandLineRunner()
        let server = "http://127.0.0.1:\(service.port)"

        // While the service runs: the key works at once.
        let created = try cli.run(["keys", "create", "--tenant", "default", "--database", service.databasePath])
        #expect(created.status == 0, "\(created.stderr)")
        let key = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(key.hasPrefix("bgemu_ten_") && key.count == 6 + 28 + 1 + 43 && created.lines.count == 1)
        #expect(created.stderr.contains("of tenant \"default\"") && created.stderr.contains("shown only this once"))
        #expect(try cli.run(["devices", "--server", server, "--api-key", key]).status == 0)
        #expect(try service.client(key: key).request("POST", "/v1/devices", json: #"{"name":"mine"}"#).status == 201)

        // After a restart on the same file, with another key made while it was stopped.
        service.stop()
        let second = try cli.run(["keys", "create", "--tenant", "default"], extraEnvironment: ["BGEMU_DATABASE": service.databasePath])
        #expect(second.status == 0, "\(second.stderr)")
        let secondKey = second.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try service.start()
        let listed = try cli.run(["devices", "--server", "http://127.0.0.1:\(service.port)", "--api-key", secondKey])
        #expect(listed.status == 0 && listed.stdout.contains("mine"), "\(listed.stderr)")
        #expect(try cli.run(["devices", "--server", "http://127.0.0.1:\(service.port)", "--api-key", key]).status == 0)

        // An unknown tenant is an error listing the tenants, unless --create-tenant.
        let unknown = try cli.run(["keys", "create", "--tenant", "ci", "--database", service.databasePath])
        #expect(unknown.status == 1 && unknown.stdout.isEmpty)
        #expect(unknown.stderr.contains("no tenant named \"ci\"; its tenants: \"default\""), "\(unknown.stderr)")
        let made = try cli.run(["keys", "create", "--tenant", "ci", "--create-tenant", "--database", service.databasePath, "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any])
        #expect(json["tenant"] as? String == "ci" && json["tenantCreated"] as? Bool == true)
        let ciKey = try #require(json["apiKey"] as? String)
        let ciDevices = try cli.run(["devices", "--server", "http://127.0.0.1:\(service.port)", "--api-key", ciKey, "--json"])
        #expect(ciDevices.status == 0 && ciDevices.stdout.isEmpty)  // the new tenant sees none of default's devices

        // Through the admin routes instead of the file.
        let viaAdmin = try cli.run(
            ["keys", "create", "--tenant", "ci", "--server", "http://127.0.0.1:\(service.port)"],
            extraEnvironment: ["BGEMU_ADMIN_TOKEN": LiveService.adminToken])
        #expect(viaAdmin.status == 0, "\(viaAdmin.stderr)")
        let adminKey = viaAdmin.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try cli.run(["devices", "--server", "http://127.0.0.1:\(service.port)", "--api-key", adminKey]).status == 0)
        let wrongToken = try cli.run(["keys", "create", "--tenant", "ci", "--admin-token", "wrong", "--server", "http://127.0.0.1:\(service.port)"])
        #expect(wrongToken.status == 1 && wrongToken.stderr.contains("401 Unauthorized"), "\(wrongToken.stderr)")
        #expect(wrongToken.stderr.contains("hint: the service refuses this admin token"))
        // A database file named in the environment wins over a token from the environment (a service container
        // sets both): the file is used, so the wrong token does not matter.
        let both = try cli.run(
            ["keys", "create", "--tenant", "ci", "--server", "http://127.0.0.1:\(service.port)"],
            extraEnvironment: ["BGEMU_ADMIN_TOKEN": "wrong", "BGEMU_DATABASE": service.databasePath])
        #expect(both.status == 0, "\(both.stderr)")
        service.stop()

        // No file there: a clear error, and no file is made.
        let missing = service.directory.appendingPathComponent("none.sqlite").path
        let absent = try cli.run(["keys", "create", "--tenant", "default", "--database", missing])
        #expect(absent.status == 1 && absent.stderr.contains("no database at \(missing)"))
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}
