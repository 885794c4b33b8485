import DawnletCore
import DawnletStore

/// A month's money as the store holds it, and the closing of a month: its snapshot written once,
/// when the month after begins (`serve` at its first decision then; a command that shows last
/// month's figures, when none was written).
public enum MonthClose {
    /// `month`'s whole cashflow: its rows (laid out if they were not), the calendar's renewals,
    /// debt payments and income, and the payments.
    public static func cashflow(of month: YearMonth, store: Store) throws -> MoneyMonth {
        try cashflow(of: month, store: store, debts: try store.sources.debts(), payments: try store.sources.payments())
    }

    /// The same, with the debts and payments already read.
    static func cashflow(of month: YearMonth, store: Store, debts: [Debt], payments: [Payment]) throws -> MoneyMonth {
        let rows = try store.money.loadMonth(month)
        let subscriptions = try store.sources.subscriptions()
        let events = MoneyCalendar.events(
            in: month.days, subscriptions: subscriptions, debts: debts, goals: [], incomes: try store.sources.incomeSources(), payments: payments)
        var names: [String: String] = [:]
        for s in subscriptions { names["subscription:\(s.id)"] = s.name }
        for d in debts { names["debt:\(d.id)"] = d.name }
        return MoneyMonth(month, transactions: rows, events: events, payments: payments, names: names)
    }

    /// The snapshot of the month before `today`'s: the one kept, else made now — and kept only
    /// when that month has ended by the clock's day `clock` (a what-if `--now` ahead of the clock
    /// keeps nothing) and the database saw it end (`MonthSnapshot.isRecord`, its day in `zone`): a
    /// month that ended before the database began is made each time, and a row kept of it (as the
    /// versions before kept one) is not read.
    public static func previous(before today: CivilDate, store: Store, now: Instant, clock: CivilDate, zone: Zone) throws -> MonthSnapshot? {
        let current = YearMonth(containing: today)
        guard current.firstDay.dayNumber > CivilDate(year: 1, month: 1, day: 31)!.dayNumber else { return nil }
        let previous = YearMonth(containing: current.firstDay.adding(days: -1))
        let began = try store.log.createdAt().map { ISO8601.localDate(of: $0, in: zone).date }
        let record = MonthSnapshot.isRecord(of: previous, databaseBegan: began)
        if record, let kept = try store.sources.snapshot(of: previous) { return kept }
        let (debts, payments) = (try store.sources.debts(), try store.sources.payments())
        let cashflow = try cashflow(of: previous, store: store, debts: debts, payments: payments)
        var closing = MonthSnapshot(closing: cashflow, debts: debts, payments: payments, taken: try store.sources.balanceTaken())
        closing.health = try health(of: cashflow, through: previous.lastDay, store: store, debts: debts, payments: payments).score
        guard record, YearMonth(containing: clock) > previous else { return closing }
        return try store.sources.keep(closing, takenAt: now)
    }
}
