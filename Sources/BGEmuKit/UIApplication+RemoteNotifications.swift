import Foundation

/// Registration for remote notifications (APNs). bgemu's pushes need no token (``EmulatedDevice/push(_:to:isolation:)``
/// addresses the app by its bundle id), so registration always succeeds: the delegate gets a device token made
/// from the device's and the app's ids, the same run after run, as it would get APNs's.
extension UIApplication {
    /// Registers the app with APNs (iOS 8): the delegate's
    /// `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)` is called on the main queue after the
    /// current work, as UIKit calls it asynchronously, within the harness's turn.
    public func registerForRemoteNotifications() {
        let app = AppContext.app(for: "UIApplication.shared.registerForRemoteNotifications()")
        app.lock.withLock { app.remoteNotificationsRegistered = true }
        let token = Self.deviceToken(deviceId: app.device.id, bundleId: app.bundleId)
        DispatchQueue.main.async {
            AppContext.$scoped.withValue(app) {
                MainQueue.run { app.delegate?.application(UIApplication.shared, didRegisterForRemoteNotificationsWithDeviceToken: token) }
            }
        }
    }

    /// Unregisters the app from APNs (iOS 3): ``isRegisteredForRemoteNotifications`` becomes false. bgemu still
    /// delivers pushes sent to the app (it checks no registration).
    public func unregisterForRemoteNotifications() {
        let app = AppContext.app(for: "UIApplication.shared.unregisterForRemoteNotifications()")
        app.lock.withLock { app.remoteNotificationsRegistered = false }
    }

    /// Whether the app has registered for remote notifications (iOS 8); kept across the app's launches.
    public var isRegisteredForRemoteNotifications: Bool {
        let app = AppContext.app(for: "UIApplication.shared.isRegisteredForRemoteNotifications")
        return app.lock.withLock { app.remoteNotificationsRegistered }
    }

    /// A 32-byte token (APNs's length) derived from `deviceId` and `bundleId` by FNV-1a, so that it is the same in
    /// every run of a test.
    static func deviceToken(deviceId: String, bundleId: String) -> Data {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var bytes: [UInt8] = []
        for round in 0..<4 {
            for byte in Array("\(round)|\(deviceId)|\(bundleId)".utf8) {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
            withUnsafeBytes(of: hash.bigEndian) { bytes += $0 }
        }
        return Data(bytes)
    }
}
