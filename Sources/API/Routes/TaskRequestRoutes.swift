import Emulation
import HTTPServer

/// `…/apps/{bundleId}/task-requests`: `BGTaskScheduler` (R15–R24).
enum TaskRequestRoutes {
    static let base = "/devices/{deviceId}/apps/{bundleId}/task-requests"

    static func register(on routes: inout RouteGroup, _ env: APIEnvironment) {
        routes.post(base) { request, context in
            let body = try JSONBody.decode(SubmitTaskRequest.self, from: request)
            let bundleId = try context.parameters.require("bundleId")
            let (device, outcome) = try env.devices.perform(body.command(bundleId: bundleId), for: context)
            let submitted = try outcome.value(\.taskRequest)
            // A continued processing request that started at once is no longer pending: its run is where it is (R41).
            let location = outcome.run.map { PathSegment.appPath(deviceId: device.id, bundleId: bundleId, "runs", $0.id) }
                ?? PathSegment.appPath(deviceId: device.id, bundleId: bundleId, "task-requests", submitted.identifier)
            return try JSONBody.response(TaskRequestBody(request: submitted), status: .created, headers: ["Location": location])
        }

        routes.get(base) { _, context in
            let app = try AppRoutes.app(context, env)
            return try JSONBody.response(PageBody(items: app.runtime.taskRequests.map(TaskRequestBody.init), nextCursor: nil))
        }

        routes.delete(base) { _, context in
            try env.devices.perform(.cancelAllTaskRequests(bundleId: context.parameters.require("bundleId")), for: context)
            return HTTPResponse(status: .noContent)
        }

        routes.get(base + "/{identifier}") { _, context in
            let app = try AppRoutes.app(context, env)
            let identifier = try context.parameters.require("identifier")
            guard let request = app.runtime.taskRequests.first(where: { $0.identifier == identifier }) else {
                throw EmulationError.notFound(kind: "task request", id: identifier)
            }
            return try JSONBody.response(TaskRequestBody(request: request))
        }

        routes.delete(base + "/{identifier}") { _, context in
            try env.devices.perform(
                .cancelTaskRequest(bundleId: context.parameters.require("bundleId"), identifier: context.parameters.require("identifier")),
                for: context)
            return HTTPResponse(status: .noContent)
        }

        routes.get(base + "/{identifier}/eligibility") { _, context in
            var device = try env.devices.device(for: context)
            device.clock.anchor = device.clock.now(wallMilliseconds: env.wallMilliseconds)
            let engine = DeviceEngine(device: device)
            let eligibility = try engine.eligibility(
                context.parameters.require("bundleId"), identifier: context.parameters.require("identifier"))
            return try JSONBody.response(EligibilityBody(eligibility: eligibility))
        }

        routes.post(base + "/{identifier}/simulate-launch") { _, context in
            let bundleId = try context.parameters.require("bundleId")
            let (device, outcome) = try env.devices.perform(
                .simulateLaunch(bundleId: bundleId, identifier: context.parameters.require("identifier")), for: context)
            let run = try outcome.value(\.run)
            return try JSONBody.response(
                RunBody(run: run), status: .created,
                headers: ["Location": PathSegment.appPath(deviceId: device.id, bundleId: bundleId, "runs", run.id)])
        }

        routes.post(base + "/{identifier}/simulate-expiration") { _, context in
            let bundleId = try context.parameters.require("bundleId")
            let identifier = try context.parameters.require("identifier")
            let (device, _) = try env.devices.perform(.simulateExpiration(bundleId: bundleId, identifier: identifier), for: context)
            let run = device.app(bundleId)?.runtime.runs.last { $0.identifier == identifier }
            return try JSONBody.response(RunBody(run: try runOrNotFound(run, identifier)))
        }
    }

    static func runOrNotFound(_ run: Run?, _ id: String) throws -> Run {
        guard let run else { throw EmulationError.notFound(kind: "run", id: id) }
        return run
    }
}
