import Emulation
import HTTPServer

/// `…/apps/{bundleId}/runs` (every grant of background time, a continued processing task's progress and the user's
/// cancel) and `…/fetch-interval` (R22, R23, R28, R41).
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

        routes.post(base + "/{runId}/progress") { request, context in
            let body = try JSONBody.decode(RunProgressRequest.self, from: request)
            let bundleId = try context.parameters.require("bundleId")
            let (_, outcome) = try env.devices.perform(
                body.command(bundleId: bundleId, runId: context.parameters.require("runId")), for: context)
            return try JSONBody.response(RunBody(run: try outcome.value(\.run)))
        }

        routes.post(base + "/{runId}/cancel") { _, context in
            let (_, outcome) = try env.devices.perform(
                .cancelContinuedProcessing(
                    bundleId: context.parameters.require("bundleId"), runId: context.parameters.require("runId")),
                for: context)
            return try JSONBody.response(RunBody(run: try outcome.value(\.run)))
        }

        routes.put("/devices/{deviceId}/apps/{bundleId}/fetch-interval") { request, context in
            let body = try JSONBody.decode(FetchIntervalBody.self, from: request)
            try env.devices.perform(body.command(bundleId: context.parameters.require("bundleId")), for: context)
            return try JSONBody.response(body)
        }
    }
}
