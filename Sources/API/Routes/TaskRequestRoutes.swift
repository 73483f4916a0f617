import Emulation
import HTTPServer

/// `…/apps/{bundleId}/task-requests`: `BGTaskScheduler` (R15–R24).
enum TaskRequestRoutes {
    static let base = "/devices/{deviceId}/apps/{bundleId}/task-requests"

    static func register(on routes: inout RouteGroup, _ env: APIEnvironment) {
        routes.post(base) { request, context in
            let body = try JSONBody.decode(SubmitTaskRequest.self, from: request)
            let bundleId = try context.parameters.require("bundleId")
            let (device, submitted) = try env.devices.perform(for: context) { engine in
                let taskRequest = try body.request(submittedAt: engine.now)
                try engine.submit(bundleId, taskRequest)
                return taskRequest
            }
            return try JSONBody.response(
                TaskRequestBody(request: submitted), status: .created,
                headers: ["Location": PathSegment.appPath(deviceId: device.id, bundleId: bundleId, "task-requests", submitted.identifier)])
        }

        routes.get(base) { _, context in
            let app = try AppRoutes.app(context, env)
            return try JSONBody.response(PageBody(items: app.runtime.taskRequests.map(TaskRequestBody.init), nextCursor: nil))
        }

        routes.delete(base) { _, context in
            try env.devices.perform(for: context) { engine in
                try engine.cancelAllTaskRequests(context.parameters.require("bundleId"))
            }
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
            try env.devices.perform(for: context) { engine in
                try engine.cancelTaskRequest(context.parameters.require("bundleId"), identifier: context.parameters.require("identifier"))
            }
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
            let (device, run) = try env.devices.perform(for: context) { engine in
                try engine.simulateLaunch(bundleId, identifier: context.parameters.require("identifier"))
            }
            return try JSONBody.response(
                RunBody(run: run), status: .created,
                headers: ["Location": PathSegment.appPath(deviceId: device.id, bundleId: bundleId, "runs", run.id)])
        }

        routes.post(base + "/{identifier}/simulate-expiration") { _, context in
            let bundleId = try context.parameters.require("bundleId")
            let identifier = try context.parameters.require("identifier")
            let (device, _) = try env.devices.perform(for: context) { engine in
                try engine.simulateExpiration(bundleId, identifier: identifier)
            }
            let run = device.app(bundleId)?.runtime.runs.last { $0.identifier == identifier }
            return try JSONBody.response(RunBody(run: try runOrNotFound(run, identifier)))
        }
    }

    static func runOrNotFound(_ run: Run?, _ id: String) throws -> Run {
        guard let run else { throw EmulationError.notFound(kind: "run", id: id) }
        return run
    }
}
