import Foundation
import Glibc
import BGEmuHTTP
import Testing

/// `HTTPClient.open`: a response body read as it arrives, whatever the byte boundaries between reads (RFC 9112 §6.3,
/// §7.1): chunked with extensions, sized, close-delimited; silence past the timeout and a chunked body cut short
/// are errors.
@Suite(.serialized) struct HTTPClientStreamingTests {
    /// A one-connection server on a loopback port that reads the request head and answers `response`, `slice`
    /// bytes at a time, then closes (or, with `holdOpen`, stays silent for that many seconds first).
    final class ScriptedServer: Sendable {
        let port: Int
        private let listener: Int32

        init(response: String, slice: Int, holdOpen: Double = 0) throws {
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            self.listener = listener
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                    bind(listener, raw, length) == 0 && listen(listener, 1) == 0 && getsockname(listener, raw, &length) == 0
                }
            }
            guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
            port = Int(UInt16(bigEndian: address.sin_port))
            let bytes = Array(response.utf8)
            Thread {
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else { return }
                var one: Int32 = 1
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                var request: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while HTTPClient.find([13, 10, 13, 10], in: request, from: 0) == nil {
                    let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                    if n <= 0 { break }
                    request += buffer[0..<n]
                }
                var index = 0
                while index < bytes.count {
                    let end = min(bytes.count, index + slice)
                    _ = bytes[index..<end].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    index = end
                    usleep(1000)  // a server that sends slowly, in slices: the read boundaries under test
                }
                if holdOpen > 0 { Thread.sleep(forTimeInterval: holdOpen) }  // the silence under test
                close(fd)
            }.start()
        }

        deinit { close(listener) }
    }

    func client(_ server: ScriptedServer, timeout: Int = 5) throws -> HTTPClient {
        var client = try HTTPClient(base: "http://127.0.0.1:\(server.port)", apiKey: "k")
        client.timeout = timeout
        return client
    }

    static let chunked = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "5;name=value\r\nhello\r\n6\r\n world\r\n19\r\n, split across many reads\r\n0\r\nTrailer: x\r\n\r\n"

    @Test(arguments: [1, 2, 3, 7, 500])
    func aChunkedBodyIsDechunkedWhateverTheReadBoundaries(slice: Int) throws {
        let server = try ScriptedServer(response: Self.chunked, slice: slice)
        let stream = try client(server).open("GET", "/events", headers: [("Accept", "text/event-stream")])
        defer { stream.close() }
        #expect(stream.status == 200 && stream.head.header("content-type") == "text/event-stream")
        var pieces: [[UInt8]] = []
        while let bytes = try stream.read() { pieces.append(bytes) }
        #expect(String(decoding: pieces.joined(), as: UTF8.self) == "hello world, split across many reads")
        #expect(pieces.allSatisfy { !$0.isEmpty })
        #expect(try stream.read() == nil)
    }

    @Test func aSizedBodyEndsAtItsLengthAndACloseDelimitedOneAtTheClose() throws {
        let sized = try ScriptedServer(response: "HTTP/1.1 404 Not Found\r\nContent-Length: 5\r\n\r\nhello, and more", slice: 4)
        let first = try client(sized).open("GET", "/")
        let body = try first.readAll()
        #expect(first.status == 404 && String(decoding: body, as: UTF8.self) == "hello")
        let closing = try ScriptedServer(response: "HTTP/1.0 200 OK\r\n\r\nuntil the end", slice: 3)
        let second = try client(closing).open("GET", "/")
        #expect(String(decoding: try second.readAll(), as: UTF8.self) == "until the end")
    }

    @Test func silencePastTheTimeoutAndABodyCutShortAreErrors() throws {
        let silent = try ScriptedServer(response: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n", slice: 100, holdOpen: 3)
        let quiet = try client(silent, timeout: 1).open("GET", "/")
        #expect(try quiet.read() == Array("abc".utf8))
        #expect(throws: HTTPClient.ClientError.self) { try quiet.read() }
        let cut = try ScriptedServer(response: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nA\r\nabc", slice: 100)
        let broken = try client(cut).open("GET", "/")
        #expect(try broken.read() == Array("abc".utf8))
        #expect(throws: HTTPClient.ClientError.self) { try broken.read() }
    }
}
