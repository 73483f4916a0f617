import Foundation

/// Posts UIKit's notifications on `NotificationCenter.default` as iOS does, from the main queue, so that an observer
/// added with `queue: .main` runs inline and one with `queue: nil` runs on the main queue.
///
/// Foundation on Linux runs a `.main` observer inline only when `OperationQueue.current` is the main queue. Under
/// Swift Testing a `@MainActor` test's code runs on the main queue on a thread that is not the main thread, where
/// `OperationQueue.current` is nil: a post made there would add the observer's block to the main queue and wait for
/// it, and the main queue, busy with the post, would never run it (a deadlock). So a post made there is kept
/// (``EmulatedApp/postSoon(_:object:)``) and made by the harness right after the turn that caused it, as an
/// operation of `OperationQueue.main` while the harness waits (``EmulatedApp/postKept()``): in it,
/// `OperationQueue.current` is the main queue.
extension EmulatedApp {
    /// A notification and the object it is posted with. `@unchecked Sendable`: the object is handed to the main
    /// queue, where the post reads it.
    struct KeptPost: @unchecked Sendable {
        var name: Notification.Name
        var object: Any?
    }

    /// Posts `name` now, or, on the main queue but outside an operation of `OperationQueue.main`, keeps it for the
    /// harness to post right after this turn.
    func postSoon(_ name: Notification.Name, object: Any?) {
        if MainQueue.isCurrent, OperationQueue.current !== OperationQueue.main {
            lock.withLock { keptPosts.append(KeptPost(name: name, object: object)) }
            return
        }
        NotificationCenter.default.post(name: name, object: object)
    }

    /// Makes the posts kept during the last turn, in order, each as an operation of `OperationQueue.main`, waiting
    /// for each to return.
    func postKept() async {
        while let post = lock.withLock({ keptPosts.isEmpty ? nil : keptPosts.removeFirst() }) {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                OperationQueue.main.addOperation {
                    AppContext.$scoped.withValue(self) {
                        NotificationCenter.default.post(name: post.name, object: post.object)
                    }
                    done.resume()
                }
            }
        }
    }
}
