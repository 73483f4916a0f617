import Emulation
import Foundation
import Stores

/// Makes the stored record of an API key: its id, hash and display prefix.
public enum KeyFactory {
    public static func record(for secret: String, tenantId: String, at date: Date) -> APIKeyRecord {
        APIKeyRecord(
            id: SecretGenerator.newID("key"), tenantId: tenantId, hash: KeyHasher.sha256Hex(secret),
            prefix: String(secret.prefix(10)), createdAt: date)
    }
}
