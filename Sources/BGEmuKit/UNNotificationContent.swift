import Foundation

/// What a notification shows (Apple's `UNNotificationContent`, iOS 10): build a ``UNMutableNotificationContent``.
open class UNNotificationContent: NSObject, @unchecked Sendable {
    // @unchecked Sendable: as Apple's, an immutable value once handed to the center; the mutable subclass is the
    // app's to keep on one thread while it fills it.
    /// The title.
    public internal(set) var title = ""
    /// The line under the title.
    public internal(set) var subtitle = ""
    /// The message.
    public internal(set) var body = ""
    /// The app's own data.
    public internal(set) var userInfo: [AnyHashable: Any] = [:]
    /// The badge to show; nil leaves it.
    public internal(set) var badge: NSNumber?
    /// The sound to play; nil for none.
    public internal(set) var sound: UNNotificationSound?
    /// The category of the notification's actions.
    public internal(set) var categoryIdentifier = ""
    /// The thread notifications are grouped by.
    public internal(set) var threadIdentifier = ""

    /// Empty content.
    public override init() { super.init() }
}

/// Content to fill before adding a request (Apple's `UNMutableNotificationContent`, iOS 10).
open class UNMutableNotificationContent: UNNotificationContent, @unchecked Sendable {
    /// The title.
    open override var title: String { get { super.title } set { super.title = newValue } }
    /// The line under the title.
    open override var subtitle: String { get { super.subtitle } set { super.subtitle = newValue } }
    /// The message.
    open override var body: String { get { super.body } set { super.body = newValue } }
    /// The app's own data.
    open override var userInfo: [AnyHashable: Any] { get { super.userInfo } set { super.userInfo = newValue } }
    /// The badge to show; nil leaves it.
    open override var badge: NSNumber? { get { super.badge } set { super.badge = newValue } }
    /// The sound to play; nil for none.
    open override var sound: UNNotificationSound? { get { super.sound } set { super.sound = newValue } }
    /// The category of the notification's actions.
    open override var categoryIdentifier: String { get { super.categoryIdentifier } set { super.categoryIdentifier = newValue } }
    /// The thread notifications are grouped by.
    open override var threadIdentifier: String { get { super.threadIdentifier } set { super.threadIdentifier = newValue } }
}

/// A notification's sound (Apple's `UNNotificationSound`, iOS 10); bgemu plays none.
open class UNNotificationSound: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable.
    /// The system's default sound.
    public static let `default` = UNNotificationSound()
}
