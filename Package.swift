// swift-tools-version: 6.0
// bgemu: an emulator of iOS background execution, served over HTTP.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "bgemu",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "bgemu", targets: ["bgemu"]),
        .library(name: "BGEmuClient", targets: ["BGEmuClient"]),
        .library(name: "BGEmuKit", targets: ["BGEmuKit"]),
        // Apple's module names over BGEmuKit, for app files that keep `import UIKit` / `import BackgroundTasks` on
        // Linux: depend on them under `.when(platforms: [.linux])`, where the real frameworks are absent.
        .library(name: "UIKit", targets: ["UIKit"]),
        .library(name: "BackgroundTasks", targets: ["BackgroundTasks"]),
        .library(name: "UserNotifications", targets: ["UserNotifications"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
        // Prometheus exposition for /metrics: needs only swift-metrics' CoreMetrics and swift-atomics, no SwiftNIO.
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
    ],
    targets: [
        // System libraries on the design card, and the Linux headers Glibc does not export.
        .target(name: "CSystem"),
        .systemLibrary(name: "CLibz", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),

        // HTTP/1.1 on sockets: knows nothing of iOS.
        .target(
            name: "HTTPServer",
            dependencies: ["CSystem", "CLibz", "Locking", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // A blocking HTTP/1.1 client (no TLS, no SwiftNIO, no URLSession): the CLI's and BGEmuKit's transport. Apart
        // from the server so that a client never builds it.
        .target(name: "BGEmuHTTP", swiftSettings: strict),
        // The one client of the service: its routes as typed calls, one problem type, one pager, one event-stream
        // reader with resume, exact JSON. The CLI, BGEmuKit and `scenario run` all call the service through it.
        .target(name: "BGEmuClient", dependencies: ["BGEmuHTTP"], swiftSettings: strict),
        // Apple's BackgroundTasks/UIApplication names for app code, bound to a device emulated by a running bgemu.
        .target(name: "BGEmuKit", dependencies: ["BGEmuClient"], swiftSettings: strict),
        // The lock of the hot paths (a plain pthread mutex), shared by the server, the service and the API.
        .target(name: "Locking", swiftSettings: strict),
        // Compact JSON with sorted keys, byte for byte Foundation's, for the hot answers and stored documents.
        .target(name: "CompactJSON", swiftSettings: strict),
        // A total, read-only zip reader (ZIP64, stored and deflate) over bytes read in place: knows no HTTP, no iOS.
        .target(name: "ZipArchive", dependencies: ["CLibz"], swiftSettings: strict),
        // The emulation core: pure, deterministic, driven by virtual clocks; knows no HTTP and no SQL.
        .target(name: "Emulation", swiftSettings: strict),
        // Where Service and Storage meet: tenants, keys, pages and the stores' protocols (devices, forecasts,
        // idempotent answers) that Service asks for and Storage provides; knows no SQL and no HTTP.
        .target(name: "Stores", dependencies: ["Emulation"], swiftSettings: strict),
        // SQLite: migrations, the event log, the stores of `Stores`.
        .target(name: "Storage", dependencies: ["Emulation", "Stores", "CSQLite", "CompactJSON"], swiftSettings: strict),
        // The application layer: devices' commands and their commits (locks, cache), the realtime driver, the
        // scenario runner, credentials, the rate limiter's buckets; knows no HTTP.
        .target(
            name: "Service",
            dependencies: ["Emulation", "Stores", "CCrypto", "Locking", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // Routes, bodies, auth and tenancy, problem mapping.
        .target(
            name: "API",
            dependencies: [
                "HTTPServer", "Emulation", "Stores", "Service", "CompactJSON", "Locking", "ZipArchive",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            exclude: ["Events/README.md"],
            swiftSettings: strict
        ),
        // The thin executable: configuration, wiring, signals.
        .executableTarget(
            name: "bgemu",
            dependencies: [
                "HTTPServer", "BGEmuClient", "Emulation", "Stores", "Storage", "Service", "API", "Locking",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),

        // The test targets' one socket client: a raw loopback connection and an HTTP/1.1 reader on it.
        .target(name: "TestSockets", path: "Tests/TestSockets", swiftSettings: strict),
        .testTarget(
            name: "HTTPServerTests",
            dependencies: ["HTTPServer", "CSystem", "TestSockets", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .testTarget(name: "BGEmuHTTPTests", dependencies: ["BGEmuHTTP"], swiftSettings: strict),
        .testTarget(name: "BGEmuClientTests", dependencies: ["BGEmuClient"], swiftSettings: strict),
        .testTarget(name: "BGEmuKitTests", dependencies: ["BGEmuKit", "BGEmuClient", "BGEmuHTTP"], swiftSettings: strict),
        .testTarget(name: "EmulationTests", dependencies: ["Emulation"], swiftSettings: strict),
        .testTarget(name: "CompactJSONTests", dependencies: ["CompactJSON"], swiftSettings: strict),
        .testTarget(
            name: "ZipArchiveTests",
            dependencies: ["ZipArchive", "CLibz", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            swiftSettings: strict
        ),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "Stores", "Emulation"], swiftSettings: strict),
        .testTarget(
            name: "APITests",
            dependencies: [
                "API", "Service", "HTTPServer", "Emulation", "Stores", "Storage", "TestSockets", .product(name: "Yams", package: "Yams"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "bgemu", "HTTPServer", "BGEmuHTTP", "BGEmuClient", "BGEmuKit", "TestSockets", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: strict
        ),
        // Apple's framework names, each re-exporting BGEmuKit (Linux only: the real frameworks exist elsewhere).
        .target(name: "UIKit", dependencies: ["BGEmuKit", "_Testing_UIKit"], swiftSettings: strict),
        // The overlay of Testing and UIKit the toolchain declares but ships only with Apple's UIKit: empty, so that a
        // test file importing both compiles.
        .target(name: "_Testing_UIKit", swiftSettings: strict),
        .target(name: "BackgroundTasks", dependencies: ["BGEmuKit"], swiftSettings: strict),
        .target(name: "UserNotifications", dependencies: ["BGEmuKit"], swiftSettings: strict),
    ]
)

// CI's release-build checks compile only the test targets they run (`BGEMU_TEST_TARGETS=CompactJSONTests,…`):
// compiling every test target optimized took most of that step. Unset, as for everyone else, every target is here.
if let only = Context.environment["BGEMU_TEST_TARGETS"] {
    let kept = Set(only.split(separator: ",").map(String.init))
    package.targets.removeAll { $0.type == .test && !kept.contains($0.name) }
}
