import CompactJSON
import Emulation

/// A device's answer written by hand: every creation, read and command on a device answers with it, and through
/// `Encodable`'s containers it cost a creation 6 % of its CPU. Its `Encodable` conformance stays the reference
/// (`DeviceBodyWritingTests` holds the two to the same bytes, and the bytes to the contract's `Device` schema).
extension DeviceBody: JSONWritable {
    func write(to writer: inout JSONWriter) throws {
        try writer.object { w in
            w.key("appCount")
            w.int(appCount)
            w.key("clock")
            try w.object { w in
                w.key("mode")
                w.string(clock.mode)
                w.key("now")
                w.string(clock.now)
                w.key("scale")
                try w.double(clock.scale)
            }
            w.key("conditions")
            // The same members as the stored document's conditions today, written here all the same: the contract's
            // shape and the storage's are free to part.
            w.object { w in
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
            w.key("createdAt")
            w.string(createdAt)
            w.key("id")
            w.string(id)
            w.key("model")
            w.string(model)
            w.key("multitaskingSupported")
            w.bool(multitaskingSupported)
            w.key("name")
            w.string(name)
            w.key("osVersion")
            w.string(osVersion)
            w.key("policy")
            try policy.write(to: &w)
            w.key("policyOverrides")
            try w.object(sorting: policyOverrides) { w, value in try w.double(value) }
            w.key("profile")
            w.string(profile)
            w.key("scenario")
            if let scenario { w.string(scenario) } else { w.null() }
            w.key("seed")
            w.uint(seed)
        }
    }
}
