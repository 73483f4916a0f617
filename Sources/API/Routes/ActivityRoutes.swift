import Emulation
import HTTPServer

/// `…/apps/{bundleId}/activities/{activity}`, `…/location`, `…/accessories/{accessoryId}/data` and
/// `…/apps/{bundleId}/newsstand-issue`: continuous background modes (R35–R39).
enum ActivityRoutes {
    static let base = "/devices/{deviceId}/apps/{bundleId}/activities"

    static func register(on routes: inout RouteGroup, _ env: APIEnvironment) {
        routes.get(base) { _, context in
            let device = try env.devices.device(for: context)
            let engine = DeviceEngine(device: device)
            let bundleId = try AppRoutes.bundleId(context, in: device)
            let items = try AppActivity.allCases.map { ActivityBody(outcome: try engine.activityOutcome(bundleId, $0)) }
            return try JSONBody.response(PageBody(items: items, nextCursor: nil))
        }

        routes.put(base + "/{activity}") { request, context in
            let name = try context.parameters.require("activity")
            guard let activity = AppActivity(rawValue: name) else {
                throw EmulationError.notFound(kind: "activity", id: name)
            }
            let body = try JSONBody.decode(SetActivityRequest.self, from: request)
            let (_, outcome) = try env.devices.perform(body.command(bundleId: context.parameters.require("bundleId"), activity), for: context)
            return try JSONBody.response(ActivityBody(outcome: try outcome.value(\.activity)))
        }

        routes.post("/devices/{deviceId}/location") { request, context in
            let body = try JSONBody.decode(LocationRequest.self, from: request)
            let (_, outcome) = try env.devices.perform(body.command, for: context)
            return try JSONBody.response(WokenAppsBody(wokenApps: try outcome.value(\.wokenApps)))
        }

        routes.post("/devices/{deviceId}/accessories/{accessoryId}/data") { request, context in
            let body = try JSONBody.decode(AccessoryDataRequest.self, from: request)
            let (_, outcome) = try env.devices.perform(body.command(accessoryId: context.parameters.require("accessoryId")), for: context)
            return try JSONBody.response(WokenAppsBody(wokenApps: try outcome.value(\.wokenApps)))
        }

        routes.post("/devices/{deviceId}/apps/{bundleId}/newsstand-issue") { request, context in
            let body = try JSONBody.decode(NewsstandIssueRequest.self, from: request)
            let bundleId = try context.parameters.require("bundleId")
            let (device, outcome) = try env.devices.perform(body.command(bundleId: bundleId), for: context)
            let run = try outcome.value(\.run)
            return try JSONBody.response(
                RunBody(run: run), status: .created,
                headers: ["Location": PathSegment.appPath(deviceId: device.id, bundleId: bundleId, "runs", run.id)])
        }
    }
}
