import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension HTTPClient {
    /// A response whose body is read as it arrives: a live `text/event-stream`, say. Reading blocks until the
    /// server sends more, closes, or stays silent for the client's `timeout`.
    ///
    /// Not `Sendable`: one thread reads it, then closes it (closing also happens when it is released).
    public final class StreamingResponse {
        /// The status and headers; `body` is empty (read it with ``read()``).
        public let head: Response
        private var fd: Int32
        private var buffer: [UInt8]
        private var framing: Framing
        private var finished = false

        /// How the body ends (RFC 9112 §6.3).
        private enum Framing {
            case length(remaining: Int)
            case chunked(ChunkState)
            case close
        }

        /// Where a chunked body's reader is: before a chunk-size line, inside a chunk's data, or before the CRLF
        /// that ends the data.
        private enum ChunkState {
            case size
            case data(Int)
            case lineEnd
        }

        init(fd: Int32, head: Response, rest: [UInt8]) {
            self.fd = fd
            self.head = head
            buffer = rest
            if let length = head.header("Content-Length").flatMap(Int.init) {
                framing = .length(remaining: length)
            } else if head.header("Transfer-Encoding")?.lowercased().contains("chunked") == true {
                framing = .chunked(.size)
            } else {
                framing = .close
            }
        }

        deinit { close() }

        /// The status code.
        public var status: Int { head.status }

        /// The next bytes of the body (de-chunked), at least one; nil at the body's end. Throws
        /// ``HTTPClient/ClientError/timedOut`` after the client's `timeout` of silence and
        /// ``HTTPClient/ClientError/malformed`` on a broken chunk header.
        public func read() throws -> [UInt8]? {
            while !finished {
                if let bytes = try take(), !bytes.isEmpty { return bytes }
                if finished { break }
                guard try fill() else {
                    if case .close = framing { finished = true; break }
                    throw ClientError.closedEarly
                }
            }
            return nil
        }

        /// The rest of the body (for an error answer, whose problem is short).
        public func readAll() throws -> [UInt8] {
            var out: [UInt8] = []
            while let bytes = try read() { out += bytes }
            return out
        }

        /// Closes the connection; later reads answer nil.
        public func close() {
            if fd >= 0 { PlatformSocket.close(fd) }
            fd = -1
            finished = true
        }

        /// Body bytes available in the buffer, per the framing; nil when more must be received first.
        private func take() throws -> [UInt8]? {
            switch framing {
            case .close:
                defer { buffer.removeAll() }
                return buffer.isEmpty ? nil : buffer
            case .length(let remaining):
                if remaining == 0 { finished = true; return nil }
                guard !buffer.isEmpty else { return nil }
                let count = min(remaining, buffer.count)
                let out = Array(buffer[0..<count])
                buffer.removeFirst(count)
                framing = .length(remaining: remaining - count)
                if remaining - count == 0 { finished = true }
                return out
            case .chunked(var state):
                var out: [UInt8] = []
                scan: while true {
                    switch state {
                    case .size:
                        // RFC 9112 §7.1: chunk-size [ chunk-ext ] CRLF; a size of 0 ends the body (trailers ignored).
                        guard let lineEnd = HTTPClient.find([13, 10], in: buffer, from: 0) else { break scan }
                        let sizeText = String(decoding: buffer[0..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
                        guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                            throw ClientError.malformed
                        }
                        buffer.removeFirst(lineEnd + 2)
                        if size == 0 { finished = true; break scan }
                        state = .data(size)
                    case .data(let left):
                        guard !buffer.isEmpty else { break scan }
                        let count = min(left, buffer.count)
                        out += buffer[0..<count]
                        buffer.removeFirst(count)
                        state = count == left ? .lineEnd : .data(left - count)
                    case .lineEnd:
                        guard buffer.count >= 2 else { break scan }
                        buffer.removeFirst(2)
                        state = .size
                    }
                }
                framing = .chunked(state)
                return out.isEmpty ? nil : out
            }
        }

        /// Receives more bytes into the buffer; false when the server closed the connection.
        private func fill() throws -> Bool {
            guard fd >= 0 else { return false }
            var chunk = [UInt8](repeating: 0, count: 16_384)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                buffer += chunk[0..<n]
                return true
            }
            if n < 0, errno == EAGAIN || errno == EWOULDBLOCK { throw ClientError.timedOut }
            if n < 0, errno == EINTR { return true }
            return false
        }
    }

    /// Sends one request and answers as soon as the response's head has arrived; the body is read from the
    /// answer as it comes (a `text/event-stream`, say). The caller closes it.
    public func open(_ method: String, _ path: String, headers: [(String, String)] = []) throws -> StreamingResponse {
        let fd = try Self.connectSocket(host: host, port: port, timeout: timeout)
        do {
            try Self.sendAll(fd, head(method, path, headers: headers, bodyLength: 0))
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 16_384)
            while true {
                if let end = Self.find([13, 10, 13, 10], in: received, from: 0) {
                    let head = try Self.parse(Array(received[0..<(end + 4)]))
                    return StreamingResponse(fd: fd, head: head, rest: Array(received[(end + 4)...]))
                }
                let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n < 0, errno == EINTR { continue }
                if n < 0, errno == EAGAIN || errno == EWOULDBLOCK { throw ClientError.timedOut }
                guard n > 0 else { throw ClientError.malformed }
                received += chunk[0..<n]
            }
        } catch {
            PlatformSocket.close(fd)
            throw error
        }
    }
}
