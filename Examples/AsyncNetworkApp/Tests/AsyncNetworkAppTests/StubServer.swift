import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A stub of the app's server for its tests: answers every HTTP request on a free loopback port with `body`
/// (JSON) after a real `delay`, one connection at a time, on a thread of its own.
final class StubServer: @unchecked Sendable {
    // @unchecked Sendable: `served` is behind `lock`; the listening socket is closed once, by `stop`.
    let url: URL
    private let listener: Int32
    private let lock = NSLock()
    private var served = 0

    /// The requests answered so far.
    var requests: Int { lock.withLock { served } }

    init(delay: Duration, body: String) throws {
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = listener
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(fd, generic, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, generic, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        url = URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/headlines")!
        let listening = listener
        let response = Array(
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)".utf8)
        Thread { [self] in
            while true {
                let connection = accept(listening, nil, nil)
                guard connection >= 0 else { return }
                readHead(connection)
                Thread.sleep(forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
                _ = response.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(connection)
                lock.withLock { served += 1 }
            }
        }.start()
    }

    /// Reads the request up to the blank line that ends its head (the stub's requests have no body).
    private func readHead(_ connection: Int32) {
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !head.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)) {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            head += buffer[0..<count]
        }
    }

    /// Stops listening: the thread's `accept` fails and it ends.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
