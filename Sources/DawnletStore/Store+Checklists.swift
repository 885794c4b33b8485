import DawnletCore

// MARK: - A todo's checklist

extension Store.Items {
    /// Appends entries to todo `id`'s checklist, after those it has; their ids in order.
    /// `.notFound` for no such todo; `.conflict` when it would hold more than `Checklist.mostEntries`.
    @discardableResult
    public func addChecklistEntries(todo id: Int64, _ texts: [String]) throws(StoreError) -> [Int64] {
        try db.writeTransaction { () throws(StoreError) -> [Int64] in
            _ = try definition(.todo, id: id)
            return try insertEntries(todo: id, texts)
        }
    }

    /// The same inside a transaction the caller holds.
    func insertEntries(todo id: Int64, _ texts: [String]) throws(StoreError) -> [Int64] {
        let (count, last) =
            try db.query("SELECT count(*), coalesce(max(position), 0) FROM todo_checklist WHERE todo_id = ?", [.int(id)]) { row in
                (Int(row.int(0)), row.int(1))
            }.first ?? (0, 0)
        guard count + texts.count <= Checklist.mostEntries else {
            throw StoreError(.conflict, "todo \(id) would hold \(count + texts.count) checklist entries; at most \(Checklist.mostEntries)")
        }
        var ids: [Int64] = []
        for (i, text) in texts.enumerated() {
            try db.run("INSERT INTO todo_checklist (todo_id, position, text) VALUES (?, ?, ?)", [.int(id), .int(last + 1 + Int64(i)), .text(text)])
            ids.append(db.lastInsertRowID)
        }
        return ids
    }

    /// Removes one entry (and its checks on every occurrence) from todo `id`'s checklist; false when
    /// it has no such entry.
    public func removeChecklistEntry(todo id: Int64, entry: Int64) throws(StoreError) -> Bool {
        try db.writeTransaction { () throws(StoreError) -> Bool in
            try db.run("DELETE FROM todo_checklist WHERE id = ? AND todo_id = ?", [.int(entry), .int(id)]) == 1
        }
    }

    /// Checks (or unchecks) one entry on one occurrence (nil: a one-off todo's one state).
    /// Whether that changed anything (false: it already was so).
    public func setChecked(todo id: Int64, entry: Int64, occurrence: CivilDate?, _ checked: Bool, at now: Instant) throws(StoreError) -> Bool {
        let key: [SQLValue] = [.int(entry), .text(occurrence?.description ?? "")]
        return try db.writeTransaction { () throws(StoreError) -> Bool in
            guard try !db.query("SELECT 1 FROM todo_checklist WHERE id = ? AND todo_id = ?", [.int(entry), .int(id)], { _ in true }).isEmpty else {
                throw StoreError(.notFound, "todo \(id) has no checklist entry \(entry)")
            }
            if checked {
                return try db.run(
                    "INSERT INTO todo_checklist_checks (entry_id, occurrence, todo_id, checked_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    key + [.int(id), .int(now.secondsSinceEpoch)]) == 1
            }
            return try db.run("DELETE FROM todo_checklist_checks WHERE entry_id = ? AND occurrence = ?", key) == 1
        }
    }

    /// The checklists of the todos among `definitions` (with `ids`, of those todos only), read
    /// into them. Two queries, whatever the number of todos; none is read when no todo has one.
    func readChecklists(into definitions: inout [ItemDefinition], ids: Set<Int64>? = nil) throws(StoreError) {
        guard definitions.contains(where: { $0.kind == .todo }) else { return }
        let only = ids.map { " WHERE todo_id IN (\(sqlList($0)))" } ?? ""
        var lists: [Int64: Checklist] = [:]
        for (todo, entry) in try db.query(
            "SELECT todo_id, id, text FROM todo_checklist\(only) ORDER BY todo_id, position, id", [],
            { row in
                (row.int(0), Checklist.Entry(id: row.int(1), text: row.text(2)))
            })
        {
            lists[todo, default: Checklist()].entries.append(entry)
        }
        guard !lists.isEmpty else { return }
        let rows = try db.query("SELECT todo_id, entry_id, occurrence, checked_at FROM todo_checklist_checks\(only)", []) { (row) throws(StoreError) in
            let text = row.text(2)
            guard text.isEmpty || CivilDate(text) != nil else {
                throw StoreError(.corrupt, "todo \(row.int(0)) has a checklist check this version cannot read")
            }
            return (row.int(0), row.int(1), CivilDate(text), Instant(secondsSinceEpoch: row.int(3)))
        }
        for (todo, entry, occurrence, at) in rows { lists[todo]?.checked[occurrence, default: [:]][entry] = at }
        for i in definitions.indices where definitions[i].kind == .todo {
            if let list = lists[definitions[i].id] { definitions[i].checklist = list }
        }
    }
}
