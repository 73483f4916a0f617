import Foundation

/// Apple's `UISceneConfiguration`, which an app delegate's `application(_:configurationForConnecting:options:)`
/// answers (Xcode's template: `UISceneConfiguration(name: "Default Configuration", sessionRole: …)`). BGEmuKit does
/// not call that method: a test sets the scene delegate the configuration names with ``EmulatedApp/sceneDelegate``.
open class UISceneConfiguration: NSObject {
    /// The configuration's name in the app's `Info.plist`.
    public let name: String?
    /// The role of the sessions it configures.
    public let role: UISceneSession.Role
    /// The scene delegate's class.
    open var delegateClass: AnyClass?
    /// The scene's class.
    open var sceneClass: AnyClass?

    /// The configuration `name` for sessions of `sessionRole`.
    public init(name: String?, sessionRole: UISceneSession.Role) {
        self.name = name
        role = sessionRole
        super.init()
    }
}
