import Foundation
import HTTPServer

/// Authenticates `/v1` requests: admin routes by the admin token, every other route by a tenant's API key
/// (`Authorization: Bearer …`; event streams may pass `?access_token=` since `EventSource` cannot set headers).
struct AuthMiddleware: HTTPMiddleware {
    let credentials: Credentials

    func handle(
        _ request: HTTPRequest, context: HTTPRequestContext,
        next: (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse
    ) throws -> HTTPResponse {
        // The router has matched already: decide on the route's pattern, which cannot be spelled otherwise
        // (`/v1/%61dmin/…` matches no admin route); unmatched paths fall back to the raw path.
        let path = context.route ?? request.path
        guard path.hasPrefix("/v1/") || path == "/v1" else { return try next(request, context) }
        guard let token = Self.token(in: request) else { throw Problems.unauthorized() }
        if path.hasPrefix("/v1/admin/") || path == "/v1/admin" {
            guard credentials.isAdmin(token) else { throw Problems.unauthorized("The admin token is not valid.") }
            return try next(request, context)
        }
        guard let tenant = try credentials.tenant(forKey: token) else {
            throw Problems.unauthorized("The API key is not valid or has been revoked.")
        }
        var context = context
        context[AuthenticatedTenant.self] = tenant
        context.logger[metadataKey: "tenant"] = .string(tenant.id)
        return try next(request, context)
    }

    /// Refuses a missing or unknown credential from the head alone, so a client without a valid key cannot
    /// make the server wait for (and read) its body; a valid one passes the judgement to the route inside.
    func judgeHead(_ head: HTTPRequest, context: HTTPRequestContext) -> HTTPHeadVerdict {
        let path = context.route ?? head.path
        guard path.hasPrefix("/v1/") || path == "/v1" else { return .passes }
        guard let token = Self.token(in: head) else { return .answers }
        if path.hasPrefix("/v1/admin/") || path == "/v1/admin" { return credentials.isAdmin(token) ? .passes : .answers }
        // A store that cannot answer now is judged with the body, as `handle` would be.
        do {
            return try credentials.tenant(forKey: token) == nil ? .answers : .passes
        } catch {
            return .needsBody
        }
    }

    /// The bearer token of the `Authorization` header (RFC 6750 §2.1), or `access_token` for event streams.
    static func token(in request: HTTPRequest) -> String? {
        if let header = request.headers["Authorization"] {
            let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            guard parts.count == 2, String(parts[0]).caseInsensitiveEquals("Bearer") else { return nil }
            let token = parts[1].trimmingCharacters(in: .whitespaces)
            return token.isEmpty ? nil : token
        }
        if request.method == .get, request.path.hasSuffix("/events"), let token = request.queryValue("access_token"),
            !token.isEmpty
        {
            return token
        }
        return nil
    }
}
