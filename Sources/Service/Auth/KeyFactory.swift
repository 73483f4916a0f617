import Emulation
import Foundation
import Stores

/// Makes the stored record of an API key: its id, hash and display prefix.
public enum KeyFactory {
    public static func record(for secret: String, tenantId: String, at date: Date) -> APIKeyRecord {
        APIKeyRecord(
            id: SecretGenerator.newID("key"), tenantId: tenantId, hash: KeyHasher.sha256Hex(secret),
            prefix: displayPrefix(of: secret), createdAt: date)
    }

    /// What lists show of a key to tell it apart: its first 10 characters, or for a key that names its tenant
    /// (the same for all of them up to the `.`), the tenant part and 4 characters of the secret after it.
    public static func displayPrefix(of secret: String) -> String {
        guard SecretGenerator.tenantId(inKey: secret) != nil, let dot = secret.firstIndex(of: ".") else {
            return String(secret.prefix(10))
        }
        return String(secret[...dot]) + String(secret[secret.index(after: dot)...].prefix(4))
    }
}
