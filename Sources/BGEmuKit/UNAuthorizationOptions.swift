/// What a notification may do, asked of the user with `requestAuthorization(options:)` (Apple's
/// `UNAuthorizationOptions`, iOS 10), with Apple's raw values.
public struct UNAuthorizationOptions: OptionSet, Sendable {
    public let rawValue: UInt
    /// Options of these bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Update the app's badge.
    public static let badge = UNAuthorizationOptions(rawValue: 1 << 0)
    /// Play sounds.
    public static let sound = UNAuthorizationOptions(rawValue: 1 << 1)
    /// Show alerts.
    public static let alert = UNAuthorizationOptions(rawValue: 1 << 2)
    /// Show notifications in CarPlay.
    public static let carPlay = UNAuthorizationOptions(rawValue: 1 << 3)
    /// Play sounds for critical alerts (iOS 12).
    public static let criticalAlert = UNAuthorizationOptions(rawValue: 1 << 4)
    /// The app has a notification settings screen (iOS 12).
    public static let providesAppNotificationSettings = UNAuthorizationOptions(rawValue: 1 << 5)
    /// Deliver quietly without asking first (iOS 12).
    public static let provisional = UNAuthorizationOptions(rawValue: 1 << 6)
}

/// How a notification delivered while the app is in the foreground is shown, as the delegate's
/// `userNotificationCenter(_:willPresent:withCompletionHandler:)` answers (Apple's
/// `UNNotificationPresentationOptions`, iOS 10), with Apple's raw values.
public struct UNNotificationPresentationOptions: OptionSet, Sendable {
    public let rawValue: UInt
    /// Options of these bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Update the badge.
    public static let badge = UNNotificationPresentationOptions(rawValue: 1 << 0)
    /// Play the sound.
    public static let sound = UNNotificationPresentationOptions(rawValue: 1 << 1)
    /// Show an alert (deprecated in iOS 14 for `.list` and `.banner`).
    public static let alert = UNNotificationPresentationOptions(rawValue: 1 << 2)
    /// Show it in Notification Center (iOS 14).
    public static let list = UNNotificationPresentationOptions(rawValue: 1 << 3)
    /// Show it as a banner (iOS 14).
    public static let banner = UNNotificationPresentationOptions(rawValue: 1 << 4)
}

/// Whether the user allowed the app's notifications (Apple's `UNAuthorizationStatus`, iOS 10).
public enum UNAuthorizationStatus: Int, Sendable {
    /// Not asked yet.
    case notDetermined = 0
    /// Refused.
    case denied = 1
    /// Allowed.
    case authorized = 2
    /// Allowed quietly, without asking (iOS 12).
    case provisional = 3
    /// Allowed for a while, for an App Clip (iOS 14).
    case ephemeral = 4
}

/// Whether one kind of presentation is on (Apple's `UNNotificationSetting`, iOS 10).
public enum UNNotificationSetting: Int, Sendable {
    /// The app cannot use it.
    case notSupported = 0
    /// Off.
    case disabled = 1
    /// On.
    case enabled = 2
}
