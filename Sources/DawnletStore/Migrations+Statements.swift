/// The statements migrations are made of, where one is written out for many tables.
extension Migrations {
    /// `item_changes` kept as the time of the last write to `table` for the item it touches.
    static func changedAtTriggers(_ table: String, kind: String, id: String) -> String {
        ["INSERT", "UPDATE", "DELETE"].map { event in
            let row = event == "DELETE" ? "OLD" : "NEW"
            return """
                CREATE TRIGGER \(table)_\(event.lowercased())_changed_at AFTER \(event) ON \(table)
                BEGIN INSERT INTO item_changes (kind, item_id, changed_at) VALUES ('\(kind)', \(row).\(id), unixepoch())
                ON CONFLICT (kind, item_id) DO UPDATE SET changed_at = excluded.changed_at; END;

                """
        }.joined()
    }

    /// The same, with a count of the item's changes beside the time (`version`): a second is too
    /// coarse to tell that nothing changed since a moment, a count is not. Each table's triggers
    /// of `changedAtTriggers` dropped and made again so.
    static func versionedChangedAtTriggers(_ table: String, kind: String, id: String) -> String {
        ["INSERT", "UPDATE", "DELETE"].map { event in
            let row = event == "DELETE" ? "OLD" : "NEW"
            let name = "\(table)_\(event.lowercased())_changed_at"
            return """
                DROP TRIGGER IF EXISTS \(name);
                CREATE TRIGGER \(name) AFTER \(event) ON \(table)
                BEGIN INSERT INTO item_changes (kind, item_id, changed_at, version) VALUES ('\(kind)', \(row).\(id), unixepoch(), 1)
                ON CONFLICT (kind, item_id) DO UPDATE SET changed_at = excluded.changed_at, version = item_changes.version + 1; END;

                """
        }.joined()
    }

    /// A row in `plan_changes` after every insert, update and delete of `table`: `kind` and `id`
    /// are read from the row written (the old row, for a delete; both rows for an update, which
    /// may move an occurrence to another definition).
    static func changeTriggers(_ table: String, kind: String, id: String) -> String {
        func columns(_ row: String) -> String {
            let k = kind.hasPrefix("'") ? kind : "\(row).\(kind)"
            let i = id == "NULL" ? id : "\(row).\(id)"
            return "(\(k), \(i))"
        }
        return """
            CREATE TRIGGER \(table)_insert_changes AFTER INSERT ON \(table)
            BEGIN INSERT INTO plan_changes (kind, source_id) VALUES \(columns("NEW")); END;
            CREATE TRIGGER \(table)_update_changes AFTER UPDATE ON \(table)
            BEGIN INSERT INTO plan_changes (kind, source_id) VALUES \(columns("OLD")), \(columns("NEW")); END;
            CREATE TRIGGER \(table)_delete_changes AFTER DELETE ON \(table)
            BEGIN INSERT INTO plan_changes (kind, source_id) VALUES \(columns("OLD")); END;

            """
    }

    /// Rebuilds `table` with the same columns and an AUTOINCREMENT id (SQLite cannot add it in
    /// place: sqlite.org/lang_altertable.html, "making other kinds of table schema changes"). Runs
    /// with foreign keys off, so dropping the old table cascades nothing; the other tables'
    /// references name the table, so they point at the new one once it is renamed.
    static func neverReused(_ table: String, kind: String?, columns: String) -> String {
        // A delivery key starts `kind:id:` (`todo:12:2026-12-01:0m`); CAST keeps the leading digits.
        let existing = "coalesce((SELECT max(id) FROM \(table)), 0)"
        let logged = kind.map { ", coalesce((SELECT max(CAST(substr(key, \($0.count + 2)) AS INTEGER)) FROM deliveries WHERE key LIKE '\($0):%'), 0)" }
        return """
            CREATE TABLE \(table)_new (id INTEGER PRIMARY KEY AUTOINCREMENT, \(columns));
            INSERT INTO \(table)_new SELECT * FROM \(table);
            DROP TABLE \(table);
            ALTER TABLE \(table)_new RENAME TO \(table);
            DELETE FROM sqlite_sequence WHERE name = '\(table)';
            INSERT INTO sqlite_sequence (name, seq) VALUES ('\(table)', \(logged.map { "max(\(existing)\($0))" } ?? existing));

            """
    }
}
