/// The constants of iOS background execution (docs/rules.md, "Profiles"), chosen by `osVersion`. Every tunable
/// value can be overridden per device (`Device.policyOverrides`), so a CI run can shrink 30 s to 3 s.
public struct Profile: Sendable, Equatable {
    /// `ios4`, `ios7` or `ios13`.
    public var name: String
    /// Background time after entering the background (R9, R10).
    public var backgroundTaskAllowance: VirtualDuration
    /// How long before the allowance ends the expiration handlers are called (R11).
    public var expirationWarning: VirtualDuration
    /// Time given to `applicationDidEnterBackground` / `applicationWillTerminate` (R2, R4).
    public var lifecycleCallbackAllowance: VirtualDuration
    /// An app refresh, fetch or silent push run; nil where the era has none (iOS 4–6).
    public var appRefreshRun: VirtualDuration?
    /// A BGProcessingTask run; nil before iOS 13.
    public var processingRun: VirtualDuration?
    /// After a run's deadline, how long the app has to complete before it is terminated (R22).
    public var runExpirationGrace: VirtualDuration
    /// An accessory or Bluetooth wake-up (R38), after which the app is suspended again.
    public var accessoryWakeRun: VirtualDuration
    /// Pending local notifications (R40).
    public var pendingNotificationLimit: Int
    /// Whether BGTaskScheduler exists (iOS 13+).
    public var bgTaskSchedulerAvailable: Bool
    /// The cadence of system opportunities for discretionary launches (R26).
    public var opportunityInterval: VirtualDuration
    /// Each opportunity comes up to this much later than the cadence says, drawn from the device's generator.
    public var opportunityJitter: VirtualDuration
    /// At or below this battery percentage, not charging, no discretionary launches (R25).
    public var criticalBatteryLevel: Int
    /// Discretionary launches an app gets per virtual day before usage and behaviour adjust it (R27).
    public var dailyLaunchBudget: Int
    /// At most this many extra launches a day for an app the user opens often (R27).
    public var usageBudgetBonus: Int
    /// How long before the predicted use a predicted launch comes (R26).
    public var predictionLead: VirtualDuration
    /// Launches on this many different days near the same time of day make a prediction (R26).
    public var predictionMinimumDays: Int
    /// The least time between two discretionary launches of one app: rate limiting (R25).
    public var minimumLaunchSpacing: VirtualDuration
    /// Background pushes an app gets per hour before the rest are deferred (R30). Apple: "don't try to send more
    /// than two or three per hour" ("Pushing background updates to your App").
    public var backgroundPushesPerHour: Int = 3
    /// How fast background transfers move on Wi-Fi, in bytes per second (R32).
    public var wifiBandwidth: Int = 5_000_000
    /// How fast background transfers move on cellular, in bytes per second (R32).
    public var cellularBandwidth: Int = 1_000_000
    /// A significant-change location wake-up (R36).
    public var locationWakeRun: VirtualDuration = .seconds(10)
    /// A VoIP keep-alive handler run (R37).
    public var voipRun: VirtualDuration = .seconds(10)
    /// The least distance between two significant-change fixes, in metres (R36).
    public var significantChangeDistance: Int = 500
    /// The least time between two significant-change fixes (R36).
    public var significantChangeInterval: VirtualDuration = .seconds(300)

    public static let ios13 = Profile(
        name: "ios13", backgroundTaskAllowance: .seconds(30), expirationWarning: .seconds(5),
        lifecycleCallbackAllowance: .seconds(5), appRefreshRun: .seconds(30), processingRun: .seconds(300),
        runExpirationGrace: .seconds(5), accessoryWakeRun: .seconds(10), pendingNotificationLimit: 64,
        bgTaskSchedulerAvailable: true, opportunityInterval: .seconds(900), opportunityJitter: .seconds(60),
        criticalBatteryLevel: 20, dailyLaunchBudget: 12, usageBudgetBonus: 12, predictionLead: .seconds(600),
        predictionMinimumDays: 3, minimumLaunchSpacing: .seconds(600))

    public static let ios7: Profile = {
        var p = ios13
        p.name = "ios7"
        p.backgroundTaskAllowance = .seconds(180)
        p.processingRun = nil
        p.bgTaskSchedulerAvailable = false
        return p
    }()

    public static let ios4: Profile = {
        var p = ios7
        p.name = "ios4"
        p.backgroundTaskAllowance = .seconds(600)
        p.appRefreshRun = nil
        p.pendingNotificationLimit = 128
        return p
    }()

    /// The profile of an iOS version: 4–6, 7–12, 13 and later.
    public static func `for`(_ version: OSVersion) -> Profile {
        switch version.major {
        case ..<7: .ios4
        case ..<13: .ios7
        default: .ios13
        }
    }
}
