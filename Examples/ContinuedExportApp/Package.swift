// swift-tools-version: 6.0
// A photo app whose export runs as a continued processing task (iOS 26), written as for iOS (`import UIKit`,
// `import BackgroundTasks`, unchanged): the user taps Export in the foreground, the export reports its progress
// and keeps running when the user goes Home. On Linux the imports resolve to bgemu's UIKit and BackgroundTasks
// products (BGEmuKit under Apple's names) and its tests run against a running bgemu; on iOS they are Apple's
// frameworks.
import Foundation
import PackageDescription

/// bgemu's own checkout, two folders up. SwiftPM names a local package after its folder, whatever that folder is
/// called in a given clone, so the name is read from the path.
let bgemuPath = "../.."
let bgemu = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

let package = Package(
    name: "ContinuedExportApp",
    platforms: [.iOS(.v17), .macOS(.v14)],
    products: [.library(name: "ContinuedExportApp", targets: ["ContinuedExportApp"])],
    dependencies: [.package(path: bgemuPath)],
    targets: [
        .target(
            name: "ContinuedExportApp",
            dependencies: [
                // Where Apple's frameworks are absent: the same names, over a bgemu device.
                .product(name: "UIKit", package: bgemu, condition: .when(platforms: [.linux])),
                .product(name: "BackgroundTasks", package: bgemu, condition: .when(platforms: [.linux])),
            ]
        ),
        .testTarget(
            name: "ContinuedExportAppTests", dependencies: ["ContinuedExportApp", .product(name: "BGEmuKit", package: bgemu)]),
    ]
)
