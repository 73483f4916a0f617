// `import BackgroundTasks` where Apple's framework is absent (Linux): BGEmuKit's BGTaskScheduler, its requests and
// tasks, so that an app's files compile with their imports unchanged.
@_exported import BGEmuKit
// As Apple's framework does, so that `Date`, `DispatchQueue`, `NotificationCenter` need no import of their own.
@_exported import Foundation
