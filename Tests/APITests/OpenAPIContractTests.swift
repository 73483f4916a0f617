import Foundation
import Testing
import Yams
@testable import API

/// The router and `openapi.yaml` must name the same routes: a route missing from either side fails.
@Suite struct OpenAPIContractTests {
    static let implicitMethods: Set<String> = ["head", "options"]

    static func specURL() -> URL {
        // Tests/APITests/OpenAPIContractTests.swift → the repository root.
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("openapi.yaml")
    }

    static func specRoutes() throws -> Set<String> {
        let text = try String(contentsOf: specURL(), encoding: .utf8)
        let document = try #require(try Yams.load(yaml: text) as? [String: Any])
        #expect((document["openapi"] as? String)?.hasPrefix("3.1") == true)
        let paths = try #require(document["paths"] as? [String: Any])
        var routes = Set<String>()
        for (path, item) in paths {
            let operations = try #require(item as? [String: Any])
            for method in operations.keys where ["get", "put", "post", "delete", "patch"].contains(method) {
                routes.insert("\(method.uppercased()) \(path)")
            }
        }
        return routes
    }

    @Test func everyRouteIsInTheSpecAndEverySpecRouteExists() throws {
        let api = try APIHarness()
        let routed = Set(api.router.routes.map { "\($0.method.rawValue) \($0.pattern)" })
        let specified = try Self.specRoutes()
        #expect(routed.subtracting(specified).sorted() == [], "routes missing from openapi.yaml")
        #expect(specified.subtracting(routed).sorted() == [], "operations in openapi.yaml that no route serves")
    }

    /// A path parameter that is not valid percent-encoded UTF-8 is a `400` (`invalidPath`) on every route that
    /// has one, so every such operation documents `400` (schemathesis sends no such path, so this test does).
    @Test func everyOperationDocumentsTheStatusesOfTheHTTPLayer() throws {
        let text = try String(contentsOf: Self.specURL(), encoding: .utf8)
        let document = try #require(try Yams.load(yaml: text) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: Any])
        var missing: [String] = []
        for (path, item) in paths where path.contains("{") {
            let operations = try #require(item as? [String: Any])
            for (method, operation) in operations where ["get", "put", "post", "delete", "patch"].contains(method) {
                let responses = (operation as? [String: Any])?["responses"] as? [String: Any] ?? [:]
                if responses["400"] == nil { missing.append("\(method.uppercased()) \(path)") }
            }
        }
        #expect(missing.sorted() == [])
        // 413 and 431 come from the HTTP layer before routing, so every operation can answer them.
        var transport: [String] = []
        for (path, item) in paths {
            let operations = try #require(item as? [String: Any])
            for (method, operation) in operations where ["get", "put", "post", "delete", "patch"].contains(method) {
                let responses = (operation as? [String: Any])?["responses"] as? [String: Any] ?? [:]
                if responses["413"] == nil || responses["431"] == nil { transport.append("\(method.uppercased()) \(path)") }
            }
        }
        #expect(transport.sorted() == [])
        let api = try APIHarness()
        let key = try api.makeTenant("acme").key
        let answer = api.send(.get, "/v1/devices/%FF", key: key)
        #expect(answer.status == 400 && answer.json["code"] as? String == "invalidPath")
    }
}
