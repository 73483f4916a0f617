import Glibc
import HTTPServer
import Synchronization

/// Shared state between a test and the responders it runs on the server's loops.
final class CoreTestProbe: Sendable {
    /// The writers the server handed to stream producers, in order.
    let writers = Mutex<[any HTTPStreamWriter]>([])
    /// How many times stream close handlers ran.
    let closes = Atomic<Int>(0)
    /// A flag a responder raises (that a slow handler started, say).
    let flag = Atomic<Bool>(false)

    /// A stream body that registers its writer and counts its closes.
    func stream() -> HTTPBody {
        .stream(HTTPBodyStream { [self] writer in
            writer.onClose { [self] in closes.add(1, ordering: .sequentiallyConsistent) }
            writers.withLock { $0.append(writer) }
        })
    }

    /// The `index`th writer, once the server has started that stream.
    func writer(_ index: Int = 0) -> (any HTTPStreamWriter)? {
        _ = coreWaitUntil { writers.withLock { $0.count > index } }
        return writers.withLock { $0.count > index ? $0[index] : nil }
    }

    var closeCount: Int { closes.load(ordering: .sequentiallyConsistent) }
}

/// Polls `condition` every few milliseconds until it holds or `timeout` passes; returns whether it held.
/// For waiting on another thread's effect, not as an assertion by itself. It returns as soon as the condition
/// holds, so the default timeout is generous: only a test that fails waits it out.
func coreWaitUntil(timeout: Duration = .seconds(30), _ condition: () -> Bool) -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if condition() { return true }
        usleep(5_000)
    }
    return condition()
}
