import Foundation

/// Paces the exporter's photos: each photo waits until the test lets one through, so that the test decides how
/// much virtual time passes between two photos.
final class PhotoGate: @unchecked Sendable {  // `credits` and `waiting` are behind `lock`
    private let lock = NSLock()
    private var credits = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// The exporter's `encodePhoto`: returns once the test has let this photo through.
    func pass(_ photo: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = lock.withLock { () -> Bool in
                guard credits == 0 else { credits -= 1; return true }
                waiting.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Lets `count` photos through.
    func open(_ count: Int = 1) {
        for _ in 0..<count {
            let next = lock.withLock { () -> CheckedContinuation<Void, Never>? in
                guard !waiting.isEmpty else { credits += 1; return nil }
                return waiting.removeFirst()
            }
            next?.resume()
        }
    }
}
