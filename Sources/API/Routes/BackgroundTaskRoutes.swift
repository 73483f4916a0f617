import Emulation
import HTTPServer
import Service

/// `…/apps/{bundleId}/background-tasks`: `beginBackgroundTask` and `endBackgroundTask` (R8–R14).
enum BackgroundTaskRoutes {
    static let base = "/devices/{deviceId}/apps/{bundleId}/background-tasks"

    static func register(on routes: inout RouteGroup, _ env: APIEnvironment) {
        routes.post(base) { request, context in
            let body = request.body.isEmpty ? nil : try JSONBody.decode(BeginTaskRequest.self, from: request)
            let bundleId = try context.parameters.require("bundleId")
            let (device, outcome) = try env.devices.perform(BeginTaskRequest.command(body, bundleId: bundleId), for: context)
            guard let task = outcome.backgroundTask else {
                // R14: UIBackgroundTaskInvalid — nothing began.
                return try JSONBody.response(InvalidTaskBody())
            }
            return try JSONBody.response(
                BackgroundTaskBody(task: task), status: .created,
                headers: ["Location": PathSegment.appPath(deviceId: device.id, bundleId: bundleId, "background-tasks", task.id)])
        }

        routes.get(base) { request, context in
            let paging = try Pagination(request)
            let app = try AppRoutes.app(context, env)
            let page = try paging.page(of: app.runtime.backgroundTasks)
            return try JSONBody.response(PageBody(items: page.items.map(BackgroundTaskBody.init), nextCursor: page.nextCursor))
        }

        routes.get(base + "/{taskId}") { _, context in
            let app = try AppRoutes.app(context, env)
            let taskId = try context.parameters.require("taskId")
            guard let task = app.runtime.backgroundTasks.first(where: { $0.id == taskId }) else {
                throw EmulationError.notFound(kind: "background task", id: taskId)
            }
            return try JSONBody.response(BackgroundTaskBody(task: task))
        }

        routes.delete(base + "/{taskId}") { _, context in
            try env.devices.perform(
                .endBackgroundTask(bundleId: context.parameters.require("bundleId"), .id(context.parameters.require("taskId"))),
                for: context)
            return HTTPResponse(status: .noContent)
        }
    }

    /// `UIBackgroundTaskInvalid` on a device without multitasking (R14).
    struct InvalidTaskBody: Encodable {
        @ExplicitNull var id: String? = nil
        var invalid = true
        var reason = "This device does not support multitasking: beginBackgroundTask returns UIBackgroundTaskInvalid."
    }
}
