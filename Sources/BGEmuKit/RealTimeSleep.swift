import Foundation

/// The harness's waits in real time, on a thread of their own (`nanosleep`) rather than a dispatch timer or
/// `Task.sleep`: in the libfaketime mode of a test process (see ``VirtualDateFile``), libfaketime rewrites the
/// deadlines libdispatch arms (`timerfd_settime`) by the fake time's offset from the real one, and those timers
/// never fire.
enum RealTimeSleep {
    /// Returns once `duration` of real time has passed.
    static func sleep(for duration: Duration) async {
        let seconds = duration.timeInterval
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                Thread.sleep(forTimeInterval: seconds)
                continuation.resume()
            }
        }
    }

    /// Runs `body` on the main queue once `duration` of real time has passed.
    static func onMainQueue(after duration: Duration, _ body: @escaping @Sendable () -> Void) {
        let seconds = duration.timeInterval
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: seconds)
            DispatchQueue.main.async(execute: body)
        }
    }
}
