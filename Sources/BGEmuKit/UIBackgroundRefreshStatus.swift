/// Whether the app may be launched into the background to refresh its content (Apple's
/// `UIBackgroundRefreshStatus`, iOS 7), as ``UIApplication/backgroundRefreshStatus`` answers it.
public enum UIBackgroundRefreshStatus: Int, Sendable {
    /// Background App Refresh is off and the user cannot turn it on (parental controls); bgemu has no such switch.
    case restricted = 0
    /// The user turned Background App Refresh off, for the device or the app, or Low Power Mode is on (R18).
    case denied = 1
    /// Background App Refresh is on.
    case available = 2
}
