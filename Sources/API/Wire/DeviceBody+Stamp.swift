import Emulation
import Foundation

extension DeviceBody {
    /// Everything a device's answer is made of, unformatted: its dates not yet text, its policy not yet looked up
    /// (it follows from the OS version and the overrides). Equal stamps make equal bodies, so a body kept for an equal
    /// stamp is answered without being built (``EncodedBodyCache``); taking one copies references, allocates
    /// nothing. A field added to ``DeviceBody`` needs its source here (`DeviceBodyStampTests` changes each one).
    struct Stamp: Equatable, Sendable {
        var id: String
        var name: String
        var model: String
        var osVersion: OSVersion
        var multitaskingSupported: Bool
        var policyOverrides: [String: Double]
        var clockMode: ClockMode
        var clockScale: Double
        /// The clock's reading: a realtime clock's moves with the wall clock, and so does the answer.
        var now: VirtualInstant
        var conditions: DeviceConditions
        var seed: UInt64
        var createdAt: Date
        var appCount: Int
        var scenario: String?

        init(_ device: Device, wallMilliseconds: Int64) {
            id = device.id
            name = device.name
            model = device.model
            osVersion = device.osVersion
            multitaskingSupported = device.multitaskingSupported
            policyOverrides = device.policyOverrides
            clockMode = device.clock.mode
            clockScale = device.clock.scale
            now = device.clock.now(wallMilliseconds: wallMilliseconds)
            conditions = device.conditions
            seed = device.seed
            createdAt = device.createdAt
            appCount = device.apps.count
            scenario = device.scenario
        }
    }
}
