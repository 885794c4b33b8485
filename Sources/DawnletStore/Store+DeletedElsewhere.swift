import DawnletCore

/// A todo or event whose exported file was deleted on another device: deleted here, and kept
/// (its row and its occurrences' rows, as JSON) for 30 days so that `restore` puts it back as it
/// was, under its own id (docs/calendars.md, "Deleted elsewhere").
public struct DeletedElsewhere: Hashable, Sendable {
    public let kind: ItemKind
    public let id: Int64
    public let title: String
    /// The export folder its file went from.
    public let folder: String
    public let deletedAt: Instant
}

/// One of our exported files as this folder's records know it: held while it is missing (many
/// of ours went at once), since when.
public struct ExportRecord: Hashable, Sendable {
    public let uid: String
    public let kind: ItemKind
    public let itemID: Int64
    public let heldSince: Instant?
}

extension Store.Items {
    /// The columns of `table`, in order.
    func columns(_ table: String) throws(StoreError) -> [String] {
        try db.query("SELECT name FROM pragma_table_info(?)", [.text(table)]) { $0.text(0) }
    }

    /// `json_object('a', a, 'b', b)` over `columns`.
    static func jsonObject(_ columns: [String]) -> String {
        "json_object(" + columns.map { "'\($0)', \"\($0)\"" }.joined(separator: ", ") + ")"
    }

    /// Deletes the item whose file went from `folder` and keeps it for `restore`; the folder's
    /// record of its file is forgotten. False when there is no such item.
    public func deleteElsewhere(_ kind: ItemKind, id: Int64, folder: String, uid: String, now: Instant) throws(StoreError) -> Bool {
        let tables = KindTables.of(kind)
        return try db.writeTransaction { () throws(StoreError) in
            let item = try db.query(
                "SELECT \(Self.jsonObject(try columns(tables.definitions))), title FROM \(tables.definitions) WHERE id = ?", [.int(id)]
            ) { ($0.text(0), $0.text(1)) }.first
            guard let (json, title) = item else { return false }
            let occurrences =
                try db.query(
                    "SELECT coalesce(json_group_array(\(Self.jsonObject(try columns(tables.occurrences)))), '[]') FROM \(tables.occurrences) WHERE definition_id = ?",
                    [.int(id)]
                ) { $0.text(0) }.first ?? "[]"
            try db.run(
                """
                INSERT INTO deleted_elsewhere (kind, item_id, title, folder, deleted_at, item, occurrences) VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (kind, item_id) DO UPDATE SET title = excluded.title, folder = excluded.folder, deleted_at = excluded.deleted_at,
                    item = excluded.item, occurrences = excluded.occurrences
                """,
                [.text(kind.rawValue), .int(id), .text(title), .text(folder), .int(now.secondsSinceEpoch), .text(json), .text(occurrences)])
            try db.run("DELETE FROM \(tables.definitions) WHERE id = ?", [.int(id)])
            try db.run("DELETE FROM calendar_exports WHERE folder = ? AND uid = ?", [.text(folder), .text(uid)])
            return true
        }
    }

    /// What was deleted elsewhere since `since`, the latest first.
    public func deletedElsewhere(since: Instant) throws(StoreError) -> [DeletedElsewhere] {
        try db.query(
            "SELECT kind, item_id, title, folder, deleted_at FROM deleted_elsewhere WHERE deleted_at >= ? ORDER BY deleted_at DESC, kind, item_id",
            [.int(since.secondsSinceEpoch)]
        ) { row in
            ItemKind(rawValue: row.text(0)).map {
                DeletedElsewhere(kind: $0, id: row.int(1), title: row.text(2), folder: row.text(3), deletedAt: Instant(secondsSinceEpoch: row.int(4)))
            }
        }.compactMap { $0 }
    }

    /// Forgets what was deleted elsewhere before `before`: it can no longer be restored.
    @discardableResult
    public func purgeDeletedElsewhere(before: Instant) throws(StoreError) -> Int {
        try db.run("DELETE FROM deleted_elsewhere WHERE deleted_at < ?", [.int(before.secondsSinceEpoch)])
    }

    /// Puts back an item deleted elsewhere, as it was, under its own id, with its occurrences.
    /// Not found when nothing of that kind and id was deleted elsewhere (or it was purged).
    public func restore(_ kind: ItemKind, id: Int64) throws(StoreError) -> DeletedElsewhere {
        let tables = KindTables.of(kind)
        return try db.writeTransaction { () throws(StoreError) in
            let row = try db.query(
                "SELECT title, folder, deleted_at, item, occurrences FROM deleted_elsewhere WHERE kind = ? AND item_id = ?", [.text(kind.rawValue), .int(id)]
            ) {
                (
                    DeletedElsewhere(kind: kind, id: id, title: $0.text(0), folder: $0.text(1), deletedAt: Instant(secondsSinceEpoch: $0.int(2))),
                    $0.text(3), $0.text(4)
                )
            }.first
            guard let (deleted, item, occurrences) = row else {
                throw StoreError(.notFound, "no \(tables.noun) \(id) deleted on another device within the last 30 days")
            }
            guard try db.query("SELECT 1 FROM \(tables.definitions) WHERE id = ?", [.int(id)], { $0.int(0) }).isEmpty else {
                throw StoreError(.conflict, "\(tables.noun) \(id) is here already")
            }
            // The columns the kept row has and the table still has (a later migration may add one,
            // which takes its default).
            func kept(_ table: String, _ json: String) throws(StoreError) -> [String] {
                let keys = Set(try db.query("SELECT key FROM json_each(?)", [.text(json)]) { $0.text(0) })
                return try columns(table).filter { keys.contains($0) }
            }
            let names = try kept(tables.definitions, item)
            try db.run(
                "INSERT INTO \(tables.definitions) (\(names.map { "\"\($0)\"" }.joined(separator: ", "))) SELECT "
                    + names.map { "json_extract(?1, '$.\($0)')" }.joined(separator: ", "), [.text(item)])
            let first = try db.query("SELECT value FROM json_each(?) LIMIT 1", [.text(occurrences)]) { $0.text(0) }.first
            if let first {
                let names = try kept(tables.occurrences, first)
                try db.run(
                    "INSERT INTO \(tables.occurrences) (\(names.map { "\"\($0)\"" }.joined(separator: ", "))) SELECT "
                        + names.map { "json_extract(value, '$.\($0)')" }.joined(separator: ", ") + " FROM json_each(?1)", [.text(occurrences)])
            }
            try db.run("DELETE FROM deleted_elsewhere WHERE kind = ? AND item_id = ?", [.text(kind.rawValue), .int(id)])
            return deleted
        }
    }
}

extension Store.Log {
    /// This folder's records of our files.
    public func exportRecords(in folder: String) throws(StoreError) -> [ExportRecord] {
        try db.query("SELECT uid, kind, item_id, held_since FROM calendar_exports WHERE folder = ?", [.text(folder)]) { row in
            ItemKind(rawValue: row.text(1)).map {
                ExportRecord(uid: row.text(0), kind: $0, itemID: row.int(2), heldSince: row.optionalInt(3).map { Instant(secondsSinceEpoch: $0) })
            }
        }.compactMap { $0 }
    }

    /// Every held file, in any folder: folder and record.
    public func heldExports() throws(StoreError) -> [(folder: String, record: ExportRecord)] {
        try db.query("SELECT folder, uid, kind, item_id, held_since FROM calendar_exports WHERE held_since IS NOT NULL ORDER BY folder, kind, item_id") {
            row in
            ItemKind(rawValue: row.text(2)).map {
                (row.text(0), ExportRecord(uid: row.text(1), kind: $0, itemID: row.int(3), heldSince: Instant(secondsSinceEpoch: row.int(4))))
            }
        }.compactMap { $0 }
    }

    /// Files of ours held (not written, their items not deleted) from `now`.
    public func hold(_ uids: [String], in folder: String, now: Instant) throws(StoreError) {
        try db.writeTransaction { () throws(StoreError) in
            for uid in uids {
                try db.run(
                    "UPDATE calendar_exports SET held_since = ? WHERE folder = ? AND uid = ? AND held_since IS NULL",
                    [.int(now.secondsSinceEpoch), .text(folder), .text(uid)])
            }
        }
    }

    /// A held file there again: no longer held.
    public func release(_ uid: String, in folder: String) throws(StoreError) {
        try db.run("UPDATE calendar_exports SET held_since = NULL WHERE folder = ? AND uid = ?", [.text(folder), .text(uid)])
    }

    /// A held item's records forgotten, so that its file is written again at the next pass, as new;
    /// the folders it was held in.
    public func restoreHeld(_ kind: ItemKind, id: Int64) throws(StoreError) -> [String] {
        try db.writeTransaction { () throws(StoreError) in
            let folders = try db.query(
                "SELECT folder FROM calendar_exports WHERE kind = ? AND item_id = ? AND held_since IS NOT NULL", [.text(kind.rawValue), .int(id)]
            ) { $0.text(0) }
            try db.run("DELETE FROM calendar_exports WHERE kind = ? AND item_id = ? AND held_since IS NOT NULL", [.text(kind.rawValue), .int(id)])
            return folders
        }
    }

    /// A folder made anew: nothing of what was written into the one before stands for it.
    public func forgetExports(in folder: String) throws(StoreError) {
        try db.run("DELETE FROM calendar_exports WHERE folder = ?", [.text(folder)])
    }
}
