import CompactJSON
import Emulation
import Foundation

/// The stored JSON of a device, written by hand: the bytes `Device`'s `Encodable` conformance gives through
/// ``SQLiteDeviceStore``'s encoder (sorted keys, `\/`, dates as `StorageDate` text), which stays the reference
/// (`DeviceDocumentTests` holds the two to the same bytes on devices with every kind of state).
///
/// Every creation and every command on a device writes its document; through `Encodable`'s containers that was
/// 10 % of a creation's CPU, with a device of no apps; and a device with apps carries their histories (up to 200
/// ended runs and tasks an app), which made a command on a device of ten apps after a week of virtual time spend
/// about 10 ms encoding its half-megabyte document. The device's own parts, its apps, their runtime, runs and
/// background tasks are written here (`DeviceDocument+Apps`); the rest (an app's manifest, settings, behaviour,
/// budget, pushes, transfers, activities) goes through `Encodable`.
struct DeviceDocument: JSONWritable {
    let device: Device

    func encode(to encoder: any Encoder) throws { try device.encode(to: encoder) }

    func write(to writer: inout JSONWriter) throws {
        let device = device
        try writer.object { w in
            w.key("apps")
            try w.array(device.apps) { w, app in try Self.write(app, to: &w) }
            w.key("clock")
            try Self.write(device.clock, to: &w)
            w.key("conditions")
            Self.write(device.conditions, to: &w)
            w.key("createdAt")
            try w.date(device.createdAt)
            w.key("id")
            w.string(device.id)
            w.key("model")
            w.string(device.model)
            w.key("multitaskingSupported")
            w.bool(device.multitaskingSupported)
            w.key("name")
            w.string(device.name)
            w.key("osVersion")
            w.string(device.osVersion.description)
            w.key("policyOverrides")
            try w.object(sorting: device.policyOverrides) { w, value in try w.double(value) }
            w.key("runtime")
            try Self.write(device.runtime, to: &w)
            if let scenario = device.scenario {
                w.key("scenario")
                w.string(scenario)
            }
            w.key("seed")
            w.uint(device.seed)
            w.key("tenantId")
            w.string(device.tenantId)
        }
    }

    private static func write(_ clock: DeviceClock, to writer: inout JSONWriter) throws {
        try writer.object { w in
            w.key("anchor")
            w.int(clock.anchor.milliseconds)
            w.key("anchorWallMilliseconds")
            w.int(clock.anchorWallMilliseconds)
            w.key("mode")
            w.string(clock.mode.rawValue)
            w.key("scale")
            try w.double(clock.scale)
        }
    }

    private static func write(_ conditions: DeviceConditions, to writer: inout JSONWriter) {
        writer.object { w in
            w.key("backgroundAppRefresh")
            w.bool(conditions.backgroundAppRefresh)
            w.key("batteryLevel")
            w.int(conditions.batteryLevel)
            w.key("charging")
            w.bool(conditions.charging)
            w.key("locked")
            w.bool(conditions.locked)
            w.key("lowPowerMode")
            w.bool(conditions.lowPowerMode)
            w.key("network")
            w.string(conditions.network.rawValue)
            w.key("userActive")
            w.bool(conditions.userActive)
        }
    }

    private static func write(_ runtime: DeviceRuntime, to writer: inout JSONWriter) throws {
        try writer.object { w in
            if let location = runtime.location {
                w.key("location")
                try w.encodable(location)
            }
            w.key("nextRunNumber")
            w.int(runtime.nextRunNumber)
            w.key("nextTaskNumber")
            w.int(runtime.nextTaskNumber)
            w.key("nextTimerSeq")
            w.int(runtime.nextTimerSeq)
            w.key("nextTransferNumber")
            w.int(runtime.nextTransferNumber)
            w.key("random")
            w.object { w in
                w.key("state")
                w.uint(runtime.random.state)
            }
            w.key("timers")
            w.array(runtime.timers) { w, timer in write(timer, to: &w) }
        }
    }

    private static func write(_ timer: DeviceTimer, to writer: inout JSONWriter) {
        writer.object { w in
            w.key("due")
            w.int(timer.due.milliseconds)
            w.key("kind")
            write(timer.kind, to: &w)
            w.key("seq")
            w.int(timer.seq)
        }
    }

    /// A timer's kind as the synthesized `Encodable` of an enum writes it: `{"case": {label: value, …}}`, the
    /// labels sorted.
    private static func write(_ kind: DeviceTimer.Kind, to writer: inout JSONWriter) {
        let (name, labels): (StaticString, KeyValuePairs<StaticString, String>) =
            switch kind {
            case .lifecycleGraceEnd(let bundleId): ("lifecycleGraceEnd", ["bundleId": bundleId])
            case .allowanceWarning(let bundleId): ("allowanceWarning", ["bundleId": bundleId])
            case .allowanceEnd(let bundleId): ("allowanceEnd", ["bundleId": bundleId])
            case .runDeadline(let bundleId, let runId): ("runDeadline", ["bundleId": bundleId, "runId": runId])
            case .runGraceEnd(let bundleId, let runId): ("runGraceEnd", ["bundleId": bundleId, "runId": runId])
            case .scriptedRunCompletion(let bundleId, let runId):
                ("scriptedRunCompletion", ["bundleId": bundleId, "runId": runId])
            case .scriptedTaskEnd(let bundleId, let taskId): ("scriptedTaskEnd", ["bundleId": bundleId, "taskId": taskId])
            case .opportunity: ("opportunity", [:])
            case .predictedUsage(let bundleId): ("predictedUsage", ["bundleId": bundleId])
            case .localNotification(let bundleId, let identifier):
                ("localNotification", ["bundleId": bundleId, "identifier": identifier])
            case .transfer(let bundleId, let transferId): ("transfer", ["bundleId": bundleId, "transferId": transferId])
            case .voipKeepAlive(let bundleId): ("voipKeepAlive", ["bundleId": bundleId])
            case .pushExpiration(let bundleId, let apnsId): ("pushExpiration", ["apnsId": apnsId, "bundleId": bundleId])
            }
        writer.object { w in
            w.key(name)
            w.object { w in
                for (label, value) in labels {
                    w.key(label)
                    w.string(value)
                }
            }
        }
    }
}
