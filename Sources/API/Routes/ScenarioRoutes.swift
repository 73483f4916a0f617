import Emulation
import HTTPServer

/// `POST /v1/scenarios/run`: runs a scenario file on a fresh device of the caller's tenant and answers a report
/// of its expectations (`passed` false when any failed; the status is `200` either way).
enum ScenarioRoutes {
    static func register(on routes: inout RouteGroup, _ env: APIEnvironment) {
        routes.post("/scenarios/run") { request, context in
            let tenant = try context.tenant()
            guard JSONBody.isJSON(request) else {
                throw Problems.unsupportedMediaType(["application/json"], method: request.method)
            }
            if request.body.isEmpty { throw Problems.malformed("The request needs a scenario as its JSON body.") }
            let scenario = try ScenarioParser.parse(request.body)
            let report = try ScenarioRunner(env: env).run(scenario, tenantId: tenant.id)
            return try JSONBody.response(report, headers: ["Location": "/v1/devices/\(report.deviceId)"])
        }
    }
}
