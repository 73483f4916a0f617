// `import UIKit` where Apple's UIKit is absent (Linux): BGEmuKit's UIApplication, its delegate, background tasks and
// scenes, so that an app's files compile with their imports unchanged.
@_exported import BGEmuKit
// As Apple's framework does, so that `Date`, `DispatchQueue`, `NotificationCenter` need no import of their own.
@_exported import Foundation
