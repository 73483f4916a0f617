/// The `UIApplicationDelegate` callbacks the emulation reports (R1–R4, R30), by short name.
public enum DelegateCallback: String, Sendable {
    case didFinishLaunching, didBecomeActive, willResignActive, didEnterBackground, willEnterForeground, willTerminate
    /// A push reaching the app in the foreground (R30); in the background a `remoteNotification` run stands for it.
    case didReceiveRemoteNotification

    /// The Swift selector, as a developer would search for it.
    public var method: String {
        switch self {
        case .didFinishLaunching: "application(_:didFinishLaunchingWithOptions:)"
        case .didBecomeActive: "applicationDidBecomeActive(_:)"
        case .willResignActive: "applicationWillResignActive(_:)"
        case .didEnterBackground: "applicationDidEnterBackground(_:)"
        case .willEnterForeground: "applicationWillEnterForeground(_:)"
        case .willTerminate: "applicationWillTerminate(_:)"
        case .didReceiveRemoteNotification: "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)"
        }
    }
}
