internal import CSQLite
import DawnletCore
import Glibc

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

    /// A one-off transaction on `date` (`money add --on`): a definition like a recurring one, so
    /// that it is listed, edited, skipped and deleted by its id, laid out in its month and totalled.
    public func addOneOff(name: String, amount: Amount, on date: CivilDate, today: CivilDate) throws(StoreError) -> Int64 {
        try db.run(
            "INSERT INTO recurring_transactions (name, amount_minor, schedule, created, once) VALUES (?, ?, ?, ?, ?)",
            [.text(name), .int(amount.minorUnits), .described(Self.onceSchedule(date)), .described(today), .described(date)])
        return db.lastInsertRowID
    }

    /// What a one-off's schedule column holds: a schedule from its date, never used.
    static func onceSchedule(_ date: CivilDate) -> Schedule { Schedule(rule: .monthlyOnDay(interval: 1, day: nil), anchor: date) }

    static let recurringColumns = "id, name, amount_minor, schedule, created, once"

    /// With `ids`, only those.
    public func recurringTransactions(ids: Set<Int64>? = nil) throws(StoreError) -> [RecurringTransaction] {
        try db.query("SELECT \(Self.recurringColumns) FROM recurring_transactions\(whereID(ids)) ORDER BY id") { (row) throws(StoreError) in
            try Self.recurring(row, schedules)
        }
    }

    public func recurringTransaction(id: Int64) throws(StoreError) -> RecurringTransaction {
        guard
            let found = try db.query(
                "SELECT \(Self.recurringColumns) FROM recurring_transactions WHERE id = ?",
                [.int(id)], { (row) throws(StoreError) in try Self.recurring(row, schedules) }
            ).first
        else { throw StoreError(.notFound, "no recurring transaction with id \(id)") }
        return found
    }

    private static func recurring(_ row: Statement, _ schedules: ScheduleTexts) throws(StoreError) -> RecurringTransaction {
        let once = row.optionalText(5)
        guard let schedule = schedules.parse(row.text(3)), let created = CivilDate(row.text(4)), once.map({ CivilDate($0) != nil }) ?? true else {
            throw StoreError(.corrupt, "recurring transaction \(row.int(0)) cannot be read")
        }
        return RecurringTransaction(
            id: row.int(0), name: row.text(1), amount: Amount(minorUnits: row.int(2)),
            schedule: schedule, created: created, once: once.flatMap(CivilDate.init))
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

    /// Undoes `money skip`: the (definition, date) transaction counts again. Returns false,
    /// changing nothing, when it was not skipped.
    @discardableResult
    public func unskipTransaction(definitionID: Int64, date: CivilDate) throws(StoreError) -> Bool {
        try db.writeTransaction { () throws(StoreError) -> Bool in
            _ = try recurringTransaction(id: definitionID)
            return try db.run(
                "UPDATE transactions SET status = 'posted' WHERE definition_id = ? AND date = ? AND status = 'skipped'",
                [.int(definitionID), .text(date.description)]) == 1
        }
    }

    /// Undoes a payment (`money unpaid`): the (definition, date) bill counts as posted, not paid.
    /// Returns false, changing nothing, when it was not paid.
    @discardableResult
    public func unpayTransaction(definitionID: Int64, date: CivilDate) throws(StoreError) -> Bool {
        try db.writeTransaction { () throws(StoreError) -> Bool in
            _ = try recurringTransaction(id: definitionID)
            return try db.run(
                "UPDATE transactions SET status = 'posted' WHERE definition_id = ? AND date = ? AND status = 'paid'",
                [.int(definitionID), .text(date.description)]) == 1
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
