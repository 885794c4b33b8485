internal import CSQLite
import DawnletCore
import Glibc

/// The dawnlet database: one SQLite file in WAL mode, created private (0600 in a 0700 folder),
/// migrated on open. Reads and writes of every module go through here; no clock is read here —
/// "today" is always an argument.
public final class Store {
    let db: Connection
    /// Schedules parsed during this Store's life, by their stored text: rows often share one
    /// ("weekdays from 2026-11-30"), and a plan reads every definition.
    let schedules = ScheduleTexts()

    /// The SQLite library this build links, for `doctor` and bug reports.
    public static let sqliteVersion = String(cString: sqlite3_libversion())

    /// The newest schema this version knows.
    public static var schemaVersion: Int { Migrations.latest }

    /// Opens the database at `path`, creating it (and missing folders) when absent, then migrates.
    ///
    /// Refuses, leaving the file and its `-wal`/`-journal` byte-for-byte untouched (SQLite never
    /// opens it): anything but a regular file; a file too short to be a database; a file that is
    /// not SQLite; an SQLite file of another program; a database whose schema is newer than this
    /// version's. (`DatabaseFile` decides from the bytes.)
    /// With `create: false` (a command that only reads), a missing file is `.missing`, and
    /// nothing is created.
    public init(path: String, busyTimeoutMilliseconds: Int32 = 5000, create: Bool = true) throws(StoreError) {
        if create {
            try Store.createIfMissing(path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        } else {
            var info = stat()
            if lstat(path, &info) != 0 && errno == ENOENT {
                throw StoreError(.missing, "no database at \(path) (the first command that writes, such as todo add, creates it)")
            }
        }
        let version: Int
        switch try DatabaseFile.inspect(path) {
        case .foreign(let why):
            throw StoreError(.notADatabase, "\(path) is not a dawnlet database: \(why) (left untouched)")
        case .ours(let onDisk):
            version = onDisk
        }
        if version > Migrations.latest {
            throw StoreError(
                .newerSchema,
                "database \(path) has schema version \(version), newer than this dawnlet-remind's \(Migrations.latest): upgrade dawnlet-remind")
        }
        db = try Connection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
        // Foreign keys go on after migrating: a migration that rebuilds a table must not cascade
        // the drop of the old one (and the pragma is a no-op inside a transaction).
        if version < Migrations.latest { try migrate() }
        try db.execute("PRAGMA foreign_keys = ON;")
    }

    /// Changes whenever another connection commits (`PRAGMA data_version`): the runner re-plans
    /// only when someone else wrote.
    public func dataVersion() throws(StoreError) -> Int64 {
        try db.query("PRAGMA data_version") { $0.int(0) }.first ?? 0
    }

    /// The schema version of the open database.
    public func schemaVersionOnDisk() throws(StoreError) -> Int {
        try db.query("PRAGMA user_version") { Int($0.int(0)) }.first ?? 0
    }

    private func migrate() throws(StoreError) {
        for (index, sql) in Migrations.all.enumerated() {
            let target = index + 1
            try db.writeTransaction { () throws(StoreError) in
                // Checked inside the write lock: another process may have migrated meanwhile.
                let current = try db.query("PRAGMA user_version") { Int($0.int(0)) }.first ?? 0
                guard current < target else { return }
                try db.execute(sql)
                // What foreign keys would have kept (they are off while migrating).
                if let broken = try db.query("PRAGMA foreign_key_check", [], { $0.text(0) }).first {
                    throw StoreError(.corrupt, "migration \(target) left a reference in \(broken) pointing nowhere; nothing was changed")
                }
                try db.execute("PRAGMA user_version = \(target)")
            }
        }
    }

    /// When nothing is at `path`: creates the missing folders (0700), then the database, migrated,
    /// in a private temporary file beside it (0600), and links that into place. So no empty or
    /// half-made file ever stands at `path`; a process that created it first wins, and its file is
    /// used. SQLite gives the -wal and -shm files the database file's permissions.
    private static func createIfMissing(_ path: String, busyTimeoutMilliseconds: Int32) throws(StoreError) {
        var info = stat()
        if lstat(path, &info) == 0 { return }
        var folder = ""
        let components = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        for (i, component) in components.enumerated() {
            folder += (i == 0 ? "" : "/") + component
            if folder.isEmpty || access(folder, F_OK) == 0 { continue }
            if mkdir(folder, 0o700) != 0 && errno != EEXIST {
                throw StoreError(.cannotOpen, "cannot create folder \(folder): \(String(cString: strerror(errno)))")
            }
        }
        var template = Array((path + ".new-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw StoreError(.cannotOpen, "cannot create database \(path): \(String(cString: strerror(errno)))")
        }
        close(fd)
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer {
            for suffix in ["", "-journal", "-wal", "-shm"] { unlink(temporary + suffix) }
        }
        do {
            let fresh = try Connection(path: temporary, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            try fresh.writeTransaction { () throws(StoreError) in
                for sql in Migrations.all { try fresh.execute(sql) }
                try fresh.execute("PRAGMA user_version = \(Migrations.latest)")
            }
            try fresh.execute("PRAGMA journal_mode = WAL")
        }
        if link(temporary, path) != 0 && errno != EEXIST {
            throw StoreError(.cannotOpen, "cannot create database \(path): \(String(cString: strerror(errno)))")
        }
    }
}

/// Ids as an SQL list: integers, so nothing a person typed is ever in the statement.
func sqlList(_ ids: Set<Int64>) -> String { ids.sorted().map(String.init).joined(separator: ",") }

/// ` WHERE id IN (…)` for `ids`, or nothing for every row.
func whereID(_ ids: Set<Int64>?) -> String { ids.map { " WHERE id IN (\(sqlList($0)))" } ?? "" }

// MARK: - Repositories: one per module, over the one connection

extension Store {
    /// Todos, events and habits: definitions and their occurrence rows.
    public struct Items {
        let db: Connection
        let schedules: ScheduleTexts
    }

    /// Recurring transactions and the months of rows they lay out.
    public struct Money {
        let db: Connection
        let schedules: ScheduleTexts
    }

    /// The money calendar's sources (subscriptions, debts, goals, income) and their payments.
    public struct Sources {
        let db: Connection
        let schedules: ScheduleTexts
    }

    /// The delivery log, and the database's own notes (settings).
    public struct Log {
        let db: Connection
    }

    /// The database file, for the runner's watch on its folder.
    public var path: String { db.path }

    public var items: Items { Items(db: db, schedules: schedules) }
    public var money: Money { Money(db: db, schedules: schedules) }
    public var sources: Sources { Sources(db: db, schedules: schedules) }
    public var log: Log { Log(db: db) }
}

// MARK: - Todos, events, habits

extension Store.Items {
    /// Where each module keeps its definitions and occurrences, and how to read a definition as
    /// (id, title, date, time, schedule, duration, reminders).
    struct KindTables {
        let definitions: String
        let occurrences: String
        let select: String
        let noun: String

        static func of(_ kind: ItemKind) -> KindTables {
            switch kind {
            case .todo:
                return KindTables(
                    definitions: "todos", occurrences: "todo_occurrences",
                    select: "SELECT id, title, due_date, due_time, schedule, NULL, reminders FROM todos", noun: "todo")
            case .event:
                return KindTables(
                    definitions: "events", occurrences: "event_occurrences",
                    select: "SELECT id, title, start_date, start_time, schedule, duration_minutes, reminders FROM events",
                    noun: "event")
            case .habit:
                return KindTables(
                    definitions: "habits", occurrences: "habit_entries",
                    select: "SELECT id, name, created, time, schedule, NULL, '' FROM habits", noun: "habit")
            }
        }
    }

    /// Adds a definition and returns its id. A repeating item's schedule is stored with its anchor
    /// made explicit (the item's date, else `today`), so its meaning never depends on when it is read.
    public func addItem(
        kind: ItemKind, title: String, date: CivilDate?, time: WallTime?, schedule: Schedule?,
        durationMinutes: Int? = nil, reminders: [ReminderOffset] = [], today: CivilDate
    ) throws(StoreError) -> Int64 {
        var anchored = schedule
        if anchored != nil && anchored?.anchor == nil { anchored?.anchor = date ?? today }
        let common: [SQLValue] = [.text(title)]
        switch kind {
        case .todo:
            try db.run(
                "INSERT INTO todos (title, due_date, due_time, schedule, reminders, created) VALUES (?, ?, ?, ?, ?, ?)",
                common + [
                    .described(date), .described(time), .described(anchored),
                    .text(ReminderOffset.text(reminders)), .text(today.description),
                ])
        case .event:
            try db.run(
                """
                INSERT INTO events (title, start_date, start_time, duration_minutes, schedule, reminders, created)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                common + [
                    .text((date ?? today).description), .described(time),
                    durationMinutes.map { .int(Int64($0)) } ?? .null, .described(anchored),
                    .text(ReminderOffset.text(reminders)), .text(today.description),
                ])
        case .habit:
            try db.run(
                "INSERT INTO habits (name, schedule, time, created) VALUES (?, ?, ?, ?)",
                common + [
                    .text((anchored ?? Schedule(rule: .weekly(interval: 1, days: .all), anchor: today)).description),
                    .described(time), .text(today.description),
                ])
        }
        return db.lastInsertRowID
    }

    /// Every definition of the given kinds, by id.
    public func definitions(_ kinds: [ItemKind] = ItemKind.allCases) throws(StoreError) -> [ItemDefinition] {
        var result: [ItemDefinition] = []
        for kind in kinds {
            let some = try db.query(KindTables.of(kind).select + " ORDER BY id") { (row) throws(StoreError) in
                try Self.definition(kind, row, schedules)
            }
            // The first kind's as they are: appended, each would be copied (2,000 todos: 0.15 ms).
            if result.isEmpty { result = some } else { result += some }
        }
        return result
    }

    /// One definition, or `.notFound` naming it.
    public func definition(_ kind: ItemKind, id: Int64) throws(StoreError) -> ItemDefinition {
        let tables = KindTables.of(kind)
        guard
            let found = try db.query(
                tables.select + " WHERE id = ?", [.int(id)],
                { (row) throws(StoreError) in
                    try Self.definition(kind, row, schedules)
                }
            ).first
        else {
            throw StoreError(.notFound, "no \(tables.noun) with id \(id)")
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
        return ItemDefinition(
            kind: kind, id: id, title: row.text(1), time: time, schedule: schedule, date: date,
            durationMinutes: row.isNull(5) ? nil : Int(row.int(5)), reminders: reminders)
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

    /// The definitions named, of one kind, by id; those that no longer exist are not there.
    public func definitions(_ kind: ItemKind, ids: Set<Int64>) throws(StoreError) -> [ItemDefinition] {
        try db.query(KindTables.of(kind).select + " WHERE id IN (\(sqlList(ids))) ORDER BY id") { (row) throws(StoreError) in
            try Self.definition(kind, row, schedules)
        }
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
    public func setOccurrence(
        _ kind: ItemKind, definitionID: Int64, date: CivilDate, status: OccurrenceStatus?,
        title: String? = nil, time: WallTime? = nil
    ) throws(StoreError) {
        let tables = KindTables.of(kind)
        let initial: OccurrenceStatus = kind == .habit ? .done : .open
        try db.writeTransaction { () throws(StoreError) in
            _ = try definition(kind, id: definitionID)
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
        }
    }

    /// Undoes `done` or `skip` on one instance: the row goes back to what it was before it was
    /// marked — removed when it held nothing else, else open with its edits kept (a habit's
    /// entry, which only records done or skipped, is removed). `.notFound` when that instance is
    /// not marked `status`.
    public func clearOccurrence(_ kind: ItemKind, definitionID: Int64, date: CivilDate, status: OccurrenceStatus) throws(StoreError) {
        let tables = KindTables.of(kind)
        try db.writeTransaction { () throws(StoreError) in
            _ = try definition(kind, id: definitionID)
            let key: [SQLValue] = [.int(definitionID), .text(date.description), .text(status.rawValue)]
            let removed = try db.run(
                """
                DELETE FROM \(tables.occurrences) WHERE definition_id = ? AND date = ? AND status = ?
                AND (\(kind == .habit ? "1" : "0") OR (title IS NULL AND time IS NULL))
                """, key)
            guard removed == 0 else { return }
            guard try db.run("UPDATE \(tables.occurrences) SET status = 'open' WHERE definition_id = ? AND date = ? AND status = ?", key) == 1 else {
                throw StoreError(.notFound, "\(tables.noun) \(definitionID) on \(date) is not \(status == .done ? "done" : "skipped")")
            }
        }
    }

    /// Writes a definition as it now is (an edit of the series): title, date, time, schedule,
    /// duration and reminders. Its occurrence rows stay as they are: those on dates the schedule
    /// still produces keep counting, the others are history (OccurrenceMerge).
    public func replaceDefinition(_ d: ItemDefinition) throws(StoreError) {
        let tables = KindTables.of(d.kind)
        let reminders = SQLValue.text(ReminderOffset.text(d.reminders))
        try db.writeTransaction { () throws(StoreError) in
            let old = try definition(d.kind, id: d.id)
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
                    "UPDATE todos SET title = ?, due_date = ?, due_time = ?, schedule = ?, reminders = ? WHERE id = ?",
                    [.text(d.title), .described(d.date), .described(d.time), .described(d.schedule), reminders, .int(d.id)])
            case .event:
                guard let start = d.date else { throw StoreError(.conflict, "\(tables.noun) \(d.id) needs a start date") }
                try db.run(
                    """
                    UPDATE events SET title = ?, start_date = ?, start_time = ?, duration_minutes = ?, schedule = ?, reminders = ? WHERE id = ?
                    """,
                    [
                        .text(d.title), .described(start), .described(d.time), d.durationMinutes.map { .int(Int64($0)) } ?? .null,
                        .described(d.schedule), reminders, .int(d.id),
                    ])
            case .habit:
                guard let schedule = d.schedule else { throw StoreError(.conflict, "\(tables.noun) \(d.id) needs its days") }
                try db.run(
                    "UPDATE habits SET name = ?, schedule = ?, time = ? WHERE id = ?",
                    [.text(d.title), .described(schedule), .described(d.time), .int(d.id)])
            }
        }
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

// MARK: - Money

extension Store.Money {
    public func addRecurringTransaction(name: String, amount: Amount, schedule: Schedule, today: CivilDate) throws(StoreError) -> Int64 {
        var anchored = schedule
        if anchored.anchor == nil { anchored.anchor = today }
        try db.run(
            "INSERT INTO recurring_transactions (name, amount_minor, schedule, created) VALUES (?, ?, ?, ?)",
            [.text(name), .int(amount.minorUnits), .text(anchored.description), .text(today.description)])
        return db.lastInsertRowID
    }

    /// With `ids`, only those.
    public func recurringTransactions(ids: Set<Int64>? = nil) throws(StoreError) -> [RecurringTransaction] {
        try db.query("SELECT id, name, amount_minor, schedule, created FROM recurring_transactions\(whereID(ids)) ORDER BY id") { (row) throws(StoreError) in
            try Self.recurring(row, schedules)
        }
    }

    public func recurringTransaction(id: Int64) throws(StoreError) -> RecurringTransaction {
        guard
            let found = try db.query(
                "SELECT id, name, amount_minor, schedule, created FROM recurring_transactions WHERE id = ?",
                [.int(id)], { (row) throws(StoreError) in try Self.recurring(row, schedules) }
            ).first
        else { throw StoreError(.notFound, "no recurring transaction with id \(id)") }
        return found
    }

    private static func recurring(_ row: Statement, _ schedules: ScheduleTexts) throws(StoreError) -> RecurringTransaction {
        guard let schedule = schedules.parse(row.text(3)), let created = CivilDate(row.text(4)) else {
            throw StoreError(.corrupt, "recurring transaction \(row.int(0)) cannot be read")
        }
        return RecurringTransaction(
            id: row.int(0), name: row.text(1), amount: Amount(minorUnits: row.int(2)),
            schedule: schedule, created: created)
    }

    /// Loads a month: in one write transaction, creates the transaction row of every (definition,
    /// date) its schedules match that has none yet (skipped rows count as having one), then returns
    /// every row of the month by date. Loading twice creates nothing new.
    public func loadMonth(_ month: YearMonth) throws(StoreError) -> [Transaction] {
        try db.writeTransaction { () throws(StoreError) in
            let existing = try transactions(in: month.days)
            let missing = MoneyRules.missing(in: month, definitions: try recurringTransactions(), existing: existing)
            guard !missing.isEmpty else { return existing }
            let insert = try db.prepare(
                """
                INSERT INTO transactions (definition_id, date, name, amount_minor, status) VALUES (?, ?, ?, ?, 'posted')
                """)
            for due in missing {
                try insert.bind([
                    .int(due.definition.id), .text(due.date.description), .text(due.definition.name),
                    .int(due.definition.amount.minorUnits),
                ])
                _ = try insert.step()
                insert.reset()
            }
            return try transactions(in: month.days)
        }
    }

    public func transactions(in range: ClosedRange<CivilDate>) throws(StoreError) -> [Transaction] {
        // Read per slice of a plan's days: a kept statement.
        try db.queryPrepared(
            """
            SELECT id, definition_id, date, name, amount_minor, status FROM transactions
            WHERE date BETWEEN ? AND ? ORDER BY date, id
            """, [.text(range.lowerBound.description), .text(range.upperBound.description)]
        ) { (row) throws(StoreError) in
            guard let date = CivilDate(row.text(2)), let status = Transaction.Status(rawValue: row.text(5)) else {
                throw StoreError(.corrupt, "transaction \(row.int(0)) cannot be read")
            }
            return Transaction(
                id: row.int(0), definitionID: row.isNull(1) ? nil : row.int(1), date: date,
                name: row.text(3), amount: Amount(minorUnits: row.int(4)), status: status)
        }
    }

    /// Marks the (definition, date) transaction skipped, creating its row if the month was never
    /// loaded. The caller has checked the date is one the schedule produces.
    public func skipTransaction(definitionID: Int64, date: CivilDate) throws(StoreError) {
        try db.writeTransaction { () throws(StoreError) in
            let definition = try recurringTransaction(id: definitionID)
            try db.run(
                """
                INSERT INTO transactions (definition_id, date, name, amount_minor, status) VALUES (?, ?, ?, ?, 'skipped')
                ON CONFLICT (definition_id, date) DO UPDATE SET status = 'skipped'
                """, [.int(definitionID), .text(date.description), .text(definition.name), .int(definition.amount.minorUnits)])
        }
    }

    /// Marks the (definition, date) bill paid (Paid on its notification), creating its row if its
    /// month was never laid out. `.conflict` naming the state when it is skipped or paid already.
    public func markTransactionPaid(definitionID: Int64, date: CivilDate) throws(StoreError) {
        try db.writeTransaction { () throws(StoreError) in
            let definition = try recurringTransaction(id: definitionID)
            let current = try db.query(
                "SELECT status FROM transactions WHERE definition_id = ? AND date = ?",
                [.int(definitionID), .text(date.description)]
            ) { $0.text(0) }.first
            guard current == nil || current == "posted" else {
                throw StoreError(.conflict, "recurring transaction \(definitionID) on \(date) is \(current ?? "") already")
            }
            try db.run(
                """
                INSERT INTO transactions (definition_id, date, name, amount_minor, status) VALUES (?, ?, ?, ?, 'paid')
                ON CONFLICT (definition_id, date) DO UPDATE SET status = 'paid'
                """, [.int(definitionID), .text(date.description), .text(definition.name), .int(definition.amount.minorUnits)])
        }
    }

    /// Undoes `money skip`: the (definition, date) transaction counts again.
    public func unskipTransaction(definitionID: Int64, date: CivilDate) throws(StoreError) {
        try db.writeTransaction { () throws(StoreError) in
            _ = try recurringTransaction(id: definitionID)
            guard
                try db.run(
                    "UPDATE transactions SET status = 'posted' WHERE definition_id = ? AND date = ? AND status = 'skipped'",
                    [.int(definitionID), .text(date.description)]) == 1
            else {
                throw StoreError(.notFound, "recurring transaction \(definitionID) on \(date) is not skipped")
            }
        }
    }

    /// Deletes a recurring transaction. Rows before `today` stay as history (no longer linked);
    /// its rows from `today` on are removed, so future months no longer count it.
    public func deleteRecurringTransaction(id: Int64, today: CivilDate) throws(StoreError) {
        try db.writeTransaction { () throws(StoreError) in
            try db.run("DELETE FROM transactions WHERE definition_id = ? AND date >= ?", [.int(id), .text(today.description)])
            guard try db.run("DELETE FROM recurring_transactions WHERE id = ?", [.int(id)]) == 1 else {
                throw StoreError(.notFound, "no recurring transaction with id \(id)")
            }
        }
    }
}

/// Parsed schedules and reminder lists by their stored text, for one Store (one thread): the
/// many definitions that say the same share one value (one list of offsets, not one each).
final class ScheduleTexts {
    private var parsed: [String: Schedule] = [:]
    private var lists: [String: [ReminderOffset]] = [:]

    func parse(_ text: String) -> Schedule? {
        if let known = parsed[text] { return known }
        guard let schedule = Schedule(text) else { return nil }
        parsed[text] = schedule
        return schedule
    }

    func offsets(_ text: String) -> [ReminderOffset]? {
        if let known = lists[text] { return known }
        guard let list = ReminderOffset.list(text) else { return nil }
        lists[text] = list
        return list
    }
}
