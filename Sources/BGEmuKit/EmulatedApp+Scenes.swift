/// A scene-based app's lifecycle: with a scene delegate, UIKit makes the foreground and background callbacks on the
/// scene's delegate and not on the app delegate.
extension EmulatedApp {
    /// Makes the scene's callback for the app delegate's `callback` (`didEnterBackground`, …); false when the app has
    /// no scene delegate or the callback is not a scene's, for the app delegate to get it.
    func sceneCallback(_ callback: String) -> Bool {
        guard let sceneDelegate, ["didBecomeActive", "willResignActive", "didEnterBackground", "willEnterForeground"].contains(callback) else {
            return false
        }
        MainQueue.run { sceneCallback(callback, sceneDelegate) }
        return true
    }

    @MainActor private func sceneCallback(_ callback: String, _ sceneDelegate: any UISceneDelegate) {
        let scene = connectedScene(sceneDelegate)
        switch callback {
        case "didBecomeActive":
            scene.activationState = .foregroundActive
            sceneDelegate.sceneDidBecomeActive(scene)
        case "willResignActive":
            scene.activationState = .foregroundInactive
            sceneDelegate.sceneWillResignActive(scene)
        case "didEnterBackground":
            scene.activationState = .background
            sceneDelegate.sceneDidEnterBackground(scene)
        default:
            scene.activationState = .foregroundInactive
            sceneDelegate.sceneWillEnterForeground(scene)
        }
    }

    /// The app's window scene; connected now (`scene(_:willConnectTo:options:)`, then `sceneWillEnterForeground`)
    /// when the app has none yet, as at the user's launch.
    @MainActor private func connectedScene(_ sceneDelegate: any UISceneDelegate) -> UIWindowScene {
        if let connected = lock.withLock({ self.scene }) { return connected }
        let scene = UIWindowScene(session: UISceneSession(role: .windowApplication, persistentIdentifier: "\(bundleId).scene"))
        scene.delegate = sceneDelegate
        lock.withLock { self.scene = scene }
        sceneDelegate.scene(scene, willConnectTo: scene.session, options: UIScene.ConnectionOptions())
        scene.activationState = .foregroundInactive
        sceneDelegate.sceneWillEnterForeground(scene)
        return scene
    }
}

extension UIApplication {
    /// The app's connected scenes (Apple's `@MainActor var connectedScenes: Set<UIScene>`, iOS 13): its window
    /// scene once the user launched a scene-based app, else none.
    @MainActor public var connectedScenes: Set<UIScene> {
        let app = AppContext.app(for: "UIApplication.shared.connectedScenes")
        return app.lock.withLock { app.scene.map { [$0] } ?? [] }
    }
}
