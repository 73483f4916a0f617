import HTTPServer
import Service
import Stores

/// `/v1/admin/…`: tenants and their keys (admin token), through ``TenantService``.
enum AdminRoutes {
    static func register(on routes: inout RouteGroup, _ env: APIEnvironment) {
        routes.post("/tenants") { request, _ in
            let body = try JSONBody.decode(CreateTenantRequest.self, from: request)
            let (tenant, key) = try refusals { try env.tenantService.createTenant(named: body.name) }
            let created = CreatedTenantBody(
                id: tenant.id, name: tenant.name, createdAt: tenant.createdAt.rfc3339, apiKey: key.secret, keyId: key.record.id)
            return try JSONBody.response(created, status: .created, headers: ["Location": "/v1/admin/tenants/\(tenant.id)"])
        }

        routes.get("/tenants") { request, _ in
            let paging = try Pagination(request)
            let page = try env.tenantService.tenants(after: paging.cursor, limit: paging.limit)
            return try JSONBody.response(PageBody(items: page.items.map(TenantBody.init), nextCursor: page.nextCursor))
        }

        routes.get("/tenants/{tenantId}") { _, context in
            let tenants = env.tenantService
            let tenant = try refusals { try tenants.tenant(id: context.parameters.require("tenantId")) }
            return try JSONBody.response(TenantDetailBody(tenant, keys: try tenants.keys(tenantId: tenant.id)))
        }

        routes.delete("/tenants/{tenantId}") { _, context in
            let id = try context.parameters.require("tenantId")
            try refusals { try env.tenantService.deleteTenant(id: id) }
            return HTTPResponse(status: .noContent)
        }

        routes.post("/tenants/{tenantId}/keys") { _, context in
            let id = try context.parameters.require("tenantId")
            let key = try refusals { try env.tenantService.issueKey(tenantId: id) }
            let record = key.record
            let body = CreatedKeyBody(id: record.id, prefix: record.prefix, createdAt: record.createdAt.rfc3339, apiKey: key.secret)
            return try JSONBody.response(body, status: .created, headers: ["Location": "/v1/admin/tenants/\(id)/keys/\(record.id)"])
        }

        routes.delete("/tenants/{tenantId}/keys/{keyId}") { _, context in
            let tenants = env.tenantService
            let tenant = try refusals { try tenants.tenant(id: context.parameters.require("tenantId")) }
            let keyId = try context.parameters.require("keyId")
            try refusals { try tenants.revokeKey(tenantId: tenant.id, keyId: keyId) }
            env.events.endStreams(tenantId: tenant.id, keyId: keyId)
            return HTTPResponse(status: .noContent)
        }
    }

    /// Runs `body`; the tenant service's refusals become their problems (`409 tenantExists`, `404`).
    @discardableResult
    static func refusals<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let refusal as TenantService.Refusal {
            switch refusal {
            case .tenantExists(let name): throw Problems.conflict("tenantExists", "A tenant named \"\(name)\" exists already.")
            case .noSuchTenant(let id): throw Problems.notFound("tenant", id)
            case .noSuchKey(let id): throw Problems.notFound("key", id)
            }
        }
    }
}
