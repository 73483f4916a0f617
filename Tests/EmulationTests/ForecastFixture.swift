@testable import Emulation

/// Forecast requests for the forecast tests: a weather app that submits an app refresh and sets a fetch interval
/// at each open, and populations pushed to the extremes.
enum ForecastFixture {
    static let refreshId = "com.example.weather.refresh"

    static let app = ForecastApp(
        bundleId: "com.example.weather",
        infoPlist: ForecastInfoPlist(UIBackgroundModes: ["fetch", "remote-notification"], BGTaskSchedulerPermittedIdentifiers: [refreshId]),
        atLaunch: ForecastLaunchActions(
            submit: [ForecastSubmission(kind: .appRefresh, identifier: refreshId, earliestBeginSeconds: 900)],
            fetchInterval: .minimum))

    static func request(
        seed: UInt64 = 7, devices: Int = 40, days: Int = 3, population: ForecastPopulation = .defaults,
        pushes: [ForecastPushSchedule] = []
    ) -> ForecastRequest {
        ForecastRequest(seed: seed, devices: devices, days: days, app: app, population: population, pushes: pushes)
    }

    /// Everyone on the charger all day, on Wi-Fi, opening the app every two hours, every switch on.
    static var ideal: ForecastPopulation {
        var p = ForecastPopulation.defaults
        p.lowPowerModeShare = 0
        p.lowPowerModeWhenLowShare = 0
        p.backgroundAppRefreshOffShare = 0
        p.appBackgroundAppRefreshOffShare = 0
        p.forceQuitShare = 0
        p.usage = [ForecastUsagePattern(
            name: "frequent", share: 1, hours: [8, 10, 12, 14, 16, 18, 20, 22], opensPerDay: 8, spreadMinutes: 15,
            sessionMinutes: 3)]
        p.charging = [ForecastChargingHabit(name: "always", share: 1, startHour: 0, durationHours: 24, daysShare: 1, spreadMinutes: 0)]
        let wifi = ForecastNetworkShares(wifi: 1, cellular: 0, none: 0)
        p.network = ForecastNetworkMix(homeFromHour: 0, homeToHour: 0, home: wifi, away: wifi)
        return p
    }
}
