// swift-tools-version: 6.0
// A scene-based app, written as for iOS (`import UIKit`, `import BackgroundTasks`, unchanged): it registers its
// refresh handler at launch and schedules the refresh in its scene delegate's `sceneDidEnterBackground`. On Linux
// the imports resolve to bgemu's UIKit and BackgroundTasks products (BGEmuKit under Apple's names) and its tests run
// against a running bgemu; on iOS they are Apple's frameworks.
import Foundation
import PackageDescription

/// bgemu's own checkout, two folders up. SwiftPM names a local package after its folder, whatever that folder is
/// called in a given clone, so the name is read from the path.
let bgemuPath = "../.."
let bgemu = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

let package = Package(
    name: "SceneApp",
    platforms: [.iOS(.v17), .macOS(.v14)],
    products: [.library(name: "SceneApp", targets: ["SceneApp"])],
    dependencies: [.package(path: bgemuPath)],
    targets: [
        .target(
            name: "SceneApp",
            dependencies: [
                // Where Apple's frameworks are absent: the same names, over a bgemu device.
                .product(name: "UIKit", package: bgemu, condition: .when(platforms: [.linux])),
                .product(name: "BackgroundTasks", package: bgemu, condition: .when(platforms: [.linux])),
            ]
        ),
        .testTarget(name: "SceneAppTests", dependencies: ["SceneApp", .product(name: "BGEmuKit", package: bgemu)]),
    ]
)
