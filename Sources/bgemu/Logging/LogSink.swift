import Foundation
import Locking
#if canImport(Glibc)
import Glibc
#endif

/// Where the service's log lines go: standard output, through a buffer that a thread of its own writes out, so that
/// a request's access line costs its formatting and an append, not a `write` system call on the event loop that
/// answered it.
///
/// Nothing is lost: the writer wakes every ``intervalMilliseconds`` (and at once past ``eagerBytes``); a line at `warning` or
/// above, and `flush()`, write out everything buffered before returning; the process's exit flushes (`atexit`).
/// Past ``maximumBytes`` waiting (standard output not read), an appending thread writes the buffer out itself,
/// so memory stays bounded and the log stays whole, at the cost of that thread's time.
final class LogSink: Sendable {
    static let shared = LogSink()

    /// How long a line may wait in the buffer, in milliseconds.
    static let intervalMilliseconds = 50
    /// A buffer this large is written at once.
    static let eagerBytes = 64 << 10
    /// A buffer this large is written by the thread that appends to it.
    static let maximumBytes = 8 << 20

    /// Every worker appends its access line here at once: a ``PlainLock`` (a plain futex), not `Mutex`, whose
    /// priority-inheritance futex puts each contended appender to sleep in the kernel and wakes them one by one.
    /// The bytes appended and not yet written, and an empty buffer with the capacity of the last one written, which
    /// takes their place when they are taken to be written (so that neither is allocated anew each time).
    private let buffer = PlainLock<(pending: [UInt8], spare: [UInt8])>(([], []))
    /// Held while bytes are written, so that lines reach the descriptor in the order they were appended.
    private let writing = PlainLock<Void>(())
    private let wake = DispatchSemaphore(value: 0)
    private let descriptor: Int32

    init(descriptor: Int32 = STDOUT_FILENO) {
        self.descriptor = descriptor
        let thread = Thread { [self] in
            while true {
                _ = wake.wait(timeout: .now() + .milliseconds(Self.intervalMilliseconds))
                flush()
            }
        }
        thread.name = "log-writer"
        thread.start()
        atexit { LogSink.shared.flush() }
    }

    /// Appends one line (its bytes end in a newline); `urgent` writes it out before returning.
    func append(_ line: [UInt8], urgent: Bool) {
        line.withUnsafeBufferPointer { append($0, urgent: urgent) }
    }

    /// Appends one line from where it was made (an access line on the stack, see ``LineCursor``).
    func append(_ line: UnsafeBufferPointer<UInt8>, urgent: Bool) {
        let size = buffer.withLock { buffer -> Int in
            buffer.pending.append(contentsOf: line)
            return buffer.pending.count
        }
        if urgent || size >= Self.maximumBytes {
            flush()
        } else if size >= Self.eagerBytes {
            wake.signal()
        }
    }

    /// Writes out everything appended so far.
    func flush() {
        writing.withLock { _ in
            var bytes = buffer.withLock { buffer -> [UInt8] in
                var taken: [UInt8] = []
                swap(&taken, &buffer.pending)
                swap(&buffer.pending, &buffer.spare)
                return taken
            }
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                if written < 0, errno == EINTR { continue }
                if written <= 0 { break }  // standard output closed: nothing more to do
                offset += written
            }
            // Kept for the next time unless a flood made it large.
            guard bytes.capacity <= Self.eagerBytes * 2 else { return }
            bytes.removeAll(keepingCapacity: true)
            buffer.withLock { buffer in
                if buffer.spare.capacity < bytes.capacity { swap(&buffer.spare, &bytes) }
            }
        }
    }
}
