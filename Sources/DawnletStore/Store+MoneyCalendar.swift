import DawnletCore

/// Subscriptions, debts, goals, income sources and their payments.
extension Store.Sources {
    public func addSubscription(name: String, amount: Amount, schedule: Schedule, today: CivilDate) throws(StoreError) -> Int64 {
        var anchored = schedule
        if anchored.anchor == nil { anchored.anchor = today }
        try db.run(
            "INSERT INTO subscriptions (name, amount_minor, schedule, created) VALUES (?, ?, ?, ?)",
            [.text(name), .int(amount.minorUnits), .described(anchored), .described(today)])
        return db.lastInsertRowID
    }

    /// With `ids`, only those (so for debts, goals and income sources).
    public func subscriptions(ids: Set<Int64>? = nil) throws(StoreError) -> [Subscription] {
        try db.query("SELECT id, name, amount_minor, schedule, active, created FROM subscriptions\(whereID(ids)) ORDER BY id") { (row) throws(StoreError) in
            try Self.scheduledAmount(row, schedules, "subscription")
        }
    }

    public func subscription(id: Int64) throws(StoreError) -> Subscription {
        guard
            let found = try db.query(
                "SELECT id, name, amount_minor, schedule, active, created FROM subscriptions WHERE id = ?",
                [.int(id)], { (row) throws(StoreError) in try Self.scheduledAmount(row, schedules, "subscription") }
            ).first
        else { throw StoreError(.notFound, "no subscription with id \(id)") }
        return found
    }

    /// A subscription or income row (id, name, amount_minor, schedule, active, created): one shape,
    /// two tables.
    /// Signed as money moves for you, whatever sign an older version stored: a subscription is
    /// paid (negative), income received (positive).
    static func scheduledAmount(_ row: Statement, _ schedules: ScheduleTexts, _ noun: String) throws(StoreError) -> ScheduledAmount {
        guard let schedule = schedules.parse(row.text(3)) else { throw StoreError(.corrupt, "\(noun) \(row.int(0)) has a schedule this version cannot read") }
        let stored = Amount(minorUnits: row.int(2))
        return ScheduledAmount(
            id: row.int(0), name: row.text(1), amount: noun == "subscription" ? stored.paidOut : stored.magnitude, schedule: schedule,
            active: row.int(4) == 1, created: CivilDate(row.text(5)))
    }

    public func setSubscriptionActive(id: Int64, _ active: Bool) throws(StoreError) {
        guard try db.run("UPDATE subscriptions SET active = ? WHERE id = ?", [.int(active ? 1 : 0), .int(id)]) == 1 else {
            throw StoreError(.notFound, "no subscription with id \(id)")
        }
    }

    public func addDebt(name: String, balance: Amount, minimum: Amount, day: Int, today: CivilDate) throws(StoreError) -> Int64 {
        try db.run(
            "INSERT INTO debts (name, balance_minor, minimum_minor, payment_day, created) VALUES (?, ?, ?, ?, ?)",
            [.text(name), .int(balance.minorUnits), .int(minimum.minorUnits), .int(Int64(day)), .described(today)])
        return db.lastInsertRowID
    }

    public func debts(ids: Set<Int64>? = nil) throws(StoreError) -> [Debt] {
        try db.query("SELECT id, name, balance_minor, minimum_minor, payment_day, created FROM debts\(whereID(ids)) ORDER BY id", [], Self.debt)
    }

    public func debt(id: Int64) throws(StoreError) -> Debt {
        guard
            let found = try db.query(
                "SELECT id, name, balance_minor, minimum_minor, payment_day, created FROM debts WHERE id = ?",
                [.int(id)], Self.debt
            ).first
        else { throw StoreError(.notFound, "no debt with id \(id)") }
        return found
    }

    private static func debt(_ row: Statement) -> Debt {
        Debt(
            id: row.int(0), name: row.text(1), balance: Amount(minorUnits: row.int(2)), minimumPayment: Amount(minorUnits: row.int(3)),
            paymentDay: Int(row.int(4)), created: CivilDate(row.text(5)))
    }

    public func payOffDebt(id: Int64) throws(StoreError) {
        guard try db.run("UPDATE debts SET balance_minor = 0 WHERE id = ?", [.int(id)]) == 1 else {
            throw StoreError(.notFound, "no debt with id \(id)")
        }
    }

    public func addGoal(name: String, target: Amount, by date: CivilDate?, today: CivilDate) throws(StoreError) -> Int64 {
        try db.run(
            "INSERT INTO goals (name, target_minor, target_date, created) VALUES (?, ?, ?, ?)",
            [.text(name), .int(target.minorUnits), .described(date), .described(today)])
        return db.lastInsertRowID
    }

    public func goals(ids: Set<Int64>? = nil) throws(StoreError) -> [Goal] {
        try db.query("SELECT id, name, target_minor, target_date, created FROM goals\(whereID(ids)) ORDER BY id") { (row) throws(StoreError) in
            var date: CivilDate?
            if let text = row.optionalText(3) {
                guard let parsed = CivilDate(text) else { throw StoreError(.corrupt, "goal \(row.int(0)) has a date this version cannot read") }
                date = parsed
            }
            return Goal(id: row.int(0), name: row.text(1), target: Amount(minorUnits: row.int(2)), targetDate: date, created: CivilDate(row.text(4)))
        }
    }

    public func addIncome(name: String, amount: Amount, schedule: Schedule, today: CivilDate) throws(StoreError) -> Int64 {
        var anchored = schedule
        if anchored.anchor == nil { anchored.anchor = today }
        try db.run(
            "INSERT INTO income_sources (name, amount_minor, schedule, created) VALUES (?, ?, ?, ?)",
            [.text(name), .int(amount.minorUnits), .described(anchored), .described(today)])
        return db.lastInsertRowID
    }

    /// Income sources; a row whose schedule has no anchor (written before anchors were kept) is
    /// returned as it is, and the calendar skips it.
    public func incomeSources(ids: Set<Int64>? = nil) throws(StoreError) -> [IncomeSource] {
        try db.query("SELECT id, name, amount_minor, schedule, active, created FROM income_sources\(whereID(ids)) ORDER BY id") { (row) throws(StoreError) in
            try Self.scheduledAmount(row, schedules, "income source")
        }
    }

    /// With `of`, only the payments of those subscriptions and debts.
    public func payments(
        in range: ClosedRange<CivilDate>? = nil, of sources: (subscriptions: Set<Int64>, debts: Set<Int64>, goals: Set<Int64>)? = nil
    ) throws(StoreError) -> [Payment] {
        var sql = "SELECT id, kind, source_id, date, amount_minor, period_start FROM payments"
        if let sources {
            sql +=
                " WHERE ((kind = 'subscription' AND source_id IN (\(sqlList(sources.subscriptions)))) OR (kind = 'debt' AND source_id IN (\(sqlList(sources.debts))))"
                + " OR (kind = 'goal' AND source_id IN (\(sqlList(sources.goals)))))"
        }
        let filtered = range.map { _ in sql + (sources == nil ? " WHERE" : " AND") + " period_start BETWEEN ? AND ?" } ?? sql
        let arguments: [SQLValue] = range.map { [.described($0.lowerBound), .described($0.upperBound)] } ?? []
        return try db.query(filtered + " ORDER BY id", arguments) { (row) throws(StoreError) in
            guard let kind = Payment.Kind(rawValue: row.text(1)), let date = CivilDate(row.text(3)), let start = CivilDate(row.text(5)) else {
                throw StoreError(.corrupt, "payment \(row.int(0)) cannot be read")
            }
            return Payment(id: row.int(0), kind: kind, sourceID: row.int(2), date: date, amount: Amount(minorUnits: row.int(4)), periodStart: start)
        }
    }

    /// Records a payment for the period it falls in. A subscription's period takes one payment:
    /// a second is refused, naming the first. A debt's month takes more (the payments after the
    /// first are extra, `extra` says which the first was); a debt payment also lowers its balance
    /// (never below zero). A goal takes any number. Returns the payment's id and the period's
    /// payment before it, if any.
    public func logPayment(
        kind: Payment.Kind, sourceID: Int64, date: CivilDate, amount: Amount, periodStart: CivilDate,
        periodText: String, allowExtra: Bool = true
    ) throws(StoreError) -> (id: Int64, after: Int64?) {
        try db.writeTransaction { () throws(StoreError) in
            let existing = try db.query(
                "SELECT id, date, amount_minor FROM payments WHERE kind = ? AND source_id = ? AND period_start = ? ORDER BY id",
                [.text(kind.rawValue), .int(sourceID), .described(periodStart)]
            ) {
                (id: $0.int(0), date: $0.text(1), amount: Amount(minorUnits: $0.int(2)))
            }
            if kind == .subscription || !allowExtra, let first = existing.first {
                throw StoreError(
                    .conflict,
                    "\(kind.rawValue) \(sourceID) is already logged for \(periodText): payment #\(first.id) of \(first.amount.paidOut) on \(first.date)"
                        + (kind == .debt ? "; give --amount for an extra payment" : ""))
            }
            try db.run(
                "INSERT INTO payments (kind, source_id, date, amount_minor, period_start) VALUES (?, ?, ?, ?, ?)",
                [.text(kind.rawValue), .int(sourceID), .described(date), .int(amount.minorUnits), .described(periodStart)])
            let id = db.lastInsertRowID
            if kind == .debt {
                let balance = try debt(id: sourceID).balance.minorUnits
                let taken = min(balance, Int64(amount.minorUnits.magnitude))
                try db.run("UPDATE debts SET balance_minor = balance_minor - ? WHERE id = ?", [.int(taken), .int(sourceID)])
                try db.run("UPDATE payments SET balance_taken_minor = ? WHERE id = ?", [.int(taken), .int(id)])
            }
            return (id, kind == .goal ? nil : existing.first?.id)
        }
    }

    /// What logging a payment recorded.
    public struct Logged: Sendable {
        public let payment: Int64
        public let amount: Amount
        /// `the period 2026-12-02 to 2027-01-01`, `the month 2026-12`.
        public let period: String
        /// A debt paid off by it, and by how much it was over the balance (zero if exactly).
        public let paidOff: Amount?
        /// The month's payment before it, for an extra payment of a debt.
        public var extraAfter: Int64? = nil
    }

    /// Logs the payment of a subscription's billing period holding `date`, or of a debt's month:
    /// what `subscription log`, `debt log` and a notification's Log payment do. `amount` nil: the
    /// renewal's amount as money paid, or the debt's minimum (at most its balance). A paused
    /// subscription, a paid-off debt, a date before the first renewal or before the debt or goal
    /// was added (`MoneyStart`), a period logged already: `.conflict`, saying why.
    public func logPayment(for kind: Payment.Kind, id: Int64, on date: CivilDate, amount: Amount?) throws(StoreError) -> Logged {
        switch kind {
        case .subscription:
            let subscription = try subscription(id: id)
            guard subscription.active else { throw StoreError(.conflict, "subscription \(id) is paused: resume it to log a payment") }
            guard let period = MoneyCalendar.period(of: subscription, containing: date) else {
                throw StoreError(.conflict, "subscription \(id) has no renewal on or before \(date) (\(subscription.schedule))")
            }
            let paid = amount ?? Amount(minorUnits: Int64(subscription.amount.minorUnits.magnitude))
            let text = "the period \(period.lowerBound) to \(period.upperBound)"
            let payment = try logPayment(kind: .subscription, sourceID: id, date: date, amount: paid, periodStart: period.lowerBound, periodText: text)
            return Logged(payment: payment.id, amount: paid, period: text, paidOff: nil)
        case .debt:
            let debt = try debt(id: id)
            if let added = debt.start.firstDay, !debt.start.exists(on: date) {
                throw StoreError(.conflict, "debt \(id) was added on \(added): a payment on \(date) would be from before it existed")
            }
            guard debt.balance > .zero else { throw StoreError(.conflict, "debt \(id) is paid off: there is nothing left to pay") }
            let month = YearMonth(containing: date)
            let paid = amount ?? min(debt.minimumPayment, debt.balance)
            // The month's minimum once; more only as an amount asked for (an extra payment), so
            // that a second press of Log payment pays nothing twice (checked in the write itself).
            let payment = try logPayment(
                kind: .debt, sourceID: id, date: date, amount: paid, periodStart: month.firstDay, periodText: "the month \(month)",
                allowExtra: amount != nil)
            let over = paid >= debt.balance ? Amount(minorUnits: paid.minorUnits - debt.balance.minorUnits) : nil
            var logged = Logged(payment: payment.id, amount: paid, period: "the month \(month)", paidOff: over)
            logged.extraAfter = payment.after
            return logged
        case .goal:
            guard let goal = try goals(ids: [id]).first else { throw StoreError(.notFound, "no goal with id \(id)") }
            if let added = goal.start.firstDay, !goal.start.exists(on: date) {
                throw StoreError(.conflict, "goal \(id) was added on \(added): money put towards it on \(date) would be from before it existed")
            }
            guard let amount else { throw StoreError(.conflict, "goal \(id): give --amount, what you put towards it") }
            let payment = try logPayment(kind: .goal, sourceID: id, date: date, amount: amount, periodStart: date, periodText: "goal \(id)")
            return Logged(payment: payment.id, amount: amount, period: "goal \(id)", paidOff: nil)
        }
    }

    /// Deletes a payment: a debt gets back what the payment took off its balance, and its period
    /// is unlogged again unless another payment (a debt's extra one) still logs it. Returns the
    /// payment as it was.
    @discardableResult
    public func deletePayment(id: Int64) throws(StoreError) -> Payment {
        try db.writeTransaction { () throws(StoreError) in
            guard let payment = try payments().first(where: { $0.id == id }) else {
                throw StoreError(.notFound, "no payment with id \(id)")
            }
            if payment.kind == .debt {
                let taken =
                    try db.query("SELECT coalesce(balance_taken_minor, abs(amount_minor)) FROM payments WHERE id = ?", [.int(id)]) { $0.int(0) }.first ?? 0
                try db.run("UPDATE debts SET balance_minor = balance_minor + ? WHERE id = ?", [.int(taken), .int(payment.sourceID)])
            }
            try db.run("DELETE FROM payments WHERE id = ?", [.int(id)])
            return payment
        }
    }

    /// Deletes a subscription, debt, goal or income source. Its payments stay, as history.
    public func deleteMoneySource(_ kind: MoneySourceKind, id: Int64) throws(StoreError) {
        try db.writeTransaction { () throws(StoreError) in
            guard try db.run("DELETE FROM \(kind.table) WHERE id = ?", [.int(id)]) == 1 else {
                throw StoreError(.notFound, "no \(kind.rawValue) with id \(id)")
            }
        }
    }
}

/// The four sources of the money calendar, by their command's noun.
public enum MoneySourceKind: String, CaseIterable, Sendable {
    case subscription, debt, goal, income

    var table: String {
        switch self {
        case .subscription: "subscriptions"
        case .debt: "debts"
        case .goal: "goals"
        case .income: "income_sources"
        }
    }
}

/// What `edit` changes in a money row; nil keeps the value.
public struct MoneyChanges: Sendable {
    public var name: String?
    public var amount: Amount?
    public var schedule: Schedule?
    public var minimum: Amount?
    public var day: Int?
    public var balance: Amount?
    public var target: Amount?
    public var targetDate: CivilDate?
    /// A transaction's one date: it becomes (or stays) a one-off on it. A new `schedule` makes
    /// a one-off recurring.
    public var once: CivilDate?

    public init() {}

    public var isEmpty: Bool {
        name == nil && amount == nil && schedule == nil && minimum == nil && day == nil && balance == nil && target == nil && targetDate == nil
            && once == nil
    }
}

/// The money rows `edit` reaches: recurring transactions (`money`) and the calendar's sources.
public enum MoneyEditKind: String, CaseIterable, Sendable {
    case money, subscription, income, debt, goal

    var table: String {
        switch self {
        case .money: "recurring_transactions"
        case .subscription: "subscriptions"
        case .income: "income_sources"
        case .debt: "debts"
        case .goal: "goals"
        }
    }
}

extension Store.Sources {
    /// Changes a money row. A new schedule without an anchor keeps the old one. For `money`, the
    /// months already laid out from `today` on are laid out again from the new values (past rows
    /// are history; a skip stays).
    public func editMoney(_ kind: MoneyEditKind, id: Int64, _ changes: MoneyChanges, today: CivilDate) throws(StoreError) {
        try db.writeTransaction { () throws(StoreError) in
            var columns: [(String, SQLValue)] = []
            if let name = changes.name { columns.append(("name", .text(name))) }
            if let amount = changes.amount { columns.append(("amount_minor", .int(amount.minorUnits))) }
            if var schedule = changes.schedule {
                if schedule.anchor == nil {
                    let stored = try db.query("SELECT schedule FROM \(kind.table) WHERE id = ?", [.int(id)]) { $0.text(0) }.first
                    schedule.anchor = stored.flatMap(schedules.parse)?.anchor ?? today
                }
                columns.append(("schedule", .described(schedule)))
                if kind == .money { columns.append(("once", .null)) }
            }
            if let once = changes.once {
                columns.append(("once", .described(once)))
                columns.append(("schedule", .described(Store.Money.onceSchedule(once))))
            }
            if let minimum = changes.minimum { columns.append(("minimum_minor", .int(minimum.minorUnits))) }
            if let day = changes.day { columns.append(("payment_day", .int(Int64(day)))) }
            if let balance = changes.balance { columns.append(("balance_minor", .int(balance.minorUnits))) }
            if let target = changes.target { columns.append(("target_minor", .int(target.minorUnits))) }
            if let date = changes.targetDate { columns.append(("target_date", .described(date))) }
            guard !columns.isEmpty else { return }
            // Whether it was a one-off before this edit: then its row is the transaction itself.
            let stored = kind == .money ? try db.query("SELECT once FROM recurring_transactions WHERE id = ?", [.int(id)]) { $0.optionalText(0) } : []
            let wasOnce = (stored.first ?? nil) != nil
            let set = columns.map { "\($0.0) = ?" }.joined(separator: ", ")
            guard try db.run("UPDATE \(kind.table) SET \(set) WHERE id = ?", columns.map(\.1) + [.int(id)]) == 1 else {
                throw StoreError(.notFound, "no \(kind == .money ? "recurring transaction" : kind.rawValue) with id \(id)")
            }
            if kind == .money {
                try db.run("DELETE FROM transactions WHERE definition_id = ? AND date >= ? AND status = 'posted'", [.int(id), .described(today)])
                // A one-off's row is the transaction itself, not history: moved, it goes with it (a
                // row marked paid keeps its mark on the new date). A recurring one's past rows stay.
                if wasOnce, let once = changes.once {
                    try db.run("DELETE FROM transactions WHERE definition_id = ? AND status <> 'paid'", [.int(id)])
                    try db.run("UPDATE transactions SET date = ? WHERE definition_id = ? AND status = 'paid'", [.described(once), .int(id)])
                }
            }
            // A debt's monthly payment is never more than what is owed (paid off: no payment is due).
            if kind == .debt {
                let debt = try self.debt(id: id)
                if debt.balance > .zero && debt.minimumPayment > debt.balance {
                    throw StoreError(.conflict, "the minimum payment \(debt.minimumPayment) would be more than the balance \(debt.balance) of debt \(id)")
                }
            }
        }
    }
}
