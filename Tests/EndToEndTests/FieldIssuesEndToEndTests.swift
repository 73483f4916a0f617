import Foundation
import Testing

/// The real executable names every wrongly typed field of a body in one answer, a number too large for its field
/// by that field, and where a body that is not JSON stops being JSON (issue 29 §3).
@Suite(.serialized) struct FieldIssuesEndToEndTests {
    static let key = "field-issues-e2e-key-0123456789"

    /// The field issues of an answer, as `field: message`.
    static func issues(_ answer: TestClient.Response) -> [String] {
        (answer.json["errors"] as? [[String: Any]] ?? []).map { "\($0["field"] ?? ""): \($0["message"] ?? "")" }
    }

    @Test func everyWrongFieldIsNamedInOneAnswer_aSeedOf2To64BlamesSeed_andBrokenJSONSaysWhere() throws {
        let service = try LiveService()
        try service.start(apiKey: Self.key)
        defer { service.stop() }
        let client = service.client(key: Self.key)

        let device = try client.request(
            "POST", "/v1/devices", json: #"{"name": 5, "conditions": {"batteryLevel": "full"}, "seed": true}"#)
        #expect(device.status == 422)
        #expect(device.header("Content-Type") == "application/problem+json")
        #expect(device.json["code"] as? String == "validationFailed")
        #expect(Self.issues(device) == [
            "name: must be a string, not a number", "conditions.batteryLevel: must be an integer, not a string",
            "seed: must be an integer, not a boolean",
        ])
        #expect(device.json["detail"] as? String == Self.issues(device).joined(separator: "; "))

        let forecast = try client.request("POST", "/v1/forecasts", json: """
            {"seed": 18446744073709551616, "devices": "ten", "days": 1,
             "app": {"bundleId": "com.example.weather", "infoPlist": {"UIBackgroundModes": ["fetch"]}}}
            """)
        #expect(forecast.status == 422)
        #expect(Self.issues(forecast) == [
            "seed: must be an integer from 0 to 18446744073709551615, not 18446744073709551616",
            "devices: must be an integer, not a string",
        ])

        let broken = try client.request("POST", "/v1/devices", json: "{\"name\": \"a\",\n \"seed\": x}")
        #expect(broken.status == 400)
        #expect(broken.json["detail"] as? String == "The body is not valid JSON at line 2, column 10 (byte 23).")

        #expect(try client.request("POST", "/v1/devices", json: #"{"name": "a", "seed": 18446744073709551615}"#).status == 201)
    }
}
