import Emulation
import Foundation
import Stores

/// The answer of `POST /v1/scenarios/run`.
public struct ScenarioReport: Encodable, Sendable {
    var scenario: String
    public var deviceId: String
    var passed: Bool
    /// The virtual seconds the run lasted.
    var duration: Double
    var steps: [StepReport]
    var expectations: [ExpectationReport]

    struct StepReport: Encodable, Sendable {
        var index: Int
        var action: String
        @ExplicitNull var bundleId: String?
        var at: Double
        var ok: Bool
        @ExplicitNull var error: String?
    }

    struct ExpectationReport: Encodable, Sendable {
        var index: Int
        var description: String
        var passed: Bool
        var message: String
        var events: [EventReport]
    }

    /// An event as the report shows it: the event log's fields and `t`, seconds since the scenario's start.
    struct EventReport: Encodable, Sendable {
        var id: Int64
        var type: String
        @ExplicitNull var bundleId: String?
        var at: String
        var t: Double
        var data: [String: EventValue]

        init(_ recorded: RecordedEvent, seconds: Double) {
            id = recorded.publicId  // as the tenant's clients know it, after a move too
            type = recorded.event.type.rawValue
            bundleId = recorded.event.bundleId
            at = RFC3339.format(recorded.event.at)
            t = seconds
            data = recorded.event.data
        }
    }

    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
