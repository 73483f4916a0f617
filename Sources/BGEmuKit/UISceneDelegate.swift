/// Apple's `UISceneDelegate`: the scene's lifecycle callbacks. For an app with a scene delegate, UIKit calls these
/// instead of the app delegate's `applicationDidBecomeActive`, `applicationWillResignActive`,
/// `applicationDidEnterBackground` and `applicationWillEnterForeground`; so does BGEmuKit. Every method is optional:
/// the protocol extension gives each an empty default.
@MainActor public protocol UISceneDelegate: AnyObject {
    /// The scene was connected to the app (at the user's launch), before it enters the foreground.
    func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions)
    /// The scene was released by the system.
    func sceneDidDisconnect(_ scene: UIScene)
    /// The scene became active (R1).
    func sceneDidBecomeActive(_ scene: UIScene)
    /// The scene is about to leave the foreground (R1).
    func sceneWillResignActive(_ scene: UIScene)
    /// The scene is about to return to the foreground (R1).
    func sceneWillEnterForeground(_ scene: UIScene)
    /// The scene entered the background: where a scene-based app schedules its refresh and saves its state (R2, R8).
    func sceneDidEnterBackground(_ scene: UIScene)
}

/// Apple's `UIWindowSceneDelegate`: a scene delegate that keeps the scene's window.
public protocol UIWindowSceneDelegate: UISceneDelegate {
    /// The scene's main window.
    var window: UIWindow? { get set }
}

/// Every callback is optional: these do nothing.
extension UISceneDelegate {
    /// Does nothing.
    public func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {}
    /// Does nothing.
    public func sceneDidDisconnect(_ scene: UIScene) {}
    /// Does nothing.
    public func sceneDidBecomeActive(_ scene: UIScene) {}
    /// Does nothing.
    public func sceneWillResignActive(_ scene: UIScene) {}
    /// Does nothing.
    public func sceneWillEnterForeground(_ scene: UIScene) {}
    /// Does nothing.
    public func sceneDidEnterBackground(_ scene: UIScene) {}
}
