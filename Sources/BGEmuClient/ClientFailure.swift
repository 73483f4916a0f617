/// Why a call to the service failed: it refused (its problem document), it could not be reached or broke off its
/// answer, or it answered something a client cannot read.
public enum ClientFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The service answered a status of 400 or more.
    case refused(ServiceProblem)
    /// The service could not be reached at `server`, or broke off its answer.
    case unreachable(server: String, reason: String)
    /// The service's address is not an `http://` URL.
    case invalidServer(String)
    /// A 2xx answer whose body is not what the route answers (`the answer is not JSON`).
    case badAnswer(String)

    public var description: String {
        switch self {
        case .refused(let problem): "the service refused: \(problem)"
        case .unreachable(let server, let reason): "cannot reach the bgemu service at \(server): \(reason)"
        case .badAnswer(let what): "the service's answer cannot be read: \(what)"
        case .invalidServer(let server): "not an http:// URL: \(server)"
        }
    }

    /// The problem, when the service refused.
    public var problem: ServiceProblem? { if case .refused(let problem) = self { problem } else { nil } }
}
