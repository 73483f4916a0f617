import Glibc

/// Starts a detached POSIX thread running `body`.
enum LoopThread {
    private final class Payload: Sendable {
        let body: @Sendable () -> Void
        init(body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Spawns the thread; throws when the system refuses one.
    static func spawn(_ body: @escaping @Sendable () -> Void) throws(HTTPServerError) {
        let payload = Unmanaged.passRetained(Payload(body: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            let payload = Unmanaged<Payload>.fromOpaque(raw!).takeRetainedValue()
            payload.body()
            return nil
        }, payload)
        guard result == 0 else {
            Unmanaged<Payload>.fromOpaque(payload).release()
            throw .systemCall(call: "pthread_create", errno: result)
        }
        pthread_detach(thread)
    }
}
