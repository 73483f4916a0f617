import Emulation
import HTTPServer
import Service

/// `/v1/forecasts…`: the tenant's fleet forecasts (issue 14), run in the background by the ``ForecastService``.
enum ForecastRoutes {
    static func register(on routes: inout RouteGroup, _ env: APIEnvironment) {
        guard let forecasts = env.forecasts else { return }

        routes.post("/forecasts") { request, context in
            let tenant = try context.tenant()
            let body = try JSONBody.decode(ForecastRequest.self, from: request)
            let record = try forecasts.start(body, tenantId: tenant.id)
            return try JSONBody.response(
                ForecastBody(record), status: .accepted, headers: ["Location": "/v1/forecasts/\(record.id)"])
        }

        routes.get("/forecasts") { _, context in
            let list = try forecasts.forecasts(tenantId: try context.tenant().id)
            return try JSONBody.response(ForecastListBody(forecasts: list.map { ForecastBody($0, withResult: false) }))
        }

        routes.get("/forecasts/{forecastId}") { _, context in
            let id = try context.parameters.require("forecastId")
            guard let record = try forecasts.forecast(tenantId: try context.tenant().id, id: id) else {
                throw Problems.notFound("forecast", id)
            }
            return try JSONBody.response(ForecastBody(record))
        }

        routes.delete("/forecasts/{forecastId}") { _, context in
            let id = try context.parameters.require("forecastId")
            guard try forecasts.delete(tenantId: try context.tenant().id, id: id) else { throw Problems.notFound("forecast", id) }
            return HTTPResponse(status: .noContent)
        }

        routes.get("/forecasts/{forecastId}/devices") { _, context in
            let id = try context.parameters.require("forecastId")
            guard let csv = try forecasts.csv(tenantId: try context.tenant().id, id: id) else {
                throw Problems.notFound("forecast", id)
            }
            return HTTPResponse(
                status: .ok, contentType: "text/csv; charset=utf-8", bytes: Array(csv.utf8),
                headers: ["Content-Disposition": "attachment; filename=\"forecast-\(id).csv\""])
        }
    }
}
