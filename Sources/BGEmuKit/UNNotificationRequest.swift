import Foundation

/// When a local notification fires (Apple's `UNNotificationTrigger`, iOS 10): use a subclass.
open class UNNotificationTrigger: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable.
    /// Whether it fires again.
    public let repeats: Bool

    init(repeats: Bool) {
        self.repeats = repeats
        super.init()
    }
}

/// Fires `timeInterval` seconds after it is added, on the device's virtual clock (Apple's
/// `UNTimeIntervalNotificationTrigger`, iOS 10).
open class UNTimeIntervalNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    /// Seconds from the add; at least 60 when it repeats, as iOS requires.
    public let timeInterval: TimeInterval

    /// A trigger `timeInterval` seconds from the add.
    public init(timeInterval: TimeInterval, repeats: Bool) {
        self.timeInterval = timeInterval
        super.init(repeats: repeats)
    }
}

/// Fires at the next date matching `dateComponents` (Apple's `UNCalendarNotificationTrigger`, iOS 10), on the
/// device's virtual clock in the process's calendar. bgemu schedules the next match only: a repeating calendar
/// trigger fires once.
open class UNCalendarNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    /// The components a firing date matches (`hour: 8, minute: 30`).
    public let dateComponents: DateComponents

    /// A trigger at the next date matching `dateMatching`.
    public init(dateMatching dateComponents: DateComponents, repeats: Bool) {
        self.dateComponents = dateComponents
        super.init(repeats: repeats)
    }

    /// The next date after `date` that matches, in `Calendar.current`.
    func nextDate(after date: Date) -> Date? {
        Calendar.current.nextDate(after: date, matching: dateComponents, matchingPolicy: .nextTime)
    }
}

/// A local notification to schedule: its identifier (one with the same replaces it), content and trigger (Apple's
/// `UNNotificationRequest`, iOS 10).
open class UNNotificationRequest: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable.
    /// The identifier, to replace or remove it.
    public let identifier: String
    /// What it shows.
    public let content: UNNotificationContent
    /// When it fires; nil for now.
    public let trigger: UNNotificationTrigger?

    /// A request of these parts.
    public init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {
        self.identifier = identifier
        self.content = content
        self.trigger = trigger
        super.init()
    }
}

/// A delivered notification (Apple's `UNNotification`, iOS 10).
open class UNNotification: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable.
    /// When it was delivered, in the device's virtual time.
    public let date: Date
    /// The request it was delivered for.
    public let request: UNNotificationRequest

    init(date: Date, request: UNNotificationRequest) {
        self.date = date
        self.request = request
        super.init()
    }
}

/// The user's answer to a notification (Apple's `UNNotificationResponse`, iOS 10); bgemu emulates no user tap,
/// so the harness makes none.
open class UNNotificationResponse: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable.
    /// The notification answered.
    public let notification: UNNotification
    /// The action chosen: ``UNNotificationDefaultActionIdentifier`` for a tap.
    public let actionIdentifier: String

    init(notification: UNNotification, actionIdentifier: String) {
        self.notification = notification
        self.actionIdentifier = actionIdentifier
        super.init()
    }
}

/// The action of a tap on the notification (iOS 10).
public let UNNotificationDefaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"
/// The action of dismissing it (iOS 10).
public let UNNotificationDismissActionIdentifier = "com.apple.UNNotificationDismissActionIdentifier"

/// The app's notification settings (Apple's `UNNotificationSettings`, iOS 10).
open class UNNotificationSettings: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable.
    /// Whether the user allowed the app's notifications.
    public let authorizationStatus: UNAuthorizationStatus
    /// Whether alerts show.
    public let alertSetting: UNNotificationSetting
    /// Whether the badge updates.
    public let badgeSetting: UNNotificationSetting
    /// Whether sounds play.
    public let soundSetting: UNNotificationSetting

    init(authorizationStatus: UNAuthorizationStatus, options: UNAuthorizationOptions) {
        self.authorizationStatus = authorizationStatus
        let granted = authorizationStatus == .authorized || authorizationStatus == .provisional
        func setting(_ option: UNAuthorizationOptions) -> UNNotificationSetting {
            granted && options.contains(option) ? .enabled : (authorizationStatus == .notDetermined ? .notSupported : .disabled)
        }
        alertSetting = setting(.alert)
        badgeSetting = setting(.badge)
        soundSetting = setting(.sound)
        super.init()
    }
}
