/// The era-dependent constants of iOS background execution (rules.md, "Profiles"), chosen by `osVersion`.
public struct Profile: Sendable, Codable, Equatable {
    /// `ios4`, `ios7` or `ios13`.
    public var name: String
    /// Background time after entering the background (R10).
    public var backgroundTaskAllowance: VirtualDuration
    /// How long before the allowance ends the expiration handler is called (R11).
    public var expirationWarning: VirtualDuration
    /// Time given to `applicationDidEnterBackground` / `applicationWillTerminate` (R2, R4).
    public var lifecycleCallbackAllowance: VirtualDuration
    /// An app refresh, fetch or silent push run; nil where the era has none.
    public var appRefreshRun: VirtualDuration?
    /// A BGProcessingTask run; nil before iOS 13.
    public var processingRun: VirtualDuration?
    /// An accessory or Bluetooth wake-up (R38).
    public var accessoryWakeRun: VirtualDuration
    /// Pending local notifications (R40).
    public var pendingNotificationLimit: Int
    /// Whether BGTaskScheduler exists (iOS 13+).
    public var bgTaskSchedulerAvailable: Bool

    public static let ios4 = Profile(
        name: "ios4", backgroundTaskAllowance: .seconds(600), expirationWarning: .seconds(5),
        lifecycleCallbackAllowance: .seconds(5), appRefreshRun: nil, processingRun: nil,
        accessoryWakeRun: .seconds(10), pendingNotificationLimit: 128, bgTaskSchedulerAvailable: false)

    public static let ios7 = Profile(
        name: "ios7", backgroundTaskAllowance: .seconds(180), expirationWarning: .seconds(5),
        lifecycleCallbackAllowance: .seconds(5), appRefreshRun: .seconds(30), processingRun: nil,
        accessoryWakeRun: .seconds(10), pendingNotificationLimit: 64, bgTaskSchedulerAvailable: false)

    public static let ios13 = Profile(
        name: "ios13", backgroundTaskAllowance: .seconds(30), expirationWarning: .seconds(5),
        lifecycleCallbackAllowance: .seconds(5), appRefreshRun: .seconds(30), processingRun: .seconds(300),
        accessoryWakeRun: .seconds(10), pendingNotificationLimit: 64, bgTaskSchedulerAvailable: true)

    /// The profile of an iOS version: 4–6, 7–12, 13 and later.
    public static func `for`(_ version: OSVersion) -> Profile {
        switch version.major {
        case ..<7: .ios4
        case ..<13: .ios7
        default: .ios13
        }
    }
}
