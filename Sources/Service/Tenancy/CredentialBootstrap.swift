import Emulation
import Foundation
import Stores

/// Sets up the admin token and the `default` tenant (through ``TenantService``) when the service starts.
///
/// - An admin token given by the operator is used (and its hash remembered); without one, the remembered hash is
///   used, and on a first start a new token is generated and shown once.
/// - `BGEMU_API_KEY`: a tenant named `default` exists afterwards and accepts exactly that key. Without it, a first
///   start creates `default` with a generated key, shown once.
public enum CredentialBootstrap {
    /// What the start-up produced; the secrets are set only when they were generated now.
    public struct Outcome: Sendable {
        public var adminTokenHash: String
        public var generatedAdminToken: String?
        public var generatedAPIKey: String?
    }

    static let adminHashSetting = "admin_token_sha256"
    public static let defaultTenantName = "default"

    public enum Failure: Error, CustomStringConvertible {
        case noAdminToken
        case apiKeyOfAnotherTenant

        public var description: String {
            switch self {
            case .noAdminToken:
                "No admin token is configured: pass --admin-token or set BGEMU_ADMIN_TOKEN."
            case .apiKeyOfAnotherTenant:
                "BGEMU_API_KEY is already a key of a tenant other than \"default\"."
            }
        }
    }

    public static func run(
        store: any TenantStore, isFirstStart: Bool, adminToken: String?, apiKey: String?, now: Date
    ) throws -> Outcome {
        var outcome = Outcome(adminTokenHash: "", generatedAdminToken: nil, generatedAPIKey: nil)
        if let adminToken, !adminToken.isEmpty {
            outcome.adminTokenHash = KeyHasher.sha256Hex(adminToken)
            try store.setSetting(adminHashSetting, value: outcome.adminTokenHash)
        } else if let remembered = try store.setting(adminHashSetting) {
            outcome.adminTokenHash = remembered
        } else if isFirstStart {
            let token = SecretGenerator.newSecret()
            outcome.generatedAdminToken = token
            outcome.adminTokenHash = KeyHasher.sha256Hex(token)
            try store.setSetting(adminHashSetting, value: outcome.adminTokenHash)
        } else {
            throw Failure.noAdminToken
        }

        let tenants = TenantService(store: store, wallClock: { now })
        let existing = try store.tenant(named: defaultTenantName)
        if let apiKey, !apiKey.isEmpty {
            if let owner = try store.activeKey(hash: KeyHasher.sha256Hex(apiKey)) {
                guard owner.tenant.name == defaultTenantName else { throw Failure.apiKeyOfAnotherTenant }
                return outcome
            }
            if let existing {
                _ = try tenants.addKey(apiKey, tenantId: existing.id)
            } else {
                _ = try tenants.create(named: defaultTenantName, secret: apiKey)
            }
        } else if isFirstStart, existing == nil {
            outcome.generatedAPIKey = try tenants.create(named: defaultTenantName, secret: nil).key.secret
        }
        return outcome
    }
}
