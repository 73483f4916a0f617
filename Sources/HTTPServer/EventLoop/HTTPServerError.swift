import Glibc

/// Why an `HTTPServer` could not start.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `host` is neither an IP literal nor `localhost`.
    case invalidHost(String)
    /// `port` is outside 0…65535.
    case invalidPort(Int)
    /// Another socket is already bound to the address (`EADDRINUSE`).
    case addressInUse(host: String, port: Int)
    /// A socket call failed; `call` names it and `errno` says why.
    case systemCall(call: String, errno: Int32)
    /// `start()` was called twice, or after `shutdown`.
    case alreadyStarted

    /// A message that names the address or the failing call.
    public var description: String {
        switch self {
        case .invalidHost(let host): "invalid listen host '\(host)': use an IP literal or 'localhost'"
        case .invalidPort(let port): "invalid listen port \(port): use 0…65535"
        case .addressInUse(let host, let port): "cannot listen on \(host):\(port): address already in use"
        case .systemCall(let call, let code): "\(call) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .alreadyStarted: "the server was already started or shut down"
        }
    }
}
