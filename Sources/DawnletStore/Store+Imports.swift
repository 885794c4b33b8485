import DawnletCore

extension Store {
    /// Which todo or event each imported thing became (`import`): by its source and its
    /// identifier there.
    public struct Imports {
        let db: Connection
    }

    public var imports: Imports { Imports(db: db) }

    /// `body` in one write transaction: all of it written, or (when it throws) none.
    public func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T { try db.writeTransaction(body) }

    /// `body` in a write transaction that is rolled back whatever it does: what it would write,
    /// seen and then undone (`import --dry-run`).
    public func rehearsal<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try db.execute("BEGIN IMMEDIATE")
        defer { db.rollback() }
        return try body()
    }
}

extension Store.Imports {
    /// The item `sourceID` of `source` became, if an import made one (it may be deleted since).
    public func item(source: String, sourceID: String) throws(StoreError) -> (kind: ItemKind, id: Int64)? {
        try db.query("SELECT kind, item_id FROM imports WHERE source = ? AND source_id = ?", [.text(source), .text(sourceID)]) { row in
            ItemKind(rawValue: row.text(0)).map { ($0, row.int(1)) }
        }.first ?? nil
    }

    /// Notes that `sourceID` of `source` is now the item `id` of `kind`.
    public func record(source: String, sourceID: String, kind: ItemKind, id: Int64) throws(StoreError) {
        try db.run(
            "INSERT INTO imports (source, source_id, kind, item_id) VALUES (?, ?, ?, ?) ON CONFLICT (source, source_id) DO UPDATE SET kind = excluded.kind, item_id = excluded.item_id",
            [.text(source), .text(sourceID), .text(kind.rawValue), .int(id)])
    }
}
