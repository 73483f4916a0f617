@testable import HTTPServer
import Glibc
import Synchronization
import Testing

/// An upload's body in the parser: spooled to a file past 1 MiB rather than grown in an array, a chunked one
/// refused the moment it would pass its limit, and its gzip coding left for the worker.
@Suite struct UploadSpoolTests {
    /// A parser whose `/upload` route allows `uploadLimit` bytes, the rest 64 KiB.
    private func parser(uploadLimit: Int) -> HTTPRequestParser {
        HTTPRequestParser(limits: HTTPRequestParser.Limits(
            maxHeaderSize: 16 << 10, maxBodySize: 64 << 10,
            bodySizeLimit: { _, path in path == "/upload" ? uploadLimit : nil }))
    }

    /// Feeds `bytes` in 64 KiB reads, as a loop does; returns the last event and whether every byte was taken.
    private func feed(_ parser: inout HTTPRequestParser, _ bytes: [UInt8]) -> HTTPRequestParser.Event {
        var event = HTTPRequestParser.Event.needMore
        var offset = 0
        bytes.withUnsafeBytes { all in
            while offset < all.count {
                let end = min(all.count, offset + (64 << 10))
                let (consumed, next) = parser.parse(UnsafeRawBufferPointer(rebasing: all[offset..<end]))
                offset += consumed
                event = next
                if case .failure = next { return }
                if case .request = next { return }
                if consumed == 0, case .needMore = next { return }
            }
        }
        return event
    }

    private func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) } }

    @Test func aLargeUploadIsSpooledToAFileNotHeldInAnArray() throws {
        var parser = parser(uploadLimit: 8 << 20)
        let body = pattern(3 << 20)
        let head = Array("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
        let event = feed(&parser, head + body)
        guard case .request(let parsed) = event else { Issue.record("no request: \(event)"); return }
        let spooled = try #require(parsed.request.spooledBody)
        #expect(parsed.request.body.isEmpty)
        #expect(spooled.count == body.count)
        #expect(parsed.request.withBodyBytes { $0.elementsEqual(body) })
        #expect(parser.body.capacity < 2 << 20, "the parser grew an array for the upload")
    }

    /// Issue 26: a prepared upload's spool is freed by the thread that prepared it (the heavy-work pool's, at the
    /// lowest priority), not by the worker that drops the request last: its blocks and pages go at once, while a
    /// copy of the request still holds the (now empty) file.
    @Test func discardingASpooledBodyFreesItsPagesWhileACopyStillHoldsTheFile() throws {
        var parser = parser(uploadLimit: 8 << 20)
        let body = pattern(3 << 20)
        let head = Array("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
        guard case .request(let parsed) = feed(&parser, head + body) else { Issue.record("no request"); return }
        let held = parsed.request
        let spooled = try #require(held.spooledBody)
        func blocks() -> Int {
            var status = stat()
            return fstat(spooled.descriptor, &status) == 0 ? Int(status.st_blocks) : -1
        }
        #expect(blocks() >= (3 << 20) / 512)
        var discarded = parsed.request
        discarded.discardBody()
        #expect(discarded.bodyCount == 0 && discarded.spooledBody == nil)
        #expect(blocks() == 0)
        #expect(held.spooledBody?.count == body.count)  // the copy's file keeps its size, reading as zeros
    }

    @Test func anOrdinaryBodyStaysInMemory() {
        var parser = parser(uploadLimit: 8 << 20)
        let event = feed(&parser, Array("POST /other HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello".utf8))
        guard case .request(let parsed) = event else { Issue.record("no request: \(event)"); return }
        #expect(parsed.request.spooledBody == nil && parsed.request.body == Array("hello".utf8))
    }

    @Test func aChunkedUploadIsRefusedTheMomentItWouldPassItsLimitWithNothingBufferedInMemory() {
        var parser = parser(uploadLimit: 4 << 20)
        var bytes = Array("POST /upload HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        let chunk = pattern(256 << 10)
        for _ in 0..<16 { bytes += Array("40000\r\n".utf8) + chunk + Array("\r\n".utf8) }  // 4 MiB: at the limit
        _ = feed(&parser, bytes)
        #expect(parser.receivedBodyBytes == 4 << 20)
        #expect(parser.body.count == 0, "an upload's bytes past 1 MiB are in the spool, not in memory")
        // One byte more is refused at its chunk's size line, before the chunk's data arrives.
        let event = feed(&parser, Array("1\r\n".utf8))
        guard case .failure(let error) = event else { Issue.record("not refused: \(event)"); return }
        #expect(error.status == .contentTooLarge)
        #expect(parser.spool == nil && parser.body.isEmpty, "a refused upload lets its spool go at once")
    }

    @Test func anUploadsGzipCodingIsLeftForTheWorkerAndBoundedThere() throws {
        let content = [UInt8](repeating: 0, count: 6 << 20)
        let gzipped = try #require(Gzip.compress(content))
        func parsed(limit: Int) throws -> HTTPRequest {
            var parser = parser(uploadLimit: limit)
            let head = "POST /upload HTTP/1.1\r\nHost: a\r\nContent-Encoding: gzip\r\nContent-Length: \(gzipped.count)\r\n\r\n"
            let event = feed(&parser, Array(head.utf8) + gzipped)
            guard case .request(let parsed) = event else { throw ParseFailed() }
            return parsed.request
        }
        // Left coded by the parser (the loop), decoded by the worker: into a spool, being past 1 MiB.
        var request = try parsed(limit: 8 << 20)
        #expect(request.hasDeferredContentCoding && request.headers["Content-Encoding"] == "gzip")
        #expect(request.decodeDeferredContentCoding() == nil)
        #expect(request.headers["Content-Encoding"] == nil && request.spooledBody?.count == content.count)
        #expect(request.withBodyBytes { $0.allSatisfy { $0 == 0 } })
        // A bomb: 6 MiB of content under a 4 MiB limit is a 413, found by the worker.
        var bomb = try parsed(limit: 4 << 20)
        #expect(bomb.decodeDeferredContentCoding() == .decodedBodyTooLarge)
    }

    @Test func anUploadIsReportedFromItsHeadForAdmissionEvenWhenItsBodyIsThere() {
        var parser = parser(uploadLimit: 8 << 20)
        let bytes = Array("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello".utf8)
        let (consumed, event) = bytes.withUnsafeBytes { parser.parse($0) }
        guard case .bodyPending = event else { Issue.record("not reported from its head: \(event)"); return }
        #expect(parser.awaitsAdmission)
        let rest = bytes.withUnsafeBytes { parser.parse(UnsafeRawBufferPointer(rebasing: $0[consumed...])) }
        guard case .request = rest.event else { Issue.record("no request: \(rest.event)"); return }
    }

    private struct ParseFailed: Error {}
}

/// An upload's lease (its tenant's upload slot) is given back when its answer is made, whichever copy of the request
/// holds it: the heavy-work thread that read and discarded the body (or decoded its gzip) keeps a copy with extras of
/// its own, and at the lowest priority it may drop that copy long after the client had its answer. CI once saw a
/// tenant's third upload refused `429` because its first two, answered, were still counted.
@Suite struct UploadLeaseSharingTests {
    /// A lease that says when it is given back.
    final class Lease: Sendable {
        let released: @Sendable () -> Void
        init(released: @escaping @Sendable () -> Void) { self.released = released }
        deinit { released() }
    }

    @Test func endingTheLeaseOfAnAnsweredRequestGivesItBackWhileACopyWithItsBodyDiscardedLives() {
        let released = Mutex(false)
        var request = HTTPRequest(method: .post, target: "/upload", body: Array("zip".utf8))
        request.extras = RequestBodyExtras(
            spooled: nil, lease: Lease(released: { released.withLock { $0 = true } }), gzipLimit: nil)
        var heavyWorkCopy = request
        heavyWorkCopy.discardBody()  // new extras for the copy, as the heavy-work thread makes them
        #expect(heavyWorkCopy.extras?.lease != nil)
        request.extras?.endLease()  // the answer is made from the worker's copy
        #expect(released.withLock { $0 }, "the slot is free before the answer reaches the client")
        #expect(heavyWorkCopy.extras?.lease == nil)
        withExtendedLifetime(heavyWorkCopy) {}
    }
}
