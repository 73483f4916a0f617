import Emulation
import HTTPServer
import Service
import Stores

/// `/v1/admin/…`: tenants and their keys (admin token).
enum AdminRoutes {
    static func register(on routes: inout RouteGroup, _ env: APIEnvironment) {
        routes.post("/tenants") { request, _ in
            let body = try JSONBody.decode(CreateTenantRequest.self, from: request)
            if try env.tenants.tenant(named: body.name) != nil {
                throw Problems.conflict("tenantExists", "A tenant named \"\(body.name)\" exists already.")
            }
            let now = env.wallClock()
            let tenant = Tenant(id: SecretGenerator.newID("ten"), name: body.name, createdAt: now)
            let (secret, key) = newKey(tenantId: tenant.id, env)
            do {
                try env.tenants.createTenant(tenant, firstKey: key)
            } catch StoreError.duplicate {
                throw Problems.conflict("tenantExists", "A tenant named \"\(body.name)\" exists already.")
            }
            let created = CreatedTenantBody(
                id: tenant.id, name: tenant.name, createdAt: now.rfc3339, apiKey: secret, keyId: key.id)
            return try JSONBody.response(created, status: .created, headers: ["Location": "/v1/admin/tenants/\(tenant.id)"])
        }

        routes.get("/tenants") { request, _ in
            let paging = try Pagination(request)
            let page = try env.tenants.tenants(after: paging.cursor, limit: paging.limit)
            return try JSONBody.response(PageBody(items: page.items.map(TenantBody.init), nextCursor: page.nextCursor))
        }

        routes.get("/tenants/{tenantId}") { _, context in
            let tenant = try tenant(context, env)
            return try JSONBody.response(TenantDetailBody(tenant, keys: try env.tenants.keys(tenantId: tenant.id)))
        }

        routes.delete("/tenants/{tenantId}") { _, context in
            let id = try context.parameters.require("tenantId")
            guard try env.tenants.deleteTenant(id: id) else { throw Problems.notFound("tenant", id) }
            env.credentials.invalidate()
            env.devices.forgetTenant(id)
            env.forecasts?.forgetTenant(id)  // its rows went with it; its running forecast stops
            return HTTPResponse(status: .noContent)
        }

        routes.post("/tenants/{tenantId}/keys") { _, context in
            let tenant = try tenant(context, env)
            let (secret, key) = newKey(tenantId: tenant.id, env)
            try env.tenants.addKey(key)
            let body = CreatedKeyBody(id: key.id, prefix: key.prefix, createdAt: key.createdAt.rfc3339, apiKey: secret)
            return try JSONBody.response(
                body, status: .created, headers: ["Location": "/v1/admin/tenants/\(tenant.id)/keys/\(key.id)"])
        }

        routes.delete("/tenants/{tenantId}/keys/{keyId}") { _, context in
            let tenant = try tenant(context, env)
            let keyId = try context.parameters.require("keyId")
            guard try env.tenants.revokeKey(tenantId: tenant.id, keyId: keyId, at: env.wallClock()) else {
                throw Problems.notFound("key", keyId)
            }
            env.credentials.invalidate()
            return HTTPResponse(status: .noContent)
        }
    }

    private static func tenant(_ context: HTTPRequestContext, _ env: APIEnvironment) throws -> Tenant {
        let id = try context.parameters.require("tenantId")
        guard let tenant = try env.tenants.tenant(id: id) else { throw Problems.notFound("tenant", id) }
        return tenant
    }

    /// A fresh secret and the record that stores only its hash.
    static func newKey(tenantId: String, _ env: APIEnvironment) -> (String, APIKeyRecord) {
        let secret = SecretGenerator.newSecret()
        return (secret, KeyFactory.record(for: secret, tenantId: tenantId, at: env.wallClock()))
    }
}
