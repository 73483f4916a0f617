import Foundation

/// Apple's `UIResponder`, the base class an app's `AppDelegate` and `SceneDelegate` inherit from
/// (`class AppDelegate: UIResponder, UIApplicationDelegate`). It responds to no events here: BGEmuKit emulates no UI.
@MainActor open class UIResponder: NSObject {
    /// A responder. Not `required`, as UIKit's is not: an `AppDelegate` may declare `override init()` (found by
    /// running NetNewsWire's background code, issue 27).
    public override init() { super.init() }
}

/// Apple's `UIView`, only as the base of ``UIWindow``.
open class UIView: UIResponder {}

/// Apple's `UIWindow`, which a `UIWindowSceneDelegate` keeps (`var window: UIWindow?`); it shows nothing here.
open class UIWindow: UIView {
    /// The scene the window belongs to.
    open weak var windowScene: UIWindowScene?

    /// A window without a scene.
    public override init() { super.init() }

    /// A window of `windowScene`, as a scene delegate makes it in `scene(_:willConnectTo:options:)`.
    public init(windowScene: UIWindowScene) {
        self.windowScene = windowScene
        super.init()
    }

    /// Apple's call to show the window: does nothing here.
    open func makeKeyAndVisible() {}
}
