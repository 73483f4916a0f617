import Emulation
import Foundation
import Service
import Stores

/// `POST /v1/admin/tenants`.
struct CreateTenantRequest: Decodable {
    var name: String

    init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(allowed: ["name"])
        let c = try decoder.container(keyedBy: AnyKey.self)
        name = try c.decode(String.self, forKey: AnyKey("name"))
        guard NameRule.problem(name, maximum: 100) == nil, !name.hasSurroundingWhiteSpace else {
            throw EmulationError.invalid([
                FieldIssue("name", "must be 1–100 characters without surrounding white space, none of them a control character")
            ])
        }
    }
}

/// A tenant as listed.
struct TenantBody: Encodable {
    var id: String
    var name: String
    var createdAt: String

    init(_ tenant: Tenant) {
        id = tenant.id
        name = tenant.name
        createdAt = tenant.createdAt.rfc3339
    }
}

/// A tenant with its keys (`GET /v1/admin/tenants/{tenantId}`).
struct TenantDetailBody: Encodable {
    var id: String
    var name: String
    var createdAt: String
    var keys: [KeyBody]

    init(_ tenant: Tenant, keys: [APIKeyRecord]) {
        id = tenant.id
        name = tenant.name
        createdAt = tenant.createdAt.rfc3339
        self.keys = keys.map(KeyBody.init)
    }
}

/// A key as stored: never the secret.
struct KeyBody: Encodable {
    var id: String
    var prefix: String
    var createdAt: String
    @ExplicitNull var revokedAt: String?

    init(_ key: APIKeyRecord) {
        id = key.id
        prefix = key.prefix
        createdAt = key.createdAt.rfc3339
        revokedAt = key.revokedAt?.rfc3339
    }
}

/// A new tenant, with the only sight of its first key.
struct CreatedTenantBody: Encodable {
    var id: String
    var name: String
    var createdAt: String
    var apiKey: String
    var keyId: String
}

/// A new key, shown once.
struct CreatedKeyBody: Encodable {
    var id: String
    var prefix: String
    var createdAt: String
    var apiKey: String
}
