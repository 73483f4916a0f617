// Event ids across tenant moves: each event keeps the id its clients know, in a log renumbered on import.

/// How a moved tenant's events keep their ids (issue 30): a new place in the target's log, the old id kept beside it,
/// and the map between the two.
///
/// Why two ids: `events.id` is the table's rowid (`AUTOINCREMENT`), unique service-wide and handed out in commit order
/// by the one writer, which the append path, the live fan-out's ordering (`EventSequencer`), the retention and every
/// index rely on. Two shards both count from 1, so a moved tenant's ids collide with other tenants' on the target.
/// So the import gives each event a new place in the log (`id`), and keeps the id its clients know it by beside it
/// (`original_id`, the id it had on the shard it was first recorded on; ``RecordedEvent/publicId``): pages, cursors
/// and streams show that one, on every shard the tenant is moved to. Within a tenant both orders agree.
///
/// - **Import renumbers densely.** The tenant's event ids, together with its pruning watermarks (ids of events gone,
///   which decide a `410`), are its *points*; sorted, the `i`-th gets `start + i`, where `start` is above both this
///   shard's greatest id and the source's (`TenantExport.sourceLatestEventId`, `M`). The log's sequence moves past
///   the last, so every place the tenant has here, imported or new, is above `M`, and so is the id of every event
///   recorded here after the move: an id at most `M` is one the tenant's clients know from before the move.
/// - **The map is kept as runs**, one row per stretch of consecutive old ids (`event_id_moves`, one generation per
///   move, named by its `M`, `through`), plus a base run that sends any id before the first point to `start - 1`.
///   An old id `x` maps to the new id of the greatest point at most `x` (``translate(_:runs:)``), so for any `x`:
///   the events after `x` on the source are exactly those after its image here, and a watermark above `x` stays
///   above it (a `410` answered on the source is answered here).
/// - **A client's id is found here** (`Last-Event-ID`, `after`, a page cursor; see ``SQLiteTenantMoveStore``):
///   through each generation in order whose `through` is at least the id. An id the clients know is the one of
///   the shard an event was first recorded on, whose generation is the oldest of those it passes, so an id from
///   two moves ago goes through both. Back the other way (``original(_:tenantId:_:)``) for the ids of events gone.
///
/// The hot append path is unchanged (a recorded event's `original_id` is NULL); a read pays one index lookup per
/// generation, only when the client names an id.
enum EventIdMoves {
    /// Consecutive old ids `oldStart ..< oldStart + length` that became `newStart ..< newStart + length`.
    struct Run: Equatable {
        var oldStart: Int64
        var newStart: Int64
        var length: Int64
    }

    /// The runs of numbering the sorted, distinct `points` densely from `start`, after the base run.
    static func runs(points: [Int64], start: Int64) -> [Run] {
        var runs = [Run(oldStart: 0, newStart: start, length: 0)]
        for (index, point) in points.enumerated() {
            let newId = start + Int64(index)
            if var last = runs.last, last.length > 0, last.oldStart + last.length == point {
                last.length += 1
                runs[runs.count - 1] = last
            } else {
                runs.append(Run(oldStart: point, newStart: newId, length: 1))
            }
        }
        return runs
    }

    /// The image of `id` by the run whose `oldStart` is the greatest at most `id` (nil: none is).
    static func translate(_ id: Int64, by run: Run?) -> Int64? {
        guard let run else { return nil }
        if id < run.oldStart + run.length { return run.newStart + (id - run.oldStart) }
        return run.newStart + run.length - 1
    }

    /// The image of `id` by a generation's `runs` (any order; tests and the import).
    static func translate(_ id: Int64, runs: [Run]) -> Int64 {
        let run = runs.filter { $0.oldStart <= id }.max { $0.oldStart < $1.oldStart }
        return translate(id, by: run) ?? id
    }

    /// `id` through every generation of the tenant whose `through` it does not pass, oldest first.
    static func translate(_ id: Int64, tenantId: String, _ db: SQLiteConnection) throws -> Int64 {
        let generations: [Int64] = try db.query(
            "SELECT DISTINCT through FROM event_id_moves WHERE tenant_id = ? ORDER BY through", [tenantId]) { try $0[0] }
        var id = id
        for through in generations where id <= through {
            let run = try db.queryFirst(
                """
                SELECT old_start, new_start, length FROM event_id_moves
                WHERE tenant_id = ? AND through = ? AND old_start <= ? ORDER BY old_start DESC LIMIT 1
                """, [tenantId, through, id]
            ) { Run(oldStart: try $0[0], newStart: try $0[1], length: try $0[2]) }
            id = translate(id, by: run) ?? id
        }
        return id
    }

    /// `id` of this shard's log as the tenant's clients know it (the inverse of ``translate(_:tenantId:_:)``): back
    /// through each generation, newest first, while the id is one that generation's import gave (an image of one of
    /// its points); an id recorded on this shard is itself. Events carry theirs (`original_id`); this is for the ids
    /// of events gone, the pruning watermarks a `410` names.
    static func original(_ id: Int64, tenantId: String, _ db: SQLiteConnection) throws -> Int64 {
        let generations: [Int64] = try db.query(
            "SELECT DISTINCT through FROM event_id_moves WHERE tenant_id = ? ORDER BY through DESC", [tenantId]
        ) { try $0[0] }
        var id = id
        for through in generations {
            // New ids increase with old ones within a generation: the last run starting at or before `id`.
            let run = try db.queryFirst(
                """
                SELECT old_start, new_start, length FROM event_id_moves
                WHERE tenant_id = ? AND through = ? AND length > 0 AND new_start <= ? ORDER BY old_start DESC LIMIT 1
                """, [tenantId, through, id]
            ) { Run(oldStart: try $0[0], newStart: try $0[1], length: try $0[2]) }
            guard let run, id < run.newStart + run.length else { break }
            id = run.oldStart + (id - run.newStart)
        }
        return id
    }
}
