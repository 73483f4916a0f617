import ArgumentParser
import Foundation

/// Why a client command failed, and the one place that tells the user: a refusal of the service (its
/// `application/problem+json`) or bad local input exits 1, a service that cannot be reached exits 2.
enum CommandFailure: Error {
    /// The service answered a non-2xx status; the body is usually a problem (RFC 9457).
    case refused(status: Int, body: [UInt8], contentType: String?)
    /// The service could not be reached, or broke off its answer.
    case unreachable(server: String, reason: String)
    /// Something on this side: an unreadable file, say.
    case local(String)

    /// The exit status: 2 when the service could not be reached, else 1.
    var exitCode: Int32 {
        if case .unreachable = self { return 2 }
        return 1
    }

    /// What standard error shows: the problem's detail first, then its status, title and code, then any field
    /// issues the detail does not already name.
    var message: String {
        switch self {
        case .unreachable(let server, let reason):
            return "error: cannot reach the bgemu service at \(server): \(reason). Is `bgemu serve` running there "
                + "(--server, BGEMU_URL)?"
        case .local(let text):
            return "error: \(text)"
        case .refused(let status, let body, let contentType):
            guard let problem = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else {
                let text = String(decoding: body.prefix(500), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                return "error: HTTP \(status)" + (text.isEmpty ? "" : ": \(text)")
                    + (contentType.map { " (\($0))" } ?? "")
            }
            let title = problem["title"] as? String ?? "HTTP \(status)"
            let detail = problem["detail"] as? String
            var line = "error: " + (detail ?? title)
            var context = ["\(problem["status"] as? Int ?? status) \(title)"]
            if let code = problem["code"] as? String { context.append(code) }
            line += " (" + context.joined(separator: ", ") + ")"
            var lines = [line]
            for issue in problem["errors"] as? [[String: Any]] ?? [] {
                let field = issue["field"] as? String ?? "?"
                let text = issue["message"] as? String ?? ""
                if detail?.contains("\(field): \(text)") != true { lines.append("  \(field): \(text)") }
            }
            return lines.joined(separator: "\n")
        }
    }

    /// The problem's `code`, when the service refused with one.
    var code: String? {
        guard case .refused(_, let body, _) = self,
              let problem = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else { return nil }
        return problem["code"] as? String
    }

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
        } catch let failure as CommandFailure {
            Terminal.error(failure.message)
            if let code = failure.code, let hint = hints[code] ?? defaultHints[code] { Terminal.error("hint: \(hint)") }
            throw ExitCode(failure.exitCode)
        }
    }
}
