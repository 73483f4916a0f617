import Emulation
import HTTPServer

/// `…/apps/{bundleId}/runs` (every grant of background time) and `…/fetch-interval` (R22, R23, R28).
enum RunRoutes {
    static let base = "/v1/devices/{deviceId}/apps/{bundleId}/runs"

    static func register(on router: inout Router, _ env: APIEnvironment) {
        router.get(base) { request, context in
            let paging = try Pagination(request)
            let app = try AppRoutes.app(context, env)
            let page = try paging.page(of: app.runtime.runs)
            return try JSONBody.response(PageBody(items: page.items.map(RunBody.init), nextCursor: page.nextCursor))
        }

        router.get(base + "/{runId}") { _, context in
            let app = try AppRoutes.app(context, env)
            let runId = context.parameters["runId"] ?? ""
            return try JSONBody.response(RunBody(run: try TaskRequestRoutes.runOrNotFound(
                app.runtime.runs.first { $0.id == runId }, runId)))
        }

        router.post(base + "/{runId}/complete") { request, context in
            let body = try JSONBody.decode(CompleteRunRequest.self, from: request)
            let bundleId = context.parameters["bundleId"] ?? ""
            let runId = context.parameters["runId"] ?? ""
            let (device, _) = try env.devices.perform(for: context) { engine in
                try engine.completeRun(bundleId, runId: runId, result: body.result)
            }
            return try JSONBody.response(RunBody(run: try TaskRequestRoutes.runOrNotFound(
                device.app(bundleId)?.runtime.runs.first { $0.id == runId }, runId)))
        }

        router.put("/v1/devices/{deviceId}/apps/{bundleId}/fetch-interval") { request, context in
            let body = try JSONBody.decode(FetchIntervalBody.self, from: request)
            try env.devices.perform(for: context) { engine in
                try engine.setFetchInterval(context.parameters["bundleId"] ?? "", body.interval)
            }
            return try JSONBody.response(body)
        }
    }
}
