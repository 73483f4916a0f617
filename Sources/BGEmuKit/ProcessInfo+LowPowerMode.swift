import Foundation

/// Low Power Mode as iOS's Foundation reports it (iOS 9), tied to the device's `lowPowerMode` condition.
/// Foundation on Linux declares neither member (swift-corelibs-foundation 6.3), so app code written
/// `ProcessInfo.processInfo.isLowPowerModeEnabled` compiles unchanged where `UIKit` (or `BGEmuKit`) is imported.
/// Should a later Foundation declare them, the names would be ambiguous in app code: Swift prefers neither of two
/// members of one type from different modules.
extension ProcessInfo {
    /// Whether the device of the app whose code is calling is in Low Power Mode (R18: its background app refresh
    /// is off). In a process that has launched no app yet it answers false, as a device without the mode does; code
    /// outside the harness's tasks while several devices are driven stops the process with a message saying how to
    /// bind an app, as `UIApplication.shared` does.
    public var isLowPowerModeEnabled: Bool {
        let app: EmulatedApp
        if let scoped = AppContext.scoped {
            app = scoped
        } else {
            switch ProcessBinding.shared.resolve() {
            case .app(let bound): app = bound
            case .unbound: return false
            case .ambiguous(let why): fatalError(AppContext.ambiguousMessage("ProcessInfo.processInfo.isLowPowerModeEnabled", why))
            }
        }
        return app.attempt { try app.service.conditions() }?.lowPowerMode ?? false
    }
}

extension Notification.Name {
    /// Posted on `NotificationCenter.default` when Low Power Mode is turned on or off, with the process's
    /// `ProcessInfo` as the object (iOS 9). Read ``Foundation/ProcessInfo/isLowPowerModeEnabled`` for the new state.
    public static let NSProcessInfoPowerStateDidChange = Notification.Name("NSProcessInfoPowerStateDidChangeNotification")
}
