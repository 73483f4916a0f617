// swift-tools-version: 6.0
// An app that refreshes an article when a silent push says it changed, written as for iOS (`import UIKit`,
// `import UserNotifications`, unchanged): it registers for remote notifications at launch, sets itself as the
// notification center's delegate, and handles the push in
// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`, completing with `.newData`. On Linux the
// imports resolve to bgemu's UIKit and UserNotifications products (BGEmuKit under Apple's names) and its tests run
// against a running bgemu, which delivers the pushes; on iOS they are Apple's frameworks.
import Foundation
import PackageDescription

/// bgemu's own checkout, two folders up. SwiftPM names a local package after its folder, whatever that folder is
/// called in a given clone, so the name is read from the path.
let bgemuPath = "../.."
let bgemu = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

let package = Package(
    name: "SilentPushApp",
    platforms: [.iOS(.v17), .macOS(.v14)],
    products: [.library(name: "SilentPushApp", targets: ["SilentPushApp"])],
    dependencies: [.package(path: bgemuPath)],
    targets: [
        .target(
            name: "SilentPushApp",
            dependencies: [
                // Where Apple's frameworks are absent: the same names, over a bgemu device.
                .product(name: "UIKit", package: bgemu, condition: .when(platforms: [.linux])),
                .product(name: "UserNotifications", package: bgemu, condition: .when(platforms: [.linux])),
            ]
        ),
        .testTarget(name: "SilentPushAppTests", dependencies: ["SilentPushApp", .product(name: "BGEmuKit", package: bgemu)]),
    ]
)
