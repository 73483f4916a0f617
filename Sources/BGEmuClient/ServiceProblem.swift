import Foundation

/// A refusal of the service as its `application/problem+json` document says it (RFC 9457): the status, the
/// problem's `code`, `title` and `detail`, and the fields a `422` names. The one reader of problem documents for
/// every client (the CLI, BGEmuKit, scenario runs).
public struct ServiceProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// One field a `422` names, and what is wrong with it.
    public struct FieldIssue: Sendable, Equatable {
        public var field: String
        public var message: String

        public init(field: String, message: String) {
            self.field = field
            self.message = message
        }
    }

    /// The HTTP status (`409`, `422`, …).
    public var status: Int
    /// The problem's `code` (`appNotRunning`, `notInForeground`, `validationFailed`, …).
    public var code: String?
    /// The problem's `title`: the status's reason, for people.
    public var title: String?
    /// The service's explanation, for people.
    public var detail: String?
    /// The fields a `422` names, with their messages.
    public var issues: [FieldIssue]
    /// The answer's body when it is not a problem document (an HTML error page of a proxy, say): its first 500
    /// bytes as text.
    public var unreadBody: String?
    /// The answer's `Content-Type`.
    public var contentType: String?

    /// The fields a `422` names.
    public var fields: [String] { issues.map(\.field) }

    /// A problem with these parts.
    public init(status: Int, code: String?, detail: String?, fields: [String] = []) {
        self.init(status: status, code: code, title: nil, detail: detail,
                  issues: fields.map { FieldIssue(field: $0, message: "") })
    }

    /// A problem with these parts, its title and field messages too.
    public init(
        status: Int, code: String?, title: String?, detail: String?, issues: [FieldIssue], unreadBody: String? = nil,
        contentType: String? = nil
    ) {
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.issues = issues
        self.unreadBody = unreadBody
        self.contentType = contentType
    }

    /// Reads a refusal's body: a problem document, or, when it is not one, only the status and the body's text.
    public init(status: Int, body: [UInt8], contentType: String? = nil) {
        guard let json = try? JSONValue.parse(body), json.objectValue != nil else {
            let text = String(decoding: body.prefix(500), as: UTF8.self)
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            self.init(status: status, code: nil, title: nil, detail: nil, issues: [],
                      unreadBody: trimmed.isEmpty ? nil : trimmed, contentType: contentType)
            return
        }
        let issues = json["errors"]?.arrayValue?.compactMap { issue -> FieldIssue? in
            guard let field = issue["field"]?.stringValue else { return nil }
            return FieldIssue(field: field, message: issue["message"]?.stringValue ?? "")
        } ?? []
        self.init(
            status: json["status"]?.intValue ?? status, code: json["code"]?.stringValue, title: json["title"]?.stringValue,
            detail: json["detail"]?.stringValue, issues: issues, contentType: contentType)
    }

    public var description: String { "\(status) \(code ?? "")\(detail.map { ": \($0)" } ?? "")" }

    /// What a person reads: the detail first, then the status, title and code, then each field issue the detail
    /// does not already name; a body that is no problem document shown as it is.
    public var explanation: String {
        guard unreadBody != nil || code != nil || title != nil || detail != nil || !issues.isEmpty else {
            return "HTTP \(status)" + (contentType.map { " (\($0))" } ?? "")
        }
        if code == nil, title == nil, detail == nil, issues.isEmpty {
            return "HTTP \(status): \(unreadBody ?? "")" + (contentType.map { " (\($0))" } ?? "")
        }
        let title = title ?? "HTTP \(status)"
        var line = detail ?? title
        var context = ["\(status) \(title)"]
        if let code { context.append(code) }
        line += " (" + context.joined(separator: ", ") + ")"
        var lines = [line]
        for issue in issues where detail?.contains("\(issue.field): \(issue.message)") != true {
            lines.append("  \(issue.field): \(issue.message)")
        }
        return lines.joined(separator: "\n")
    }

    /// Problems are the same refusal when their status, code, detail and fields are.
    public static func == (lhs: ServiceProblem, rhs: ServiceProblem) -> Bool {
        lhs.status == rhs.status && lhs.code == rhs.code && lhs.detail == rhs.detail && lhs.fields == rhs.fields
    }
}
