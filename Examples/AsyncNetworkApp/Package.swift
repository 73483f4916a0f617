// swift-tools-version: 6.0
// An app whose refresh handler completes in a `Task` after an `async` network call (`URLSession`), written as for iOS
// (`import UIKit`, `import BackgroundTasks`, unchanged): the handler starts the fetch, the task completes when the
// answer has come and submits the next request on the line after. In the foreground the app refreshes when its last
// refresh, by `Date()`, is over an hour old. On Linux the imports resolve to bgemu's UIKit and BackgroundTasks products
// (BGEmuKit under Apple's names) and its tests run against a running bgemu, the device's clock following real time
// while the fetch is on the wire; on iOS they are Apple's frameworks.
import Foundation
import PackageDescription

/// bgemu's own checkout, two folders up. SwiftPM names a local package after its folder, whatever that folder is
/// called in a given clone, so the name is read from the path.
let bgemuPath = "../.."
let bgemu = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

let package = Package(
    name: "AsyncNetworkApp",
    platforms: [.iOS(.v17), .macOS(.v14)],
    products: [.library(name: "AsyncNetworkApp", targets: ["AsyncNetworkApp"])],
    dependencies: [.package(path: bgemuPath)],
    targets: [
        .target(
            name: "AsyncNetworkApp",
            dependencies: [
                // Where Apple's frameworks are absent: the same names, over a bgemu device.
                .product(name: "UIKit", package: bgemu, condition: .when(platforms: [.linux])),
                .product(name: "BackgroundTasks", package: bgemu, condition: .when(platforms: [.linux])),
            ]
        ),
        .testTarget(name: "AsyncNetworkAppTests", dependencies: ["AsyncNetworkApp", .product(name: "BGEmuKit", package: bgemu)]),
    ]
)
