import ArgumentParser
import BGEmuClient

/// Why a client command failed, and the one place that tells the user: a refusal of the service (its problem
/// document, read by the client) or bad local input exits 1, a service that cannot be reached exits 2.
enum CommandFailure: Error {
    /// A call to the service failed (``ClientFailure``).
    case service(ClientFailure)
    /// Something on this side: an unreadable file, say.
    case local(String)

    /// The exit status: 2 when the service could not be reached, else 1.
    var exitCode: Int32 {
        if case .service(.unreachable) = self { return 2 }
        return 1
    }

    /// What standard error shows: the problem's detail first, then its status, title and code, then any field
    /// issues the detail does not already name.
    var message: String {
        switch self {
        case .service(.unreachable(let server, let reason)):
            return "error: cannot reach the bgemu service at \(server): \(reason). Is `bgemu serve` running there "
                + "(--server, BGEMU_URL)?"
        case .service(.invalidServer(let server)):
            return "error: --server must be an http:// URL such as \(ClientOptions.defaultServer), not \"\(server)\""
        case .service(.refused(let problem)):
            return "error: " + problem.explanation
        case .service(.badAnswer(let what)):
            return "error: \(what)"
        case .local(let text):
            return "error: \(text)"
        }
    }

    /// The problem's `code`, when the service refused with one.
    var code: String? { if case .service(.refused(let problem)) = self { problem.code } else { nil } }

    /// What to do about refusals any command may meet.
    static let defaultHints = [
        "unauthorized": "the service knows no such API key (--api-key, BGEMU_API_KEY); an operator makes a new one with "
            + "`bgemu keys create --tenant NAME`",
    ]

    /// Runs a command's body; a failure is printed to standard error and becomes the command's exit status.
    ///
    /// - Parameter hints: a line to add after a refusal with this problem `code` (what to do instead).
    static func reporting(hints: [String: String] = [:], _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let failure as ClientFailure {
            try report(.service(failure), hints: hints)
        } catch let failure as CommandFailure {
            try report(failure, hints: hints)
        }
    }

    private static func report(_ failure: CommandFailure, hints: [String: String]) throws -> Never {
        Terminal.error(failure.message)
        if let code = failure.code, let hint = hints[code] ?? defaultHints[code] { Terminal.error("hint: \(hint)") }
        throw ExitCode(failure.exitCode)
    }
}
