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
}
