import Foundation
import Testing
@testable import BGEmuKit

/// NetNewsWire's `AppDelegate` declares `override init()`: UIKit's `UIResponder.init()` is not `required`, and a
/// `required` one here made that app's file fail to compile (found running its background code, issue 27).
private final class DelegateWithItsOwnInit: UIResponder, UIApplicationDelegate {
    let launchedAt: String
    override init() {
        launchedAt = "init"
        super.init()
    }
}

@MainActor @Suite struct UIResponderTests {
    @Test func anAppDelegateMayOverrideInitAsOnIOS() {
        #expect(DelegateWithItsOwnInit().launchedAt == "init")
        #expect(UIWindow().windowScene == nil)
    }
}
