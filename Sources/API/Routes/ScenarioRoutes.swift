import Emulation
import HTTPServer
import Service

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
            let (deviceRequest, scenario) = try ScenarioParser.parse(request.body)
            let device: Device
            do {
                device = try DeviceRoutes.makeDevice(deviceRequest, tenantId: tenant.id, env)
            } catch EmulationError.invalid(let issues) {
                throw EmulationError.invalid(issues.map { FieldIssue("device.\($0.field)", $0.message) })
            }
            let runner = ScenarioRunner(devices: env.devices, events: env.events.store, describe: describe)
            let report = try runner.run(scenario, on: device)
            return try JSONBody.response(report, headers: ["Location": "/v1/devices/\(report.deviceId)"])
        }
    }

    /// A step's error as its report shows it, `code: detail` of its problem; nil for a `5xx`, which fails the run.
    static func describe(_ error: any Error) -> String? {
        guard let problem = Problems.problem(for: error), problem.status.code < 500 else { return nil }
        return "\(problem.code ?? "error"): \(problem.detail ?? problem.title)"
    }
}
