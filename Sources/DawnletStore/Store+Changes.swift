import DawnletCore

/// What was written since a point in the change feed (`plan_changes`, migration 10): the
/// definitions and money sources a plan must be made again for.
public struct PlanChanges: Sendable, Equatable {
    /// One definition or money source, by the kind of its reminders.
    public struct Item: Hashable, Sendable {
        public let kind: ReminderKind
        public let id: Int64

        public init(kind: ReminderKind, id: Int64) {
            self.kind = kind
            self.id = id
        }
    }

    /// Where the feed stands: the next call asks for what came after it.
    public let position: Int64
    /// What changed, each once.
    public let sources: Set<Item>
    /// Something changed that names no one source (a setting, a transaction of no bill), or
    /// the feed no longer reaches back to where it was asked from (it keeps 2,000 rows): only a
    /// whole plan is sure to be right.
    public let wholePlan: Bool
}

extension Store {
    /// Where the change feed stands now: a plan made after this call sees every change up to it.
    public func changePosition() throws(StoreError) -> Int64 {
        try db.query("SELECT coalesce(max(seq), 0) FROM plan_changes") { $0.int(0) }.first ?? 0
    }

    /// What was written after `position`, read at most `limit` rows (more is a whole plan).
    public func changes(after position: Int64, limit: Int = 256) throws(StoreError) -> PlanChanges {
        let rows = try db.query(
            "SELECT seq, kind, source_id FROM plan_changes WHERE seq > ? ORDER BY seq LIMIT ?",
            [.int(position), .int(Int64(limit) + 1)]
        ) { row in
            (seq: row.int(0), kind: ReminderKind(rawValue: row.text(1)), id: row.isNull(2) ? nil : Optional(row.int(2)))
        }
        let latest = rows.last?.seq ?? position
        // Sequence numbers are never skipped, and rows are only deleted from the front (the
        // feed's cap, which always keeps the newest): a first row past the next number means
        // some were dropped before they were read.
        var whole = rows.count > limit || (rows.first.map { $0.seq != position + 1 } ?? false)
        var sources = Set<PlanChanges.Item>()
        for row in rows {
            guard let kind = row.kind, let id = row.id else { whole = true; continue }
            sources.insert(PlanChanges.Item(kind: kind, id: id))
        }
        return PlanChanges(position: latest, sources: sources, wholePlan: whole)
    }
}
