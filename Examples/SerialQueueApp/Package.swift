// swift-tools-version: 6.0
// An app whose background scheduling runs on a serial DispatchQueue, written as for iOS (`import UIKit`,
// `import BackgroundTasks`, unchanged): its launch handler is registered with that queue and every submit is enqueued
// on it, from `applicationDidEnterBackground` and from the handler. On Linux the imports resolve to bgemu's UIKit and
// BackgroundTasks products (BGEmuKit under Apple's names) and its tests run against a running bgemu; on iOS they are
// Apple's frameworks.
import Foundation
import PackageDescription

/// bgemu's own checkout, two folders up. SwiftPM names a local package after its folder, whatever that folder is
/// called in a given clone, so the name is read from the path.
let bgemuPath = "../.."
let bgemu = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

let package = Package(
    name: "SerialQueueApp",
    platforms: [.iOS(.v17), .macOS(.v14)],
    products: [.library(name: "SerialQueueApp", targets: ["SerialQueueApp"])],
    dependencies: [.package(path: bgemuPath)],
    targets: [
        .target(
            name: "SerialQueueApp",
            dependencies: [
                // Where Apple's frameworks are absent: the same names, over a bgemu device.
                .product(name: "UIKit", package: bgemu, condition: .when(platforms: [.linux])),
                .product(name: "BackgroundTasks", package: bgemu, condition: .when(platforms: [.linux])),
            ]
        ),
        .testTarget(name: "SerialQueueAppTests", dependencies: ["SerialQueueApp", .product(name: "BGEmuKit", package: bgemu)]),
    ]
)
