import Emulation
import HTTPServer
import Stores

/// The tenant whose API key authenticated the request, with that key's id.
public enum AuthenticatedTenant: HTTPContextKey {
    public typealias Value = AuthenticatedKey
}

/// An API key that authenticated a request: its tenant, and its id (the event streams it opens end when it is
/// revoked). One entry of the request's context, as the tenant alone was.
public struct AuthenticatedKey: Sendable {
    public var tenant: Tenant
    public var keyId: String

    public init(tenant: Tenant, keyId: String) {
        self.tenant = tenant
        self.keyId = keyId
    }
}

extension HTTPRequestContext {
    /// The authenticated tenant; a `401` problem when the auth middleware did not set one.
    func tenant() throws -> Tenant {
        guard let key = self[AuthenticatedTenant.self] else { throw Problems.unauthorized() }
        return key.tenant
    }
}
