import CSystem
import Glibc

/// Starts a detached POSIX thread running `body`.
enum LoopThread {
    private final class Payload: Sendable {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }

    /// Spawns the thread, named `name` (at most 15 bytes are kept: what `top -H`, `ps -L` and profilers show);
    /// throws when the system refuses one.
    static func spawn(name: String, _ body: @escaping @Sendable () -> Void) throws(HTTPServerError) {
        let payload = Unmanaged.passRetained(Payload(name: name, body: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            let payload = Unmanaged<Payload>.fromOpaque(raw!).takeRetainedValue()
            csystem_name_thread(payload.name)
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
