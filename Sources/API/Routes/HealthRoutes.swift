import Foundation
import HTTPServer

/// `/healthz` (the process answers) and `/readyz` (the database answers).
enum HealthRoutes {
    static let okBody = Array(#"{"status":"ok"}"#.utf8)
    static let readyBody = Array(#"{"status":"ready"}"#.utf8)

    static func register(on router: inout Router, _ env: APIEnvironment) {
        // A shard says which it is: `{"shard":"s1","status":"ok"}` (keys sorted, as every answer).
        let health = env.shardId.map { shard in
            Array("{\"shard\":".utf8) + Array((try? JSONEncoder().encode(shard)) ?? Data("null".utf8)) + Array(#","status":"ok"}"#.utf8)
        } ?? okBody
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
