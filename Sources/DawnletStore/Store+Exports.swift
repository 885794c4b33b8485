import DawnletCore

/// An exported item's file as it was last written into one folder: what another device changed
/// since is told from it (docs/calendars.md). Each folder has its own: a file written elsewhere
/// (another `export --to`) says nothing of what this folder's file held.
public struct ExportedFile: Hashable, Sendable {
    /// The folder, from the root with its links resolved.
    public let folder: String
    public let uid: String
    public let kind: ItemKind
    public let itemID: Int64
    public let path: String
    /// The file as written (with what other devices had written into it), and the item as we
    /// exported it then.
    public let body: String
    public let ours: String
    public let writtenAt: Instant
}

extension Store.Log {
    /// What was last written for `uid` into `folder`; nil when it never was (or the record was
    /// forgotten).
    public func exported(_ uid: String, in folder: String) throws(StoreError) -> ExportedFile? {
        try db.query(
            "SELECT folder, uid, kind, item_id, path, body, ours, written_at FROM calendar_exports WHERE folder = ? AND uid = ?",
            [.text(folder), .text(uid)]
        ) { row in
            ItemKind(rawValue: row.text(2)).map {
                ExportedFile(
                    folder: row.text(0), uid: row.text(1), kind: $0, itemID: row.int(3), path: row.text(4), body: row.text(5), ours: row.text(6),
                    writtenAt: Instant(secondsSinceEpoch: row.int(7)))
            }
        }.compactMap { $0 }.first
    }

    /// Notes what was written into `folder` (or found there unchanged) for an item's file.
    public func recordExport(
        _ uid: String, in folder: String, kind: ItemKind, itemID: Int64, path: String, body: String, ours: String, at: Instant
    ) throws(StoreError) {
        try db.run(
            """
            INSERT INTO calendar_exports (folder, uid, kind, item_id, path, body, ours, written_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (folder, uid) DO UPDATE SET kind = excluded.kind, item_id = excluded.item_id, path = excluded.path,
                body = excluded.body, ours = excluded.ours, written_at = excluded.written_at, kept = NULL
            """,
            [.text(folder), .text(uid), .text(kind.rawValue), .int(itemID), .text(path), .text(body), .text(ours), .int(at.secondsSinceEpoch)])
    }

    /// What each file of `folder` was last found the same as ours with (`keep`), by uid.
    public func keptExports(in folder: String) throws(StoreError) -> [String: String] {
        var kept: [String: String] = [:]
        for (uid, text) in try db.query(
            "SELECT uid, kept FROM calendar_exports WHERE folder = ? AND kept IS NOT NULL", [.text(folder)], { ($0.text(0), $0.text(1)) })
        {
            kept[uid] = text
        }
        return kept
    }

    /// Notes, for files of `folder` found the same as ours, what they were found so with (a
    /// file's record written since, `recordExport`, drops it): one transaction for them all.
    public func keep(_ kept: [(uid: String, kept: String)], in folder: String) throws(StoreError) {
        guard !kept.isEmpty else { return }
        try db.writeTransaction { () throws(StoreError) in
            for (uid, text) in kept {
                try db.run("UPDATE calendar_exports SET kept = ? WHERE folder = ? AND uid = ?", [.text(text), .text(folder), .text(uid)])
            }
        }
    }

    /// How many times each todo and event (or one of its occurrences, or its checklist) has been
    /// written, by kind and id; one not there has not been since this was counted.
    public func changeCounts() throws(StoreError) -> [ItemKind: [Int64: Int64]] {
        var counts: [ItemKind: [Int64: Int64]] = [:]
        for (kind, id, version) in try db.query("SELECT kind, item_id, version FROM item_changes", [], { ($0.text(0), $0.int(1), $0.int(2)) }) {
            guard let kind = ItemKind(rawValue: kind) else { continue }
            counts[kind, default: [:]][id] = version
        }
        return counts
    }

    /// Forgets an item's file in `folder` (its item deleted, its file removed).
    public func forgetExport(_ uid: String, in folder: String) throws(StoreError) {
        try db.run("DELETE FROM calendar_exports WHERE folder = ? AND uid = ?", [.text(folder), .text(uid)])
    }

    /// When a todo or event (or one of its occurrences) was last written here; nil before this
    /// was kept.
    public func changedAt(_ kind: ItemKind, id: Int64) throws(StoreError) -> Instant? {
        try db.query("SELECT changed_at FROM item_changes WHERE kind = ? AND item_id = ?", [.text(kind.rawValue), .int(id)]) {
            Instant(secondsSinceEpoch: $0.int(0))
        }.first
    }

    /// A reminder answered on another device (acknowledged, or snoozed until `snoozedUntil`),
    /// recorded on `id`: a delivery here stops waiting (or comes back then); one that never went
    /// out here is recorded delivered with that answer, so it does not go out. A claim in flight
    /// is left alone, and so is a snooze whose time this delivery has already gone out at (or
    /// after): read again, the same snooze brings nothing back twice; so is one made there
    /// (`madeAt`) before the answer given here (by a button, a terminal or an item's command).
    /// Whether anything was written.
    @discardableResult
    public func answeredElsewhere(
        _ id: DeliveryID, title: String, fireAt: Instant, answer: Answer, words: String, now: Instant, madeAt: Instant? = nil
    ) throws(StoreError) -> Bool {
        let snoozedUntil = answer.snoozedUntil
        return try db.writeTransaction { () throws(StoreError) in
            let written =
                try db.run(
                    """
                    INSERT INTO deliveries (key, channel, state, kind, title, fire_at, claimed_at, finished_at, item_id, response, snoozed_until, detail,
                        answer, answered_from)
                    VALUES (?1, ?2, \(Delivery.State.delivered.sql), ?3, ?4, ?5, ?6, ?6, ?7, ?8, ?9, 'answered on another device', ?10, 'device')
                    ON CONFLICT (key, channel) DO UPDATE SET response = ?8, snoozed_until = ?9, answer = ?10, answered_from = 'device'
                    WHERE state = \(Delivery.State.delivered.sql) AND (?9 IS NOT NULL OR answer IS NULL OR answer IN (\(Delivery.closedByServer)))
                        AND (?9 IS NULL OR finished_at IS NULL OR finished_at < ?9)
                        AND (?11 IS NULL OR answer IS NULL OR answered_at IS NULL OR answered_from IN ('device', 'server') OR answered_at < ?11)
                    """,
                    [
                        .text(id.key.description), .text(id.channel.rawValue), .text(id.key.deliveryKind.rawValue), .text(title),
                        .int(fireAt.secondsSinceEpoch), .int(now.secondsSinceEpoch), id.key.itemID, .text(words),
                        snoozedUntil.map { .int($0.secondsSinceEpoch) } ?? .null, .text(answer.code),
                        madeAt.map { .int($0.secondsSinceEpoch) } ?? .null,
                    ]) == 1
            if written { try notePlanChange(id.key) }
            return written
        }
    }
}
