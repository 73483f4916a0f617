import ArgumentParser
import BGEmuClient
import Foundation

/// `bgemu forecast`: a fleet forecast run on the service (the default, ``ForecastRunCommand``) or merged from parts.
struct ForecastCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forecast",
        abstract: "Forecast how a fleet of synthetic devices runs an app's background work.",
        discussion: "`bgemu forecast FILE` runs a forecast (bgemu forecast run --help); `bgemu forecast merge` merges its parts.",
        subcommands: [ForecastRunCommand.self, ForecastMergeCommand.self],
        defaultSubcommand: ForecastRunCommand.self)
}

/// `bgemu forecast [run] FILE.json`: runs a fleet forecast on the service (`POST /v1/forecasts`), shows its progress
/// and prints the summary; with `--shard i/K`, computes a part of it here.
struct ForecastRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Forecast how a fleet of synthetic devices runs an app's background work.",
        discussion: """
            FILE is the forecast request as JSON (the body of POST /v1/forecasts: seed, devices, days, osVersion, \
            app, population, pushes), or - for standard input. The command waits for the forecast, with a \
            progress bar on a terminal, and prints per run kind the share of devices that ran within 1h, 4h and \
            24h of the install, the first-run delays, the runs per device per day and why the others never ran. \
            Ctrl-C cancels the forecast on the service (DELETE /v1/forecasts/{forecastId}). --info-plist puts the \
            app's real Info.plist (XML or binary) in the request as app.infoPlist, with --setting values for the \
            build settings its strings refer to. --shard i/K computes part i of K here, without a service, and \
            `bgemu forecast merge` puts the parts together: byte for byte the forecast of the whole fleet.
            """)

    @OptionGroup var client: ClientOptions

    @Argument(help: "The forecast request (JSON), or - for standard input.")
    var file: String

    @Flag(help: "Print the finished forecast as JSON instead of the summary.")
    var json = false

    @Option(help: "Also write the per-device rows (CSV) to this file.")
    var csv: String?

    @Option(help: "The app's Info.plist file (XML or binary), sent as app.infoPlist.")
    var infoPlist: String?

    @Option(help: "The app's bundle id, sent as app.bundleId (also what $(PRODUCT_BUNDLE_IDENTIFIER) in --info-plist becomes).")
    var bundleId: String?

    @Option(
        name: .customLong("setting"),
        help: "A build setting the Info.plist refers to, NAME=VALUE (repeatable; app.buildSettings).")
    var settings: [String] = []

    @Option(help: "Seconds between two looks at the forecast's progress.")
    var poll: Double = 0.25

    @Option(help: ArgumentHelp(
        "Compute part i of K here, without a service: devices i, i+K, i+2K, … (merge the parts with `bgemu forecast merge`).",
        valueName: "i/K"))
    var shard: String?

    @Option(help: "With --shard: write the part to this file (else standard output).")
    var out: String?

    func validate() throws {
        guard poll > 0, poll <= 60 else { throw ValidationError("--poll must be more than 0 and at most 60 seconds.") }
        for setting in settings { _ = try SettingOption(setting) }
        if !settings.isEmpty, infoPlist == nil { throw ValidationError("--setting goes with --info-plist.") }
        if let shard { _ = try ForecastShardOption(shard) }
        if out != nil, shard == nil { throw ValidationError("--out goes with --shard.") }
    }

    func run() throws {
        try CommandFailure.reporting(hints: Self.hints) {
            var body = try LocalFile.read(file, what: "the forecast request")
            if infoPlist != nil || bundleId != nil {
                body = try Self.withApp(body, infoPlist: infoPlist, bundleId: bundleId, settings: settings)
            }
            if let shard { return try LocalForecast.runShard(body, try ForecastShardOption(shard), out: out) }
            let service = try client.client()
            // Caught from before the request: a forecast started must not be left running by an interrupted command.
            let interrupt = InterruptFlag.install()
            defer { interrupt.restore() }
            let created = try service.createForecast(body)
            guard let id = created["forecastId"]?.stringValue else {
                throw CommandFailure.local("the service answered a forecast without a forecastId")
            }
            let progress = ForecastProgressBar(interactive: isatty(STDERR_FILENO) == 1)
            var forecast = created
            while forecast["state"]?.stringValue == "running" {
                if let signal = interrupt.signal {
                    progress.finish()
                    do throws(ClientFailure) {
                        try service.cancelForecast(id)
                    } catch {
                        Terminal.error("forecast \(id) was not cancelled: \(CommandFailure.service(error).message)")
                        throw ExitCode(1)
                    }
                    Terminal.error("forecast \(id) cancelled")
                    throw ExitCode(128 + signal)
                }
                progress.show(forecast["progress"]?.numberValue ?? 0)
                Thread.sleep(forTimeInterval: poll)
                forecast = try service.forecast(id)
            }
            interrupt.restore()
            progress.show(forecast["progress"]?.numberValue ?? 1)
            progress.finish()
            guard forecast["state"]?.stringValue == "done" else {
                let problem = forecast["error"]
                throw CommandFailure.local(
                    "forecast \(id) failed: \(problem?["detail"]?.stringValue ?? problem?["title"]?.stringValue ?? "no reason given")")
            }
            if let csv {
                let rows = try service.forecastDevicesCSV(id)
                guard FileManager.default.createFile(atPath: csv, contents: Data(rows)) else {
                    throw CommandFailure.local("cannot write \(csv)")
                }
            }
            if json { return Terminal.line(forecast.text) }
            for line in ForecastSummary.lines(forecast) { Terminal.line(line) }
            if let csv { Terminal.line("per-device rows: \(csv)") }
        }
    }

    static let hints = [
        "forecastRunning": "one forecast runs at a time per tenant: wait for it, or cancel it with "
            + "DELETE /v1/forecasts/{forecastId} (GET /v1/forecasts lists them)",
    ]

    /// `body` with `app.infoPlist` the file in Base64 (the service reads an XML or a binary property list in it),
    /// `app.buildSettings` the settings given, and `app.bundleId` the bundle id given.
    static func withApp(_ body: [UInt8], infoPlist file: String?, bundleId: String?, settings: [String]) throws -> [UInt8] {
        guard var request = (try? JSONValue.parse(body))?.objectValue else {
            throw CommandFailure.local("the forecast request is not a JSON object")
        }
        // The request is written again with the file in it, its numbers exactly as they were (a 64-bit seed too).
        var app = request["app"]?.objectValue ?? [:]
        if let file {
            let plist = Data(try LocalFile.read(file, what: "the Info.plist", standardInput: false))
            app["infoPlist"] = .string(plist.base64EncodedString())  // XML or binary alike: the service reads either
        }
        // With an Info.plist whose CFBundleIdentifier is $(PRODUCT_BUNDLE_IDENTIFIER), the service gives it this.
        if let bundleId { app["bundleId"] = .string(bundleId) }
        if !settings.isEmpty {
            var values = app["buildSettings"]?.objectValue ?? [:]
            for setting in try settings.map(SettingOption.init) { values[setting.name] = .string(setting.value) }
            app["buildSettings"] = .object(values)
        }
        request["app"] = .object(app)
        return JSONValue.object(request).bytes
    }
}
