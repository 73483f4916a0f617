// swift-tools-version: 6.0
// An app whose background work ends when the system says so, written as for iOS (`import UIKit`,
// `import BackgroundTasks`, unchanged): its refresh handler starts an upload that outlasts the run, and its expiration
// handler cancels it, the upload's queue then completing the task with `DispatchQueue.main.async`; on entering the
// background it saves under a background task (`beginBackgroundTask`) that expires after the allowance, ended the
// same way. On Linux the imports resolve to bgemu's UIKit and BackgroundTasks products (BGEmuKit under Apple's names)
// and its tests run against a running bgemu; on iOS they are Apple's frameworks.
import Foundation
import PackageDescription

/// bgemu's own checkout, two folders up. SwiftPM names a local package after its folder, whatever that folder is
/// called in a given clone, so the name is read from the path.
let bgemuPath = "../.."
let bgemu = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

let package = Package(
    name: "ExpirationApp",
    platforms: [.iOS(.v17), .macOS(.v14)],
    products: [.library(name: "ExpirationApp", targets: ["ExpirationApp"])],
    dependencies: [.package(path: bgemuPath)],
    targets: [
        .target(
            name: "ExpirationApp",
            dependencies: [
                // Where Apple's frameworks are absent: the same names, over a bgemu device.
                .product(name: "UIKit", package: bgemu, condition: .when(platforms: [.linux])),
                .product(name: "BackgroundTasks", package: bgemu, condition: .when(platforms: [.linux])),
            ]
        ),
        .testTarget(name: "ExpirationAppTests", dependencies: ["ExpirationApp", .product(name: "BGEmuKit", package: bgemu)]),
    ]
)
