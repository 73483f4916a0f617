// `import UserNotifications` where Apple's framework is absent (Linux): resolves to BGEmuKit, so that an app's files
// compile with their imports unchanged: `UNUserNotificationCenter` and its types are BGEmuKit's (pushes reach the app
// delegate).
@_exported import BGEmuKit
// As Apple's framework does, so that `Date`, `DispatchQueue`, `NotificationCenter` need no import of their own.
@_exported import Foundation
