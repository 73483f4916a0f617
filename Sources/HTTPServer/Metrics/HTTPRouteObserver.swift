/// Receives a measure of every answer the router gives, for metrics. The server knows nothing of what is done
/// with them; the observer decides how to count and where to expose them.
///
/// The router asks ``recorder(forRoute:)`` once per route template when it is built (never per request), so an
/// observer can resolve its labels and series ahead of time and a request pays only the recording itself.
public protocol HTTPRouteObserver: Sendable {
    /// The recorder for answers on `route`, a pattern as registered (`/v1/devices/{deviceId}`); nil stands for
    /// every request that matches no route (the fallback, `404`, and paths whose parameters do not decode).
    func recorder(forRoute route: String?) -> any HTTPRouteRecorder
}

/// Records the answers given on one route template.
public protocol HTTPRouteRecorder: Sendable {
    /// One answer: the request's method, the status answered (for a thrown error, the status the server will
    /// answer with), and how many seconds the middleware chain and the handler took to produce it (for a streamed
    /// body, the time to the head, not the stream's lifetime). Called on the event-loop thread: must be quick.
    func record(method: HTTPMethod, status: Int, seconds: Double)
}

/// A responder that times the responder inside it and reports the outcome to a route's recorder.
///
/// Timed with the monotonic clock in nanoseconds, straight from the vDSO: cheaper on the hot path than
/// `ContinuousClock`, whose `Duration` arithmetic is 128-bit.
struct ObservedResponder: HTTPResponder {
    let recorder: any HTTPRouteRecorder
    let next: any HTTPResponder

    func respond(to request: HTTPRequest, context: HTTPRequestContext) throws -> HTTPResponse {
        let start = LoopClock.monotonicNanoseconds()
        let response: HTTPResponse
        do {
            response = try next.respond(to: request, context: context)
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            recorder.record(method: request.method, status: status, seconds: Self.seconds(since: start))
            throw error
        }
        recorder.record(method: request.method, status: response.status.code, seconds: Self.seconds(since: start))
        return response
    }

    @inline(__always)
    private static func seconds(since start: Int64) -> Double {
        Double(LoopClock.monotonicNanoseconds() &- start) * 1e-9
    }

    func answersWithoutBody(_ head: HTTPRequest, context: HTTPRequestContext) -> Bool {
        next.answersWithoutBody(head, context: context)
    }
}
