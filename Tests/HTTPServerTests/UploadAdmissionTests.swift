import Foundation
import HTTPServer
import Testing

/// A count shared between the test and the server's threads.
final class LiveCount: @unchecked Sendable {
    // Sendable: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = 0
    func withLock<Result>(_ body: (inout Int) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// The server's upload admission: asked from an upload's head before its body is read, its refusal answered at
/// once, its lease held by the request and let go however the request ends.
@Suite struct UploadAdmissionTests {
    /// Counts the leases alive.
    final class Lease: Sendable {
        let live: LiveCount
        init(_ live: LiveCount) {
            self.live = live
            live.withLock { $0 += 1 }
        }
        deinit { live.withLock { $0 -= 1 } }
    }

    /// A server whose `/upload` takes 8 MiB, its admission handing out counted leases (refusing when `refuse`).
    private func server(_ live: LiveCount, refuse: Bool = false) throws -> CoreTestServer {
        try CoreTestServer(configure: { configuration in
            configuration.maxBodySize = 64 << 10
            configuration.bodySizeLimit = { _, path in path == "/upload" ? 8 << 20 : nil }
            configuration.uploadAdmission = { _ in
                refuse
                    ? .refused(HTTPResponse(status: .tooManyRequests, contentType: "text/plain", bytes: Array("busy".utf8)))
                    : .admitted(lease: Lease(live))
            }
        }, responder: CoreTestServer.echo)
    }

    /// Waits (bounded, by polling) until no lease is alive; false when some still are.
    private func released(_ live: LiveCount) -> Bool {
        coreWaitUntil { live.withLock { $0 } == 0 }
    }

    /// Waits (bounded, by polling) until a lease is alive.
    private func leased(_ live: LiveCount) -> Bool {
        coreWaitUntil { live.withLock { $0 } > 0 }
    }

    @Test func aLeaseIsHeldWhileTheBodyIsReadAndLetGoWhenTheAnswerIsWritten() throws {
        let live = LiveCount()
        let server = try server(live)
        defer { server.stop() }
        let client = try server.client()
        try client.send("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\nhello")
        #expect(leased(live))
        #expect(live.withLock { $0 } == 1, "the half-sent upload holds its lease")
        try client.send("world")
        #expect(try client.readResponse().status == 200)
        #expect(released(live))
    }

    @Test func aLeaseIsLetGoWhenTheClientGoesMidBodyOrTheFramingFails() throws {
        let live = LiveCount()
        let server = try server(live)
        defer { server.stop() }
        do {
            let gone = try server.client()
            try gone.send("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\nPK")
            #expect(leased(live), "the upload was admitted before its client went")
        }
        #expect(released(live), "a connection closed mid-body gives its lease back")
        let malformed = try server.client()
        try malformed.send("POST /upload HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
        #expect(try malformed.readResponse().status == 400)
        #expect(released(live), "a framing error gives the lease back while the connection lingers")
    }

    @Test func aRefusedUploadIsAnsweredFromItsHeadAndItsBodyNeverRead() throws {
        let live = LiveCount()
        let server = try server(live, refuse: true)
        defer { server.stop() }
        let client = try server.client()
        try client.send("POST /upload HTTP/1.1\r\nHost: a\r\nContent-Length: 1000000\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 429 && response.header("Connection") == "close")
        // An ordinary request on the same server is not asked about.
        let other = try server.client()
        try other.send("POST /other HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nok")
        #expect(try other.readResponse().status == 200)
    }
}
