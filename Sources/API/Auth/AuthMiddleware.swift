import Foundation
import HTTPServer
import Service

/// Authenticates the requests of the group it is added to (`Authorization: Bearer …`; event streams may pass
/// `?access_token=` since `EventSource` cannot set headers): ``tenant(_:)`` by a tenant's API key, setting the
/// request's ``AuthenticatedTenant``; ``admin(_:)`` by the admin token. Which routes need which is the router's
/// groups' business (``APIRouter``), not this middleware's.
struct AuthMiddleware: HTTPMiddleware {
    /// Whose credential a group's routes take.
    enum Caller: Sendable {
        /// A tenant's API key.
        case tenant
        /// The admin token.
        case admin
    }

    let credentials: Credentials
    let caller: Caller

    /// Takes a tenant's API key and sets the tenant on the context.
    static func tenant(_ credentials: Credentials) -> AuthMiddleware {
        AuthMiddleware(credentials: credentials, caller: .tenant)
    }

    /// Takes the admin token.
    static func admin(_ credentials: Credentials) -> AuthMiddleware {
        AuthMiddleware(credentials: credentials, caller: .admin)
    }

    func handle(
        _ request: HTTPRequest, context: HTTPRequestContext,
        next: (HTTPRequest, HTTPRequestContext) throws -> HTTPResponse
    ) throws -> HTTPResponse {
        guard let token = Self.token(in: request) else { throw Problems.unauthorized() }
        switch caller {
        case .admin:
            guard credentials.isAdmin(token) else { throw Problems.unauthorized("The admin token is not valid.") }
            return try next(request, context)
        case .tenant:
            guard let (keyId, tenant) = try credentials.owner(ofKey: token) else {
                throw Problems.unauthorized("The API key is not valid or has been revoked.")
            }
            var context = context
            context[AuthenticatedTenant.self] = AuthenticatedKey(tenant: tenant, keyId: keyId)
            context.addLogMetadata("tenant", tenant.id)  // the access log's line, outside, carries it too
            return try next(request, context)
        }
    }

    /// Refuses a missing or unknown credential from the head alone, so a client without a valid one cannot
    /// make the server wait for (and read) its body; a valid one passes the judgement to the route inside.
    func judgeHead(_ head: HTTPRequest, context: HTTPRequestContext) -> HTTPHeadVerdict {
        guard let token = Self.token(in: head) else { return .answers }
        switch caller {
        case .admin:
            return credentials.isAdmin(token) ? .passes : .answers
        case .tenant:
            // A store that cannot answer now is judged with the body, as `handle` would be.
            do {
                return try credentials.tenant(forKey: token) == nil ? .answers : .passes
            } catch {
                return .needsBody
            }
        }
    }

    /// The bearer token of the `Authorization` header (RFC 6750 §2.1), or `access_token` for event streams.
    static func token(in request: HTTPRequest) -> String? {
        if let header = request.headers["Authorization"] { return bearerToken(header) }
        if request.method == .get, request.path.hasSuffix("/events"), let token = request.queryValue("access_token"),
            !token.isEmpty
        {
            return token
        }
        return nil
    }

    /// The credentials of `Bearer <token>` (the scheme in any case, RFC 9110 §11.1), without the spaces and tabs
    /// around them; nil for another scheme or none. Read as UTF-8 bytes: it runs on every request.
    static func bearerToken(_ header: String) -> String? {
        let bytes = header.utf8
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let schemeStart = bytes.firstIndex(where: { !isBlank($0) }) else { return nil }
        let schemeEnd = bytes[schemeStart...].firstIndex(where: isBlank) ?? bytes.endIndex
        guard String(Substring(bytes[schemeStart..<schemeEnd])).caseInsensitiveEquals("Bearer"),
              let tokenStart = bytes[schemeEnd...].firstIndex(where: { !isBlank($0) }),
              let last = bytes[tokenStart...].lastIndex(where: { !isBlank($0) })
        else { return nil }
        return String(Substring(bytes[tokenStart...last]))
    }
}
