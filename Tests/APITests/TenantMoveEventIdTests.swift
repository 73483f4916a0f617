import Foundation
import Logging
import Testing
@testable import API
@testable import HTTPServer

/// A moved tenant's events keep the ids its clients know (issue 30: "events with their ids"), on a target whose own
/// log has other tenants' events at those ids: in pages, in cursors, on the stream, in a `410`, and after it.
@Suite struct TenantMoveEventIdTests {
    let admin = APIHarness.adminToken

    /// The ids of a tenant's events, every page of them.
    private func listedIds(_ api: APIHarness, key: String, query: String = "") -> [Int] {
        api.send(.get, "/v1/events?limit=500" + query, key: key).items.compactMap { $0["id"] as? Int }
    }

    /// A stream opened as the server would open it, recorded.
    private func openStream(_ api: APIHarness, key: String, lastEventId: Int) -> RecordingStreamWriter {
        let writer = RecordingStreamWriter()
        let request = HTTPRequest(
            method: .get, target: "/v1/events",
            headers: ["Authorization": "Bearer \(key)", "Accept": "text/event-stream", "Last-Event-ID": String(lastEventId)])
        let response = try? api.responder.respond(to: request, context: HTTPRequestContext(requestId: "test", logger: Logger(label: "test")))
        if case .stream(let stream) = response?.body { stream.start(writer) }
        return writer
    }

    /// `tenant`'s export from `source`, imported into `target`.
    private func move(_ tenant: String, from source: APIHarness, to target: APIHarness) {
        let export = source.send(.get, "/v1/admin/tenants/\(tenant)/export", key: admin)
        let imported = target.send(
            .post, "/v1/admin/tenants/import", key: admin, body: export.body, headers: ["Content-Type": "application/json"])
        #expect(imported.status == 201, "\(imported.text)")
    }

    @Test func aMovedTenantsEventsKeepTheirIdsInPagesCursorsAndStreams() throws {
        let source = try APIHarness()
        let target = try APIHarness()
        let tenant = try source.makeTenant("moving")
        let neighbour = try source.makeTenant("neighbour")
        let resident = try target.makeTenant("resident")
        // Interleaved with a neighbour's on the source, and the target's own log holds other events at those ids.
        for index in 0..<4 {
            _ = try source.makeDevice(key: tenant.key, json: #"{"name":"phone \#(index)"}"#)
            _ = try source.makeDevice(key: neighbour.key)
            _ = try target.makeDevice(key: resident.key)
            _ = try target.makeDevice(key: resident.key)
        }
        let sourceIds = listedIds(source, key: tenant.key)
        let sourceBodies = source.send(.get, "/v1/events?limit=500", key: tenant.key).items
        #expect(sourceIds.count == 4)
        #expect(Set(sourceIds).isSubset(of: Set(listedIds(target, key: resident.key))))  // taken there

        move(tenant.id, from: source, to: target)
        // The same events with the same ids, and the same bodies.
        #expect(listedIds(target, key: tenant.key) == sourceIds)
        let targetBodies = target.send(.get, "/v1/events?limit=500", key: tenant.key).items
        #expect(NSArray(array: targetBodies).isEqual(to: sourceBodies))
        // Newest first too, and one page at a time: the cursor is an id the client knows.
        #expect(listedIds(target, key: tenant.key, query: "&order=desc") == sourceIds.reversed())
        let first = target.send(.get, "/v1/events?limit=2", key: tenant.key)
        #expect(first.json["nextCursor"] as? String == String(sourceIds[1]))
        #expect(listedIds(target, key: tenant.key, query: "&cursor=\(sourceIds[1])") == Array(sourceIds.dropFirst(2)))
        // Newest first, one page at a time: each cursor (`before`) is an id the client knows too.
        var walked: [Int] = []
        var cursor: String?
        repeat {
            let page = target.send(
                .get, "/v1/events?order=desc&limit=1" + (cursor.map { "&cursor=\($0)" } ?? ""), key: tenant.key)
            walked += page.items.compactMap { $0["id"] as? Int }
            cursor = page.json["nextCursor"] as? String
        } while cursor != nil && walked.count < 10
        #expect(walked == sourceIds.reversed())
        for (index, after) in sourceIds.enumerated() {
            #expect(listedIds(target, key: tenant.key, query: "&after=\(after)") == Array(sourceIds.dropFirst(index + 1)))
        }
        // The stream resumes after an id read on the source and sends the ids the source sent.
        let stream = openStream(target, key: tenant.key, lastEventId: sourceIds[0])
        #expect(stream.wait { $0.eventIds.map(Int.init) == Array(sourceIds.dropFirst()) })
        // A new event comes after them, with an id greater than every one the tenant had.
        let device = try target.makeDevice(key: tenant.key, json: #"{"name":"new"}"#)
        let all = listedIds(target, key: tenant.key)
        #expect(all.dropLast() == sourceIds[...] && all.last! > sourceIds.last!)
        #expect(stream.wait { $0.eventIds.map(Int.init) == Array(all.dropFirst()) })
        #expect(target.send(.get, "/v1/devices/\(device)/events", key: tenant.key).items.compactMap { $0["id"] as? Int } == [all.last!])
    }

    @Test func aSecondMoveKeepsTheIdsOfTheFirstShard() throws {
        let a = try APIHarness()
        let b = try APIHarness()
        let c = try APIHarness()
        let tenant = try a.makeTenant("traveller")
        for harness in [b, c] {
            let resident = try harness.makeTenant("resident")
            for _ in 0..<6 { _ = try harness.makeDevice(key: resident.key) }
        }
        for _ in 0..<3 { _ = try a.makeDevice(key: tenant.key) }
        let onA = listedIds(a, key: tenant.key)
        move(tenant.id, from: a, to: b)
        _ = try b.makeDevice(key: tenant.key)
        let onB = listedIds(b, key: tenant.key)
        #expect(Array(onB.prefix(3)) == onA)
        move(tenant.id, from: b, to: c)
        #expect(listedIds(c, key: tenant.key) == onB)
        #expect(listedIds(c, key: tenant.key, query: "&after=\(onA[0])") == Array(onB.dropFirst()))
        #expect(listedIds(c, key: tenant.key, query: "&after=\(onB[2])") == [onB[3]])
    }

    @Test func aPageFromBeforeWhatWasPrunedIs410WithTheIdsTheClientKnows() throws {
        let source = try APIHarness()
        let target = try APIHarness()
        let tenant = try source.makeTenant("pruned")
        let resident = try target.makeTenant("resident")
        for _ in 0..<10 { _ = try target.makeDevice(key: resident.key) }
        for _ in 0..<4 { _ = try source.makeDevice(key: tenant.key) }
        let ids = listedIds(source, key: tenant.key)
        // The retention pruned the first two events of the tenant on the source.
        try source.database.write { db in
            try db.execute("DELETE FROM events WHERE tenant_id = ? AND id <= ?", [tenant.id, Int64(ids[1])])
            try db.execute("INSERT INTO tenant_event_watermarks VALUES (?, ?)", [tenant.id, Int64(ids[1])])
        }
        let there = source.send(.get, "/v1/events?after=\(ids[0])", key: tenant.key)
        move(tenant.id, from: source, to: target)
        let here = target.send(.get, "/v1/events?after=\(ids[0])", key: tenant.key)
        #expect(here.status == 410 && there.status == 410)
        #expect(here.json["lastPrunedEventId"] as? Int == ids[1])
        #expect(here.json["oldestEventId"] as? Int == ids[2])
        #expect(here.json["detail"] as? String == there.json["detail"] as? String)
        // Continuing from what it names lists the rest.
        #expect(listedIds(target, key: tenant.key, query: "&after=\(ids[1])") == Array(ids.dropFirst(2)))
    }
}
