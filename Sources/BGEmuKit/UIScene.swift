import Foundation

/// Apple's `UIScene`: an instance of the app's UI. BGEmuKit connects one window scene to an app that has a scene
/// delegate (``EmulatedApp/sceneDelegate``) when the user launches it, and makes the scene's lifecycle callbacks in
/// place of the app delegate's, as UIKit does for a scene-based app.
open class UIScene: UIResponder {
    /// Apple's `UIScene.ActivationState`, with its raw values.
    public enum ActivationState: Int, Sendable {
        case unattached = -1
        case foregroundActive = 0
        case foregroundInactive = 1
        case background = 2
    }

    /// Apple's `UIScene.ConnectionOptions`: what the scene was connected for; BGEmuKit passes none.
    open class ConnectionOptions: NSObject {}

    /// The scene's state, updated before each of its delegate's lifecycle callbacks.
    open internal(set) var activationState: ActivationState = .unattached
    /// The scene's delegate (held strongly, as UIKit does).
    open var delegate: (any UISceneDelegate)?
    /// The session the scene belongs to.
    public let session: UISceneSession
    /// The scene's title (for the app switcher).
    open var title: String?

    /// A scene of `session`.
    public init(session: UISceneSession) {
        self.session = session
        super.init()
    }

    /// A scene of a new application session.
    public override init() {
        session = UISceneSession(role: .windowApplication, persistentIdentifier: "scene")
        super.init()
    }
}

/// Apple's `UIWindowScene`: the kind of scene an app's windows belong to.
open class UIWindowScene: UIScene {}

/// Apple's `UISceneSession`: a scene's persistent identity.
open class UISceneSession: NSObject {
    /// Apple's `UISceneSession.Role`.
    public struct Role: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The app's main, interactive windows.
        public static let windowApplication = Role(rawValue: "UIWindowSceneSessionRoleApplication")
    }

    /// The session's role.
    public let role: Role
    /// Stable across launches: BGEmuKit names it after the app, so that runs of a test stay the same.
    public let persistentIdentifier: String

    init(role: Role, persistentIdentifier: String) {
        self.role = role
        self.persistentIdentifier = persistentIdentifier
        super.init()
    }
}
