import Emulation
import HTTPServer

/// `…/apps/{bundleId}/runs` (every grant of background time) and `…/fetch-interval` (R22, R23, R28).
enum RunRoutes {
    static let base = "/devices/{deviceId}/apps/{bundleId}/runs"

    static func register(on routes: inout RouteGroup, _ env: APIEnvironment) {
        routes.get(base) { request, context in
            let paging = try Pagination(request)
            let app = try AppRoutes.app(context, env)
            let page = try paging.page(of: app.runtime.runs)
            return try JSONBody.response(PageBody(items: page.items.map(RunBody.init), nextCursor: page.nextCursor))
        }

        routes.get(base + "/{runId}") { _, context in
            let app = try AppRoutes.app(context, env)
            let runId = try context.parameters.require("runId")
            return try JSONBody.response(RunBody(run: try TaskRequestRoutes.runOrNotFound(
                app.runtime.runs.first { $0.id == runId }, runId)))
        }

        routes.post(base + "/{runId}/complete") { request, context in
            let body = try JSONBody.decode(CompleteRunRequest.self, from: request)
            let bundleId = try context.parameters.require("bundleId")
            let runId = try context.parameters.require("runId")
            let (device, _) = try env.devices.perform(body.command(bundleId: bundleId, .id(runId)), for: context)
            return try JSONBody.response(RunBody(run: try TaskRequestRoutes.runOrNotFound(
                device.app(bundleId)?.runtime.runs.first { $0.id == runId }, runId)))
        }

        routes.put("/devices/{deviceId}/apps/{bundleId}/fetch-interval") { request, context in
            let body = try JSONBody.decode(FetchIntervalBody.self, from: request)
            try env.devices.perform(body.command(bundleId: context.parameters.require("bundleId")), for: context)
            return try JSONBody.response(body)
        }
    }
}
