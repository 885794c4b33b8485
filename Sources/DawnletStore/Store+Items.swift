internal import CSQLite
import DawnletCore
import Glibc

// MARK: - Todos, events, habits

extension Store.Items {
    /// Where each module keeps its definitions and occurrences, and how to read a definition as
    /// (id, title, date, time, schedule, duration, reminders).
    struct KindTables {
        let definitions: String
        let occurrences: String
        let select: String
        let noun: String

        /// Without `notes`, a todo's or event's note, location, link and priority are read as NULL:
        /// what a plan reads, which carries none of them.
        static func of(_ kind: ItemKind, notes: Bool = true) -> KindTables {
            let details = notes ? Store.Items.detailColumns : Store.Items.planDetailColumns
            switch kind {
            case .todo:
                return KindTables(
                    definitions: "todos", occurrences: "todo_occurrences",
                    select:
                        "SELECT id, title, due_date, due_time, schedule, NULL, reminders, reminds_from, channels, style, \(details), zone FROM todos",
                    noun: "todo")
            case .event:
                return KindTables(
                    definitions: "events", occurrences: "event_occurrences",
                    select:
                        "SELECT id, title, start_date, start_time, schedule, duration_minutes, reminders, reminds_from, channels, style, \(details), zone FROM events",
                    noun: "event")
            case .habit:
                return KindTables(
                    definitions: "habits", occurrences: "habit_entries",
                    select: "SELECT id, name, created, time, schedule, NULL, '', reminds_from, channels, style, NULL, NULL, NULL, NULL, NULL, NULL FROM habits",
                    noun: "habit")
            }
        }
    }

    /// Adds a definition and returns its id. A repeating item's schedule is stored with its anchor
    /// made explicit (the item's date, else `today`), so its meaning never depends on when it is read.
    /// It reminds from `now` on (nil: of every instant).
    public func addItem(
        kind: ItemKind, title: String, date: CivilDate?, time: WallTime?, schedule: Schedule?,
        durationMinutes: Int? = nil, reminders: [ReminderOffset] = [], channels: [Channel]? = nil, style: ReminderStyle? = nil,
        details: ItemDetails = ItemDetails(), zone: String? = nil, checklist: [String] = [], today: CivilDate, now: Instant? = nil
    ) throws(StoreError) -> Int64 {
        // A todo and its checklist in one transaction: the one is never there without the other.
        if !checklist.isEmpty {
            guard kind == .todo else { throw StoreError(.conflict, "only a todo holds a checklist") }
            return try db.writeTransaction { () throws(StoreError) -> Int64 in
                let id = try addItem(
                    kind: kind, title: title, date: date, time: time, schedule: schedule, durationMinutes: durationMinutes, reminders: reminders,
                    channels: channels, style: style, details: details, zone: zone, today: today, now: now)
                _ = try insertEntries(todo: id, checklist)
                return id
            }
        }
        var anchored = schedule
        if anchored != nil && anchored?.anchor == nil { anchored?.anchor = date ?? today }
        let common: [SQLValue] = [.text(title)]
        let from = now.map { SQLValue.int($0.secondsSinceEpoch) } ?? .null
        let routed = Self.channelsText(channels), styled = Self.styleText(style)
        switch kind {
        case .todo:
            try db.run(
                """
                INSERT INTO todos (title, due_date, due_time, schedule, reminders, created, reminds_from, channels, style, \(Self.detailColumns), zone)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                common + [
                    .described(date), .described(time), .described(anchored),
                    .text(ReminderOffset.text(reminders)), .text(today.description), from, routed, styled,
                ] + Self.detailValues(details) + [zone.sql])
        case .event:
            try db.run(
                """
                INSERT INTO events (
                    title, start_date, start_time, duration_minutes, schedule, reminders, created, reminds_from, channels, style, \(Self.detailColumns),
                    zone)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                common + [
                    .text((date ?? today).description), .described(time),
                    durationMinutes.map { .int(Int64($0)) } ?? .null, .described(anchored),
                    .text(ReminderOffset.text(reminders)), .text(today.description), from, routed, styled,
                ] + Self.detailValues(details) + [zone.sql])
        case .habit:
            try db.run(
                "INSERT INTO habits (name, schedule, time, created, reminds_from, channels, style) VALUES (?, ?, ?, ?, ?, ?, ?)",
                common + [
                    .text((anchored ?? Schedule(rule: .weekly(interval: 1, days: .all), anchor: today)).description),
                    .described(time), .text(today.description), from, routed, styled,
                ])
        }
        return db.lastInsertRowID
    }

    /// Every definition of the given kinds, by id. Without `notes`, their notes, locations, links
    /// and priorities are left out (nil), as a plan needs none of them: a definition read so is
    /// never to be written back.
    public func definitions(_ kinds: [ItemKind] = ItemKind.allCases, notes: Bool = true) throws(StoreError) -> [ItemDefinition] {
        // Counted first and read into one array of that size: grown by doubling, a plan of
        // 100,000 definitions would hold a third more, and both arrays while it grows.
        let counts = kinds.map { "(SELECT count(*) FROM \(KindTables.of($0).definitions))" }.joined(separator: " + ")
        var result: [ItemDefinition] = []
        result.reserveCapacity(Int(try db.query("SELECT " + counts) { $0.int(0) }.first ?? 0))
        for kind in kinds {
            try db.forEachRow(KindTables.of(kind, notes: notes).select + " ORDER BY id") { (row) throws(StoreError) in
                result.append(try Self.definition(kind, row, schedules))
            }
        }
        try readChecklists(into: &result)
        return result
    }

    /// One definition, or `.notFound` naming it.
    public func definition(_ kind: ItemKind, id: Int64) throws(StoreError) -> ItemDefinition {
        let tables = KindTables.of(kind)
        guard
            var found = try db.query(
                tables.select + " WHERE id = ?", [.int(id)],
                { (row) throws(StoreError) in
                    try Self.definition(kind, row, schedules)
                }
            ).first
        else {
            throw StoreError(.notFound, "no \(tables.noun) with id \(id)")
        }
        if kind == .todo {
            var one = [found]
            try readChecklists(into: &one, ids: [id])
            found = one[0]
        }
        return found
    }

    fileprivate static func definition(_ kind: ItemKind, _ row: Statement, _ schedules: ScheduleTexts) throws(StoreError) -> ItemDefinition {
        let id = row.int(0)
        func corrupt(_ what: String) -> StoreError {
            StoreError(.corrupt, "\(KindTables.of(kind).noun) \(id) has a \(what) this version cannot read")
        }
        let schedule = try row.decoded(4, schedules.parse, corrupt("schedule"))
        let date = try row.decoded(2, CivilDate.init, corrupt("date"))
        let time = try row.decoded(3, WallTime.init, corrupt("time"))
        guard let reminders = schedules.offsets(row.text(6)) else { throw corrupt("reminder list") }
        var definition = ItemDefinition(
            kind: kind, id: id, title: row.text(1), time: time, schedule: schedule, date: date,
            durationMinutes: row.isNull(5) ? nil : Int(row.int(5)), reminders: reminders)
        definition.remindsFrom = row.optionalInt(7).map(Instant.init(secondsSinceEpoch:))
        if let text = row.optionalText(8) {
            let channels = text.split(separator: ",").compactMap { Channel(rawValue: String($0)) }
            guard !channels.isEmpty, channels.count == text.split(separator: ",").count else { throw corrupt("channel list") }
            definition.channels = channels
        }
        if let text = row.optionalText(9) {
            guard let style = ReminderStyle(text: text) else { throw corrupt("reminder style") }
            definition.style = style
        }
        definition.details = ItemDetails(
            note: row.optionalText(10), location: row.optionalText(11), url: row.optionalText(12), priority: row.optionalInt(13).map { Int($0) },
            tags: row.optionalText(14).map { $0.split(separator: ",").map(String.init) } ?? [])
        definition.zone = row.optionalText(15)
        return definition
    }

    /// Stored occurrence rows of the given kinds dated inside `range`.
    public func storedOccurrences(_ kinds: [ItemKind] = ItemKind.allCases, in range: ClosedRange<CivilDate>) throws(StoreError) -> [StoredOccurrence] {
        var result: [StoredOccurrence] = []
        for kind in kinds {
            // Read per slice of a plan's days: one kept statement per kind.
            result += try occurrenceRows(
                kind, "SELECT id, definition_id, date, status, title, time FROM \(KindTables.of(kind).occurrences) WHERE date BETWEEN ? AND ?",
                [.text(range.lowerBound.description), .text(range.upperBound.description)], kept: true)
        }
        return result
    }

    /// A todo's or event's note (nil: none, or no such item), for a reminder's body as it goes out.
    public func note(_ kind: ItemKind, id: Int64) throws(StoreError) -> String? {
        guard kind != .habit else { return nil }
        return try db.query("SELECT note FROM \(KindTables.of(kind).definitions) WHERE id = ?", [.int(id)]) { $0.optionalText(0) }.first ?? nil
    }

    /// The definitions named, of one kind, by id; those that no longer exist are not there.
    /// Without `notes`, as `definitions(_:notes:)` reads them.
    public func definitions(_ kind: ItemKind, ids: Set<Int64>, notes: Bool = true) throws(StoreError) -> [ItemDefinition] {
        var found = try db.query(KindTables.of(kind, notes: notes).select + " WHERE id IN (\(sqlList(ids))) ORDER BY id") { (row) throws(StoreError) in
            try Self.definition(kind, row, schedules)
        }
        try readChecklists(into: &found, ids: ids)
        return found
    }

    /// The stored rows of the definitions named, of one kind, dated inside `range`.
    public func storedOccurrences(_ kind: ItemKind, ids: Set<Int64>, in range: ClosedRange<CivilDate>) throws(StoreError) -> [StoredOccurrence] {
        try occurrenceRows(
            kind,
            """
            SELECT id, definition_id, date, status, title, time FROM \(KindTables.of(kind).occurrences)
            WHERE definition_id IN (\(sqlList(ids))) AND date BETWEEN ? AND ?
            """, [.text(range.lowerBound.description), .text(range.upperBound.description)])
    }

    /// The stored rows of one-off todos, whatever their date: what decides whether each is done.
    /// With `ids`, only those todos' rows. From the todos to their rows (CROSS JOIN keeps that
    /// order): the rows of repeating todos, a year of them each, are never read.
    public func oneOffTodoRows(ids: Set<Int64>? = nil) throws(StoreError) -> [StoredOccurrence] {
        try occurrenceRows(
            .todo,
            """
            SELECT o.id, o.definition_id, o.date, o.status, o.title, o.time
            FROM todos t CROSS JOIN todo_occurrences o ON o.definition_id = t.id WHERE t.schedule IS NULL
            """ + (ids.map { " AND t.id IN (\(sqlList($0)))" } ?? ""), [])
    }

    private func occurrenceRows(_ kind: ItemKind, _ sql: String, _ arguments: [SQLValue], kept: Bool = false) throws(StoreError) -> [StoredOccurrence] {
        let read = { (row: Statement) throws(StoreError) -> StoredOccurrence in
            let corrupt = StoreError(.corrupt, "\(KindTables.of(kind).noun) occurrence \(row.int(0)) cannot be read")
            guard let date = CivilDate(row.text(2)), let status = OccurrenceStatus(rawValue: row.text(3)) else { throw corrupt }
            return StoredOccurrence(
                rowID: row.int(0), kind: kind, definitionID: row.int(1), date: date, status: status,
                title: row.optionalText(4), time: try row.decoded(5, WallTime.init, corrupt))
        }
        return kept ? try db.queryPrepared(sql, arguments, read) : try db.query(sql, arguments, read)
    }

    /// Records one instance: its status and/or edits. Creates the row if the instance was virtual;
    /// keeps what is not given. The caller has checked the date is an occurrence.
    /// Returns the status the instance had recorded before (nil: none).
    @discardableResult
    public func setOccurrence(
        _ kind: ItemKind, definitionID: Int64, date: CivilDate, status: OccurrenceStatus?,
        title: String? = nil, time: WallTime? = nil
    ) throws(StoreError) -> OccurrenceStatus? {
        let tables = KindTables.of(kind)
        let initial: OccurrenceStatus = kind == .habit ? .done : .open
        return try db.writeTransaction { () throws(StoreError) -> OccurrenceStatus? in
            _ = try definition(kind, id: definitionID)
            let before =
                try db.query(
                    "SELECT status FROM \(tables.occurrences) WHERE definition_id = ? AND date = ?", [.int(definitionID), .text(date.description)]
                ) { row in OccurrenceStatus(rawValue: row.text(0)) }.first ?? nil
            try db.run(
                """
                INSERT INTO \(tables.occurrences) (definition_id, date, status, title, time) VALUES (?1, ?2, coalesce(?3, ?6), ?4, ?5)
                ON CONFLICT (definition_id, date) DO UPDATE SET
                    status = coalesce(?3, status), title = coalesce(?4, title), time = coalesce(?5, time)
                """,
                [
                    .int(definitionID), .text(date.description), status.map { .text($0.rawValue) } ?? .null, title.sql,
                    .described(time), .text(initial.rawValue),
                ])
            return before
        }
    }

    /// Undoes `done` or `skip` on one instance: the row goes back to what it was before it was
    /// marked — removed when it held nothing else, else open with its edits kept (a habit's
    /// entry, which only records done or skipped, is removed). Returns false, changing nothing,
    /// when that instance is not marked `status`.
    @discardableResult
    public func clearOccurrence(_ kind: ItemKind, definitionID: Int64, date: CivilDate, status: OccurrenceStatus) throws(StoreError) -> Bool {
        let tables = KindTables.of(kind)
        return try db.writeTransaction { () throws(StoreError) -> Bool in
            _ = try definition(kind, id: definitionID)
            let key: [SQLValue] = [.int(definitionID), .text(date.description), .text(status.rawValue)]
            let removed = try db.run(
                """
                DELETE FROM \(tables.occurrences) WHERE definition_id = ? AND date = ? AND status = ?
                AND (\(kind == .habit ? "1" : "0") OR (title IS NULL AND time IS NULL))
                """, key)
            guard removed == 0 else { return true }
            return try db.run("UPDATE \(tables.occurrences) SET status = 'open' WHERE definition_id = ? AND date = ? AND status = ?", key) == 1
        }
    }

    /// Writes a definition as it now is (an edit of the series): title, date, time, schedule,
    /// duration and reminders. Its occurrence rows stay as they are: those on dates the schedule
    /// still produces keep counting, the others are history (OccurrenceMerge).
    /// A definition written over; when its date, time or schedule changes it reminds from `now` on.
    public func replaceDefinition(_ d: ItemDefinition, now: Instant? = nil) throws(StoreError) {
        let tables = KindTables.of(d.kind)
        let reminders = SQLValue.text(ReminderOffset.text(d.reminders))
        try db.writeTransaction { () throws(StoreError) in
            let old = try definition(d.kind, id: d.id)
            // The old schedule with the item's time, as an edit writes it: a change of the title
            // alone is no change of when. New offsets or channels count too: an edit never sends
            // now what was due before it.
            var oldSchedule = old.schedule
            oldSchedule?.time = old.time
            if let now,
                old.date != d.date || old.time != d.time || oldSchedule != d.schedule || old.reminders != d.reminders || old.channels != d.channels
                    || old.zone != d.zone
            {
                try db.run("UPDATE \(tables.definitions) SET reminds_from = ? WHERE id = ?", [.int(now.secondsSinceEpoch), .int(d.id)])
            }
            // A one-off moved to another day takes its row (done, edits) along.
            if old.schedule == nil, d.schedule == nil, let from = old.date, let to = d.date, from != to {
                try db.run(
                    """
                    UPDATE \(tables.occurrences) SET date = ?2 WHERE definition_id = ?3 AND date = ?1
                    AND NOT EXISTS (SELECT 1 FROM \(tables.occurrences) WHERE definition_id = ?3 AND date = ?2)
                    """, [.described(from), .described(to), .int(d.id)])
            }
            switch d.kind {
            case .todo:
                try db.run(
                    """
                    UPDATE todos SET title = ?, due_date = ?, due_time = ?, schedule = ?, reminders = ?, channels = ?, style = ?,
                        note = ?, location = ?, url = ?, priority = ?, tags = ?, zone = ?
                    WHERE id = ?
                    """,
                    [
                        .text(d.title), .described(d.date), .described(d.time), .described(d.schedule), reminders, Self.channelsText(d.channels),
                        Self.styleText(d.style),
                    ] + Self.detailValues(d.details) + [d.zone.sql, .int(d.id)])
            case .event:
                guard let start = d.date else { throw StoreError(.conflict, "\(tables.noun) \(d.id) needs a start date") }
                try db.run(
                    """
                    UPDATE events SET title = ?, start_date = ?, start_time = ?, duration_minutes = ?, schedule = ?, reminders = ?, channels = ?,
                        style = ?, note = ?, location = ?, url = ?, priority = ?, tags = ?, zone = ?
                    WHERE id = ?
                    """,
                    [
                        .text(d.title), .described(start), .described(d.time), d.durationMinutes.map { .int(Int64($0)) } ?? .null,
                        .described(d.schedule), reminders, Self.channelsText(d.channels), Self.styleText(d.style),
                    ] + Self.detailValues(d.details) + [d.zone.sql, .int(d.id)])
            case .habit:
                guard let schedule = d.schedule else { throw StoreError(.conflict, "\(tables.noun) \(d.id) needs its days") }
                try db.run(
                    "UPDATE habits SET name = ?, schedule = ?, time = ?, channels = ?, style = ? WHERE id = ?",
                    [.text(d.title), .described(schedule), .described(d.time), Self.channelsText(d.channels), Self.styleText(d.style), .int(d.id)])
            }
        }
    }

    /// The columns of a todo's or event's details, in the order `detailValues` gives them.
    static let detailColumns = "note, location, url, priority, tags"
    /// The same for a plan: only the tags (a tag names the list an item reminds as).
    static let planDetailColumns = "NULL, NULL, NULL, NULL, tags"

    /// `details` as stored: NULL for what it does not hold, the tags joined by commas.
    static func detailValues(_ details: ItemDetails) -> [SQLValue] {
        [
            details.note.map { .text($0) } ?? .null, details.location.map { .text($0) } ?? .null, details.url.map { .text($0) } ?? .null,
            details.priority.map { .int(Int64($0)) } ?? .null, details.tags.isEmpty ? .null : .text(details.tags.joined(separator: ",")),
        ]
    }

    /// An item's own channels as stored: names joined by commas; NULL for its kind's route.
    static func channelsText(_ channels: [Channel]?) -> SQLValue {
        channels.map { .text($0.map(\.rawValue).joined(separator: ",")) } ?? .null
    }

    /// An item's own style as stored (`nag=5m urgency=critical`); NULL for its kind's.
    static func styleText(_ style: ReminderStyle?) -> SQLValue {
        style?.text.map { .text($0) } ?? .null
    }

    /// Deletes a definition and every stored occurrence of it. Unlike skipping, nothing remains.
    public func delete(_ kind: ItemKind, id: Int64) throws(StoreError) {
        let tables = KindTables.of(kind)
        try db.writeTransaction { () throws(StoreError) in
            guard try db.run("DELETE FROM \(tables.definitions) WHERE id = ?", [.int(id)]) == 1 else {
                throw StoreError(.notFound, "no \(tables.noun) with id \(id)")
            }
        }
    }
}
