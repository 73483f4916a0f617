import Emulation
import HTTPServer
import Stores

/// The tenant whose API key authenticated the request.
public enum AuthenticatedTenant: HTTPContextKey {
    public typealias Value = Tenant
}

/// The id of the API key that authenticated the request (its event streams end when it is revoked).
public enum AuthenticatedKeyId: HTTPContextKey {
    public typealias Value = String
}

extension HTTPRequestContext {
    /// The authenticated tenant; a `401` problem when the auth middleware did not set one.
    func tenant() throws -> Tenant {
        guard let tenant = self[AuthenticatedTenant.self] else { throw Problems.unauthorized() }
        return tenant
    }
}
