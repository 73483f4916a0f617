// A page or a resume from before the retained events: `410 Gone`, with where the retained range starts.
import Foundation
import HTTPServer

/// Where the retained events of a device or a tenant begin, once the event retention pruned some of them.
public struct PrunedEvents: Sendable, Equatable {
    /// The greatest pruned id: a page or a resume after an id below it would skip events; after this one, none.
    public var lastPrunedId: Int64
    /// The oldest event still held after ``lastPrunedId``; nil when none is.
    public var oldestHeldId: Int64?

    public init(lastPrunedId: Int64, oldestHeldId: Int64?) {
        self.lastPrunedId = lastPrunedId
        self.oldestHeldId = oldestHeldId
    }
}

/// How the API learns what was pruned, for a tenant (`deviceId` nil) or one of its devices; nil when nothing was.
public typealias PrunedEventsLookup = @Sendable (_ tenantId: String, _ deviceId: String?) throws -> PrunedEvents?

/// `410` problem `eventsPruned`: the problem document with two extension members (RFC 9457 §3.2), `oldestEventId`
/// (when an event is held) and `lastPrunedEventId`, from which a page (`after=`) or a resume (`Last-Event-ID`)
/// continues without a gap.
struct EventsPrunedProblem: HTTPResponseError, Equatable {
    static let gone = HTTPStatus(code: 410, reasonPhrase: "Gone")

    var pruned: PrunedEvents
    var detail: String

    var status: HTTPStatus { Self.gone }

    var problem: HTTPProblem { HTTPProblem(status: status, code: "eventsPruned", detail: detail) }

    func response() -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/problem+json", bytes: body())
    }

    /// The members of ``HTTPProblem``'s body and the two extensions, keys sorted as it sorts them.
    func body() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let problem = problem
        let wire = Wire(
            type: problem.type, title: problem.title, status: status.code, detail: problem.detail, code: problem.code,
            oldestEventId: pruned.oldestHeldId, lastPrunedEventId: pruned.lastPrunedId)
        return Array((try? encoder.encode(wire)) ?? Data())
    }

    private struct Wire: Encodable {
        var type: String
        var title: String
        var status: Int
        var detail: String?
        var code: String?
        var oldestEventId: Int64?
        var lastPrunedEventId: Int64
    }
}
