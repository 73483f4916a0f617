import Foundation
import Glibc
import Synchronization
import Testing
@testable import BGEmuHTTP

/// How many `SIGUSR2`s the test's handler has taken.
private let signalsTaken = Atomic<Int>(0)

/// `HTTPClient.sendAll`: a signal that interrupts a blocked `send` is not a broken connection, and a broken one says
/// why.
@Suite struct HTTPClientSendTests {
    /// A connected pair of stream sockets, each end's send buffer as small as the kernel allows.
    static func pair() throws -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else { throw POSIXError(.EMFILE) }
        var small: Int32 = 4096
        for fd in fds { setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &small, socklen_t(MemoryLayout<Int32>.size)) }
        return (fds[0], fds[1])
    }

    /// Fills `fd`'s buffers without blocking, so that the next blocking `send` waits before writing anything.
    static func fill(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        let chunk = [UInt8](repeating: 0x2E, count: 4096)
        var filled = 0
        while true {
            let n = chunk.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            filled += n
        }
        _ = fcntl(fd, F_SETFL, flags)
        precondition(filled > 0)
    }

    @Test func aSendInterruptedBySignalsIsMadeAgainAndEveryByteArrives() throws {
        // A handler without SA_RESTART: a blocked `send` returns -1 with EINTR when the signal arrives.
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in signalsTaken.add(1, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        var previous = sigaction()
        sigaction(SIGUSR2, &action, &previous)
        defer { sigaction(SIGUSR2, &previous, nil) }

        let (writer, reader) = try Self.pair()
        defer { close(writer); close(reader) }
        signalsTaken.store(0, ordering: .relaxed)
        Self.fill(writer)
        let payload = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let outcome = Outcome()
        let started = DispatchSemaphore(value: 0)
        let thread = Thread {
            var usr2 = sigset_t()
            sigemptyset(&usr2)
            sigaddset(&usr2, SIGUSR2)
            pthread_sigmask(SIG_UNBLOCK, &usr2, nil)  // whatever the test runner's threads block
            outcome.thread = pthread_self()
            started.signal()
            do { try HTTPClient.sendAll(writer, payload) } catch { outcome.error = "\(error)" }
            outcome.lock.withLock { outcome.finished = true }  // no signal is aimed at this thread once it is gone
            outcome.done.signal()
        }
        thread.start()
        started.wait()
        // Signals while the sender waits for room in the full buffer, then the reader drains it.
        for _ in 0..<10 {
            usleep(20_000)  // signals spread over the wait: the interruptions under test (the sender cannot finish)
            outcome.lock.withLock { if !outcome.finished { _ = pthread_kill(outcome.thread!, SIGUSR2) } }
        }
        // A sender that gave up sends no more: the reading ends. Ample for a sender woken late on a loaded machine.
        var patience = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(reader, SOL_SOCKET, SO_RCVTIMEO, &patience, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var filler = 0
        while received.count < payload.count {
            let n = buffer.withUnsafeMutableBytes { recv(reader, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { break }
            var slice = buffer[0..<n][...]
            // The bytes `fill` wrote come first: skip them (dots), then the payload follows.
            if received.isEmpty {
                let dots = slice.prefix { $0 == 0x2E }.count
                filler += dots
                slice = slice.dropFirst(dots)
            }
            received += slice
        }
        #expect(outcome.done.wait(timeout: .now() + 30) == .success)
        #expect(signalsTaken.load(ordering: .relaxed) > 0)
        #expect(outcome.error == nil)
        #expect(filler > 0)
        let arrived = received == payload  // a Bool: a failed expectation over 200,000 bytes would print them all
        #expect(arrived, "\(received.count) of \(payload.count) bytes arrived")
    }

    @Test func aSendToAClosedPeerSaysWhy() throws {
        let (writer, reader) = try Self.pair()
        defer { close(writer) }
        close(reader)
        #expect {
            try HTTPClient.sendAll(writer, Array("GET / HTTP/1.1\r\n\r\n".utf8))
        } throws: { error in
            "\(error)" == "the connection broke while sending (\(String(cString: strerror(EPIPE))))"
        }
    }

    /// What the sending thread reports.
    final class Outcome: @unchecked Sendable {
        var thread: pthread_t?
        var error: String?
        var finished = false
        let lock = NSLock()
        let done = DispatchSemaphore(value: 0)
    }
}
