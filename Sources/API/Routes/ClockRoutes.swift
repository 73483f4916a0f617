import Emulation
import HTTPServer

/// `/v1/devices/{deviceId}/clock` and `/reboot`: virtual time and the device's power cycle.
enum ClockRoutes {
    static func register(on routes: inout RouteGroup, _ env: APIEnvironment) {
        routes.get("/devices/{deviceId}/clock") { _, context in
            let device = try env.devices.device(for: context)
            return try JSONBody.response(ClockBody(device.clock, wallMilliseconds: env.wallMilliseconds))
        }

        routes.post("/devices/{deviceId}/clock/advance") { request, context in
            let body = try JSONBody.decode(AdvanceRequest.self, from: request)
            let (device, outcome) = try env.devices.perform(body.command, for: context)
            return try JSONBody.response(
                AdvanceBody(now: RFC3339.format(device.clock.anchor), eventsEmitted: outcome.eventsEmitted, stopped: outcome.stopped))
        }

        routes.post("/devices/{deviceId}/reboot") { _, context in
            let (device, _) = try env.devices.perform(.reboot, for: context)
            return try JSONBody.response(DeviceBody(device, wallMilliseconds: env.wallMilliseconds))
        }
    }

    struct AdvanceBody: Encodable {
        var now: String
        var eventsEmitted: Int
        /// True when `stopAtAppCode` stopped the clock before the target.
        var stopped: Bool
    }
}
