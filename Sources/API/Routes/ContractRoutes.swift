import HTTPServer

/// `GET /openapi.yaml`: the contract the service was started with, for clients and checkers (schemathesis).
enum ContractRoutes {
    static func register(on router: inout Router, document: [UInt8]?) {
        router.get("/openapi.yaml") { _, _ in
            guard let document else {
                throw HTTPProblem(status: .notFound, code: "notFound", detail: "This instance was started without its openapi.yaml.")
            }
            // RFC 9512 registers application/yaml.
            return HTTPResponse(contentType: "application/yaml", bytes: document, headers: ["Cache-Control": "no-cache"])
        }
    }
}
