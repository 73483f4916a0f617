import Foundation
import Testing
@testable import bgemu

/// HAProxy's tenant → shard map file as `bgemu tenants place` and `create` keep it (issue 30): one line per
/// tenant, replaced in place, comments and other lines kept, the file replaced whole.
@Suite struct TenantMapFileTests {
    private func temporaryMap(_ text: String) throws -> TenantMapFile {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tenants-\(UUID().uuidString).map")
        try Data(text.utf8).write(to: url)
        return TenantMapFile(path: url.path)
    }

    @Test func placingATenantAddsItsLineAndPlacingItAgainReplacesItKeepingCommentsAndOthers() throws {
        let map = try temporaryMap("# tenant id → shard id\nten_a s1\nten_b s2\n")
        defer { try? FileManager.default.removeItem(atPath: map.path) }
        try map.place(tenantId: "ten_c", shardId: "s3")
        try map.place(tenantId: "ten_a", shardId: "s2")
        #expect(try String(contentsOfFile: map.path, encoding: .utf8) == "# tenant id → shard id\nten_a s2\nten_b s2\nten_c s3\n")
        #expect(try map.entries().map { "\($0.tenantId)=\($0.shardId)" } == ["ten_a=s2", "ten_b=s2", "ten_c=s3"])
        try map.remove(tenantId: "ten_b")
        #expect(try map.entries().map(\.tenantId) == ["ten_a", "ten_c"])
    }

    @Test func aTenantWhoseIdBeginsAnotherIdIsNotTakenForIt() throws {
        let map = try temporaryMap("ten_ab s1\n")
        defer { try? FileManager.default.removeItem(atPath: map.path) }
        try map.place(tenantId: "ten_a", shardId: "s2")
        #expect(try map.entries().map { "\($0.tenantId)=\($0.shardId)" } == ["ten_ab=s1", "ten_a=s2"])
    }

    @Test func aMissingFileIsCreatedWithTheOneLine() throws {
        let map = TenantMapFile(path: FileManager.default.temporaryDirectory.appendingPathComponent("new-\(UUID().uuidString).map").path)
        defer { try? FileManager.default.removeItem(atPath: map.path) }
        try map.place(tenantId: "ten_x", shardId: "s1")
        #expect(try String(contentsOfFile: map.path, encoding: .utf8) == "ten_x s1\n")
    }
}
