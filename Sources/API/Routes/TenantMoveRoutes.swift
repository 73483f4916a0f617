import Foundation
import HTTPServer
import Service
import Stores

/// `/v1/admin/tenants/{tenantId}/fence`, `…/export` and `/v1/admin/tenants/import` (admin token): the steps of
/// moving a tenant between shards (issue 30), through ``TenantMoves``. The last step, deleting the tenant from the
/// source, is `DELETE /v1/admin/tenants/{tenantId}`.
enum TenantMoveRoutes {
    /// The import's path. Its body may be as large as an upload (`--max-upload-size`, see `APIRouter.isUpload`):
    /// an export larger than that cannot be imported in one request.
    static let importPath = "/v1/admin/tenants/import"

    static func register(on routes: inout RouteGroup, moves: TenantMoves) {
        routes.put("/tenants/{tenantId}/fence") { _, context in
            let id = try context.parameters.require("tenantId")
            try refusals { try moves.fence(tenantId: id) }
            return try JSONBody.response(TenantFenceBody(tenantId: id, fenced: true))
        }

        routes.delete("/tenants/{tenantId}/fence") { _, context in
            let id = try context.parameters.require("tenantId")
            try refusals { try moves.unfence(tenantId: id) }
            return try JSONBody.response(TenantFenceBody(tenantId: id, fenced: false))
        }

        routes.get("/tenants/{tenantId}/export") { _, context in
            let id = try context.parameters.require("tenantId")
            let document = try refusals { try moves.export(tenantId: id) }
            return HTTPResponse(
                contentType: "application/json", bytes: try Self.encode(document),
                headers: ["Cache-Control": "no-store", "Content-Disposition": "attachment; filename=\"\(id).json\""])
        }

        routes.post("/tenants/import") { request, _ in
            // Past 1 MiB the server spooled the body to a file: read where it is.
            guard JSONBody.isJSON(request) else {
                throw Problems.unsupportedMediaType(["application/json"], method: request.method)
            }
            let document = try request.withBodyBytes { bytes in
                try JSONBody.decode(TenantExport.self, bytes: Array(bytes.bindMemory(to: UInt8.self)))
            }
            let imported = try refusals { try moves.importTenant(document) }
            return try JSONBody.response(
                ImportedTenantBody(imported), status: .created,
                headers: ["Location": "/v1/admin/tenants/\(imported.tenantId)"])
        }
    }

    /// `bytes` in MiB, rounded up to a tenth.
    static func mebibytes(_ bytes: Int) -> String {
        String(format: "%.1f", (Double(bytes) / 1_048_576 * 10).rounded(.up) / 10)
    }

    /// The document's JSON, keys sorted.
    static func encode(_ document: TenantExport) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(document))
    }

    /// Runs `body`; the refusals of a move become their problems.
    @discardableResult
    static func refusals<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let refusal as TenantMoves.Refusal {
            switch refusal {
            case .noSuchTenant(let id): throw Problems.notFound("tenant", id)
            case .exportTooLarge(let id, let bytes, let limit):
                throw Problems.conflict(
                    "exportTooLarge",
                    "Tenant \(id)'s export would take about \(Self.mebibytes(bytes)) MiB, past \(Self.mebibytes(limit)) MiB, the "
                        + "largest import a shard takes (--max-upload-mib, BGEMU_MAX_UPLOAD_MIB): raise it on both shards, "
                        + "or let the event retention prune the tenant's old events first. Nothing was exported.")
            case .exists(let what):
                throw Problems.conflict("tenantExists", "The document's \(what) exists on this shard already: nothing was imported.")
            case .writesInFlight(let id, let count):
                throw HTTPProblem(
                    status: .serviceUnavailable, code: "writesInFlight",
                    detail: "Tenant \(id) is fenced, but \(count) of its writes were still in flight when the wait ended; "
                        + "call again to wait for them.",
                    headers: ["Retry-After": "1"])
            }
        } catch let failure as TenantImportFailure {
            switch failure {
            case .unknownFormat(let detail): throw Problems.invalid("format", detail)
            case .newerSchema(let missing):
                throw Problems.conflict(
                    "newerSchema",
                    "The document comes from a newer bgemu: this shard lacks the migrations \(missing.joined(separator: ", ")). "
                        + "Upgrade it first.")
            case .invalid(let detail): throw Problems.invalid("tables", detail)
            }
        }
    }
}
