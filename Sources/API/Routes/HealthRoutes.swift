import Foundation
import HTTPServer

/// `/healthz` (the process answers) and `/readyz` (the database answers).
enum HealthRoutes {
    static let okBody = Array(#"{"status":"ok"}"#.utf8)
    static let readyBody = Array(#"{"status":"ready"}"#.utf8)

    static func register(on router: inout Router, _ env: APIEnvironment) {
        // A shard says which it is, and a replicated instance so: `{"replicated":true,"shard":"s1","status":"ok"}`
        // (keys sorted, as every answer).
        var fields: [String] = []
        if env.replicated { fields.append(#""replicated":true"#) }
        if let shard = env.shardId {
            fields.append("\"shard\":" + (String(data: (try? JSONEncoder().encode(shard)) ?? Data(), encoding: .utf8) ?? "null"))
        }
        let health = fields.isEmpty ? okBody : Array(("{" + (fields + [#""status":"ok""#]).joined(separator: ",") + "}").utf8)
        router.get("/healthz") { _, _ in
            HTTPResponse(contentType: "application/json", bytes: health, headers: ["Cache-Control": "no-store"])
        }
        router.get("/readyz") { _, _ in
            guard env.isReady() else {
                throw HTTPProblem(
                    status: .serviceUnavailable, code: "notReady", detail: "The database does not answer.",
                    headers: ["Retry-After": "1"])
            }
            return HTTPResponse(contentType: "application/json", bytes: readyBody, headers: ["Cache-Control": "no-store"])
        }
    }
}
