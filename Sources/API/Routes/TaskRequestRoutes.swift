import Emulation
import HTTPServer

/// `…/apps/{bundleId}/task-requests`: `BGTaskScheduler` (R15–R24).
enum TaskRequestRoutes {
    static let base = "/v1/devices/{deviceId}/apps/{bundleId}/task-requests"

    static func register(on router: inout Router, _ env: APIEnvironment) {
        router.post(base) { request, context in
            let body = try JSONBody.decode(SubmitTaskRequest.self, from: request)
            let bundleId = context.parameters["bundleId"] ?? ""
            let (device, submitted) = try env.devices.perform(for: context) { engine in
                let taskRequest = try body.request(submittedAt: engine.now)
                try engine.submit(bundleId, taskRequest)
                return taskRequest
            }
            return try JSONBody.response(
                TaskRequestBody(request: submitted), status: .created,
                headers: ["Location": PathSegment.appPath(deviceId: device.id, bundleId: bundleId, "task-requests", submitted.identifier)])
        }

        router.get(base) { _, context in
            let app = try AppRoutes.app(context, env)
            return try JSONBody.response(PageBody(items: app.runtime.taskRequests.map(TaskRequestBody.init), nextCursor: nil))
        }

        router.delete(base) { _, context in
            try env.devices.perform(for: context) { engine in
                try engine.cancelAllTaskRequests(context.parameters["bundleId"] ?? "")
            }
            return HTTPResponse(status: .noContent)
        }

        router.get(base + "/{identifier}") { _, context in
            let app = try AppRoutes.app(context, env)
            let identifier = context.parameters["identifier"] ?? ""
            guard let request = app.runtime.taskRequests.first(where: { $0.identifier == identifier }) else {
                throw EmulationError.notFound(kind: "task request", id: identifier)
            }
            return try JSONBody.response(TaskRequestBody(request: request))
        }

        router.delete(base + "/{identifier}") { _, context in
            try env.devices.perform(for: context) { engine in
                try engine.cancelTaskRequest(context.parameters["bundleId"] ?? "", identifier: context.parameters["identifier"] ?? "")
            }
            return HTTPResponse(status: .noContent)
        }

        router.get(base + "/{identifier}/eligibility") { _, context in
            var device = try env.devices.device(for: context)
            device.clock.anchor = device.clock.now(wallMilliseconds: env.wallMilliseconds)
            let engine = DeviceEngine(device: device)
            let eligibility = try engine.eligibility(
                context.parameters["bundleId"] ?? "", identifier: context.parameters["identifier"] ?? "")
            return try JSONBody.response(EligibilityBody(eligibility: eligibility))
        }

        router.post(base + "/{identifier}/simulate-launch") { _, context in
            let bundleId = context.parameters["bundleId"] ?? ""
            let (device, run) = try env.devices.perform(for: context) { engine in
                try engine.simulateLaunch(bundleId, identifier: context.parameters["identifier"] ?? "")
            }
            return try JSONBody.response(
                RunBody(run: run), status: .created,
                headers: ["Location": PathSegment.appPath(deviceId: device.id, bundleId: bundleId, "runs", run.id)])
        }

        router.post(base + "/{identifier}/simulate-expiration") { _, context in
            let bundleId = context.parameters["bundleId"] ?? ""
            let identifier = context.parameters["identifier"] ?? ""
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
