// swift-tools-version: 6.0
// An app's background logic, written as for iOS, tested on Linux against a running bgemu through BGEmuKit.
import Foundation
import PackageDescription

/// bgemu's own checkout, two folders up. SwiftPM names a local package after its folder, whatever that folder is
/// called in a given clone, so the name is read from the path.
let bgemuPath = "../.."
let bgemu = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

let package = Package(
    name: "WeatherApp",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [.library(name: "WeatherApp", targets: ["WeatherApp"])],
    dependencies: [
        // bgemu itself: only its BGEmuKit product (and the small HTTP client under it) is built for these targets.
        .package(path: bgemuPath),
    ],
    targets: [
        .target(
            name: "WeatherApp",
            dependencies: [.product(name: "BGEmuKit", package: bgemu, condition: .when(platforms: [.linux, .macOS]))]
        ),
        .testTarget(
            name: "WeatherAppTests",
            dependencies: ["WeatherApp", .product(name: "BGEmuKit", package: bgemu)]
        ),
    ]
)
