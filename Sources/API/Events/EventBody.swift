import CompactJSON
import Emulation
import Foundation
import HTTPServer
import Service
import Stores

/// An event on the wire, in a JSON page and as the `data:` of a stream event:
/// `{id, type, deviceId, bundleId (string or null), at, recordedAt, data}`, keys sorted.
///
/// `at` is the virtual instant of the device's clock and `recordedAt` the wall time of recording, both RFC 3339
/// in UTC with milliseconds.
struct EventBody: Encodable {
    var id: Int64
    var type: String
    var deviceId: String
    @ExplicitNull var bundleId: String?
    var at: String
    var recordedAt: String
    var data: [String: EventValue]

    init(_ recorded: RecordedEvent) {
        id = recorded.publicId  // as the tenant's clients know it, after a move too
        type = recorded.event.type.rawValue
        deviceId = recorded.deviceId
        bundleId = recorded.event.bundleId
        at = RFC3339.format(recorded.event.at)
        recordedAt = recorded.recordedAt.rfc3339
        data = recorded.event.data
    }

    /// The event as one block of a `text/event-stream` (WHATWG HTML §9.2.5): `id:` the event id (what the client
    /// echoes in `Last-Event-ID`), `event:` its type, `data:` this body's JSON on one line.
    static func streamBytes(_ recorded: RecordedEvent, encoder: CompactJSONEncoder) throws -> [UInt8] {
        let json = String(decoding: try encoder.encode(EventBody(recorded)), as: UTF8.self)
        return ServerSentEvent(id: String(recorded.publicId), event: recorded.event.type.rawValue, data: json).encoded()
    }

    /// The encoder of stream data: as `JSONBody.response`, keys sorted and slashes as they are.
    static func makeEncoder() -> CompactJSONEncoder {
        JSONBody.encoder
    }
}
