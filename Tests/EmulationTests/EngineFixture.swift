import Foundation
@testable import Emulation

/// Devices and apps for engine tests.
enum EngineFixture {
    static let weather = "com.example.weather"
    static let refreshId = "com.example.weather.refresh"
    static let cleanupId = "com.example.weather.cleanup"

    static func app(
        _ bundleId: String = weather, modes: [BackgroundMode] = [.fetch, .processing],
        identifiers: [String] = [refreshId, cleanupId], launchHandlers: [String]? = nil, exitsOnSuspend: Bool = false,
        behavior: AppBehavior? = nil
    ) -> App {
        App(
            bundleId: bundleId,
            manifest: AppManifest(backgroundModes: modes, permittedIdentifiers: identifiers, exitsOnSuspend: exitsOnSuspend),
            launchHandlers: launchHandlers, installedAt: .defaultStart, behavior: behavior)
    }

    static func engine(
        os: String = "17.0", apps: [App] = [app()], seed: UInt64 = 42, multitasking: Bool = true,
        conditions: DeviceConditions = DeviceConditions(), policy: [String: Double] = [:]
    ) -> DeviceEngine {
        var device = Device(
            id: "dev_test", tenantId: "ten_test", name: "test", osVersion: OSVersion(os)!, multitaskingSupported: multitasking,
            conditions: conditions, seed: seed, createdAt: Date(timeIntervalSince1970: 0), apps: apps)
        device.policyOverrides = policy
        return DeviceEngine(device: device)
    }
}

extension DeviceEngine {
    mutating func advance(seconds: Double) throws { try advance(to: now + .seconds(seconds)) }

    func app(_ bundleId: String = EngineFixture.weather) -> App { device.app(bundleId)! }

    /// The events of one type, in order.
    func events(_ type: EventType) -> [EmulationEvent] { events.filter { $0.type == type } }

    /// `type` or `type:callback` for delegate events, for the app, in order.
    func trace(_ bundleId: String = EngineFixture.weather) -> [String] {
        events.filter { $0.bundleId == bundleId }.map { event in
            switch event.type {
            case .appDelegate: "delegate:" + (event.data["callback"]?.stringValue ?? "?")
            case .appStateChanged: "state:" + (event.data["to"]?.stringValue ?? "?")
            default: event.type.rawValue
            }
        }
    }

    /// Seconds since the fixed start of every test device's clock.
    func seconds(of event: EmulationEvent) -> Double { (event.at - VirtualInstant.defaultStart).seconds }

    mutating func clearEvents() { events.removeAll() }
}
