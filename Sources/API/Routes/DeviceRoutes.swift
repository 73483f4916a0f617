import Emulation
import HTTPServer
import Service

/// `/v1/devices/…`: virtual devices of the caller's tenant.
enum DeviceRoutes {
    static func register(on routes: inout RouteGroup, _ env: APIEnvironment) {
        routes.post("/devices") { request, context in
            let tenant = try context.tenant()
            let body = try JSONBody.decode(CreateDeviceRequest.self, from: request)
            let device = try env.devices.create(try makeDevice(body, tenantId: tenant.id, env)) { $0.created() }
            return try JSONBody.response(
                DeviceBody(device, wallMilliseconds: env.wallMilliseconds), status: .created,
                headers: ["Location": "/v1/devices/\(device.id)"])
        }

        routes.get("/devices") { request, context in
            let tenant = try context.tenant()
            let paging = try Pagination(request)
            let page = try env.devices.list(tenantId: tenant.id, cursor: paging.cursor, limit: paging.limit)
            let wall = env.wallMilliseconds
            return try JSONBody.response(
                PageBody(items: page.items.map { DeviceBody($0, wallMilliseconds: wall) }, nextCursor: page.nextCursor))
        }

        routes.get("/devices/{deviceId}") { _, context in
            let device = try env.devices.device(for: context)
            let wall = env.wallMilliseconds
            let bytes = try env.deviceBodies.bytes(for: device.id, stamp: DeviceBody.Stamp(device, wallMilliseconds: wall)) {
                try JSONBody.encoder.encode(DeviceBody(device, wallMilliseconds: wall))
            }
            return HTTPResponse(status: .ok, contentType: "application/json", bytes: bytes)
        }

        routes.delete("/devices/{deviceId}") { _, context in
            try env.devices.delete(context.parameters.require("deviceId"), tenantId: try context.tenant().id)
            return HTTPResponse(status: .noContent)
        }

        routes.patch("/devices/{deviceId}") { request, context in
            let patch = try JSONBody.decode(DevicePatch.self, from: request)
            if let name = patch.name, let problem = NameRule.problem(name, maximum: 100) {
                throw Problems.invalid("name", problem)
            }
            let (device, _) = try env.devices.perform(patch.command, for: context)
            return try JSONBody.response(DeviceBody(device, wallMilliseconds: env.wallMilliseconds))
        }

        routes.patch("/devices/{deviceId}/conditions") { request, context in
            let patch = try JSONBody.decode(ConditionsPatch.self, from: request)
            let (device, _) = try env.devices.perform(patch.command, for: context)
            return try JSONBody.response(device.conditions)
        }
    }

    /// Validates a create request into a new device; every invalid field is named at once.
    static func makeDevice(_ body: CreateDeviceRequest, tenantId: String, _ env: APIEnvironment) throws -> Device {
        var issues: [FieldIssue] = []
        let name = body.name
        if let problem = NameRule.problem(name, maximum: 100) { issues.append(FieldIssue("name", problem)) }
        let model = body.model ?? "iPhone"
        if let problem = NameRule.problem(model, maximum: 100) { issues.append(FieldIssue("model", problem)) }
        var osVersion: OSVersion? = .default
        if let text = body.osVersion {
            osVersion = OSVersion(text)
            if osVersion == nil {
                issues.append(FieldIssue(
                    "osVersion",
                    "must be an iOS version such as \"17.0\" from \(OSVersion.supportedMajors.lowerBound) to \(OSVersion.supportedMajors.upperBound)"))
            }
        }
        let multitasking = body.multitaskingSupported ?? true
        if !multitasking, let osVersion, osVersion.major >= 5 {
            issues.append(FieldIssue("multitaskingSupported", "may be false only on iOS 4 (every later device multitasks)"))
        }
        var clock = DeviceClock()
        if let request = body.clock {
            if let mode = request.mode {
                if let parsed = ClockMode(rawValue: mode) { clock.mode = parsed } else {
                    issues.append(FieldIssue("clock.mode", "must be manual or realtime"))
                }
            }
            if let scale = request.scale {
                if scale > 0, scale <= DeviceClock.maximumScale, scale.isFinite { clock.scale = scale } else {
                    issues.append(FieldIssue("clock.scale", "must be greater than 0 and at most \(Int(DeviceClock.maximumScale))"))
                }
            }
            if let start = request.start {
                if let instant = RFC3339.parse(start), instant <= .latest { clock.anchor = instant } else {
                    issues.append(FieldIssue(
                        "clock.start",
                        "must be an RFC 3339 date-time such as 2026-01-01T08:00:00Z, at most \(RFC3339.format(.latest))"))
                }
            }
        }
        // One reading of the wall clock: the device's creation, its clock's anchor and its id's time agree.
        let createdAt = env.wallClock()
        let createdMilliseconds = Int64((createdAt.timeIntervalSince1970 * 1000).rounded())
        clock.anchorWallMilliseconds = createdMilliseconds
        var conditions = DeviceConditions()
        if let patch = body.conditions {
            do { conditions = try patch.change.applied(to: conditions, prefix: "conditions.") } catch EmulationError.invalid(let more) {
                issues += more
            }
        }
        if let policy = body.policy { issues += Profile.validate(policy) }
        guard issues.isEmpty, let osVersion else { throw EmulationError.invalid(issues) }
        var generator = SystemRandomNumberGenerator()
        let seed = body.seed ?? (generator.next() >> 11)  // fits a JSON number exactly (53 bits)
        var device = Device(
            id: SecretGenerator.newOrderedID("dev", milliseconds: createdMilliseconds),
            tenantId: tenantId, name: name, model: model, osVersion: osVersion, multitaskingSupported: multitasking,
            clock: clock, conditions: conditions, seed: seed, createdAt: createdAt)
        device.policyOverrides = body.policy ?? [:]
        return device
    }
}
