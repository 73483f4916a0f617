// swift-tools-version: 6.0
// An app that pauses its background sync in Low Power Mode and while Background App Refresh is off, and resumes it
// when they change, written as for iOS (`import UIKit`, `import BackgroundTasks`, unchanged): it observes
// `NSProcessInfoPowerStateDidChange` and `backgroundRefreshStatusDidChangeNotification` and reads
// `ProcessInfo.processInfo.isLowPowerModeEnabled` and `UIApplication.shared.backgroundRefreshStatus`. On Linux the
// imports resolve to bgemu's UIKit and BackgroundTasks products (BGEmuKit under Apple's names) and its tests run
// against a running bgemu, whose device's conditions they toggle; on iOS they are Apple's frameworks.
import Foundation
import PackageDescription

/// bgemu's own checkout, two folders up. SwiftPM names a local package after its folder, whatever that folder is
/// called in a given clone, so the name is read from the path.
let bgemuPath = "../.."
let bgemu = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

let package = Package(
    name: "PowerAwareApp",
    platforms: [.iOS(.v17), .macOS(.v14)],
    products: [.library(name: "PowerAwareApp", targets: ["PowerAwareApp"])],
    dependencies: [.package(path: bgemuPath)],
    targets: [
        .target(
            name: "PowerAwareApp",
            dependencies: [
                // Where Apple's frameworks are absent: the same names, over a bgemu device.
                .product(name: "UIKit", package: bgemu, condition: .when(platforms: [.linux])),
                .product(name: "BackgroundTasks", package: bgemu, condition: .when(platforms: [.linux])),
            ]
        ),
        .testTarget(name: "PowerAwareAppTests", dependencies: ["PowerAwareApp", .product(name: "BGEmuKit", package: bgemu)]),
    ]
)
