// swift-tools-version: 6.0
// A Hummingbird 2 server answering GET /healthz, the reference point for Benchmarks/bench.py.
// A separate package so that bgemu itself never depends on SwiftNIO.
import PackageDescription

let package = Package(
    name: "hb-healthz",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "hb-healthz", targets: ["hb-healthz"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
    ],
    targets: [
        .executableTarget(
            name: "hb-healthz",
            dependencies: [.product(name: "Hummingbird", package: "hummingbird")]
        ),
    ]
)
