import Foundation
import HTTPServer
import Testing

/// An upload's admission lease is given back when its answer is made, before a byte of it is written: a client that
/// sends its next upload as soon as it reads an answer never finds its own finished upload still holding a slot
/// (the status-coverage run met `429 tooManyUploads` so, one upload at a time, when the slot went with the last
/// copy of the request, after the answer).
@Suite struct UploadLeaseTimingTests {
    final class CountedLease: Sendable {
        let live: LiveCount
        init(_ live: LiveCount) {
            self.live = live
            live.withLock { $0 += 1 }
        }
        deinit { live.withLock { $0 -= 1 } }
    }

    @Test func theLeaseIsGoneWhenTheClientReadsTheAnswer() throws {
        let live = LiveCount()
        let server = try CoreTestServer(configure: { configuration in
            configuration.maxBodySize = 64 << 10
            configuration.bodySizeLimit = { _, path in path == "/upload" ? 8 << 20 : nil }
            configuration.uploadAdmission = { _ in .admitted(lease: CountedLease(live)) }
        }, responder: CoreTestServer.echo)
        defer { server.stop() }
        let client = try server.client()
        for index in 0..<50 {
            try client.send("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello")
            #expect(try client.readResponse().status == 200)
            // No wait: the answer was written after the lease was given back.
            #expect(live.withLock { $0 } == 0, "upload \(index) still holds its lease after its answer")
        }
    }
}
