import Emulation
import HTTPServer

/// `…/apps/{bundleId}/activities/{activity}`, `…/location`, `…/accessories/{accessoryId}/data` and
/// `…/apps/{bundleId}/newsstand-issue`: continuous background modes (R35–R39).
enum ActivityRoutes {
    static let base = "/v1/devices/{deviceId}/apps/{bundleId}/activities"

    static func register(on router: inout Router, _ env: APIEnvironment) {
        router.get(base) { _, context in
            let device = try env.devices.device(for: context)
            let engine = DeviceEngine(device: device)
            let bundleId = try AppRoutes.bundleId(context, in: device)
            let items = try AppActivity.allCases.map { ActivityBody(outcome: try engine.activityOutcome(bundleId, $0)) }
            return try JSONBody.response(PageBody(items: items, nextCursor: nil))
        }

        router.put(base + "/{activity}") { request, context in
            let name = context.parameters["activity"] ?? ""
            guard let activity = AppActivity(rawValue: name) else {
                throw EmulationError.notFound(kind: "activity", id: name)
            }
            let body = try JSONBody.decode(SetActivityRequest.self, from: request)
            let (_, outcome) = try env.devices.perform(for: context) { engine in
                try engine.setActivity(
                    context.parameters["bundleId"] ?? "", activity, active: body.active,
                    keepAliveInterval: body.keepAliveInterval.map(VirtualDuration.seconds))
            }
            return try JSONBody.response(ActivityBody(outcome: outcome))
        }

        router.post("/v1/devices/{deviceId}/location") { request, context in
            let body = try JSONBody.decode(LocationRequest.self, from: request)
            let (_, woken) = try env.devices.perform(for: context) { engine in
                try engine.moveDevice(latitude: body.latitude, longitude: body.longitude)
            }
            return try JSONBody.response(WokenAppsBody(wokenApps: woken))
        }

        router.post("/v1/devices/{deviceId}/accessories/{accessoryId}/data") { request, context in
            let body = try JSONBody.decode(AccessoryDataRequest.self, from: request)
            let (_, woken) = try env.devices.perform(for: context) { engine in
                try engine.accessoryData(context.parameters["accessoryId"] ?? "", transport: body.transport)
            }
            return try JSONBody.response(WokenAppsBody(wokenApps: woken))
        }

        router.post("/v1/devices/{deviceId}/apps/{bundleId}/newsstand-issue") { request, context in
            let body = try JSONBody.decode(NewsstandIssueRequest.self, from: request)
            let bundleId = context.parameters["bundleId"] ?? ""
            let (device, run) = try env.devices.perform(for: context) { engine in
                try engine.newsstandIssue(bundleId, name: body.name)
            }
            return try JSONBody.response(
                RunBody(run: run), status: .created,
                headers: ["Location": PathSegment.appPath(deviceId: device.id, bundleId: bundleId, "runs", run.id)])
        }
    }
}
