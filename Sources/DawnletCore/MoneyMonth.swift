/// A month's whole cashflow: every line of money of the month, whatever it comes from — bills
/// (the real transaction rows, one-off ones among them), subscription renewals, debt payments due
/// and income — each with its status, and the exact totals in, out and net. Goals are no flow of
/// money and are not in it. Pure: the caller reads the rows and the calendar's events.
public struct MoneyMonth: Hashable, Sendable {
    public struct Line: Hashable, Sendable {
        /// `bill`, `subscription`, `debt` or `income`.
        public let kind: String
        public let date: CivilDate
        /// The transaction row (a bill) or the logged payment, if any.
        public let id: Int64?
        /// The recurring transaction, subscription, debt or income source it comes from (nil: a
        /// one-off transaction, or one whose recurring transaction was deleted).
        public let sourceID: Int64?
        public let name: String
        /// Signed as money moves for you: paid negative, received positive. A logged payment's
        /// own amount, where one is logged.
        public let amount: Amount
        /// `posted`, `paid`, `skipped` (bills), `logged` or `due` (subscriptions, debts, income),
        /// `extra` (a debt's payment after the month's first).
        public let status: String

        /// Whether it counts in the totals: all but a skipped bill.
        public var counts: Bool { status != "skipped" }
    }

    public let month: YearMonth
    /// By date, then bills before the calendar's kinds (in its order), then id.
    public let lines: [Line]
    /// What comes in (positive), what goes out (negative), and the two together; exact for any
    /// number of lines (128 bits).
    public let incoming: Total
    public let outgoing: Total
    public var net: Total { Total(minorUnits: incoming.minorUnits + outgoing.minorUnits) }

    /// `transactions`: the month's rows (`Store.Money.loadMonth`); `events`: the money calendar's
    /// events of the month (`MoneyCalendar.events`), of which goals are left out; `payments`: the
    /// payments, of which a debt's extra ones in the month are lines of their own.
    /// A payment whose source is paused or deleted (no event) is a line of its own, named from
    /// `names` (`"subscription:3"` → its name) or `(deleted)`.
    public init(_ month: YearMonth, transactions: [Transaction], events: [CalendarEvent], payments: [Payment], names: [String: String] = [:]) {
        var lines = transactions.map {
            Line(
                kind: "bill", date: $0.date, id: $0.id, sourceID: $0.definitionID, name: $0.name, amount: $0.amount,
                status: $0.status.rawValue)
        }
        for event in events where event.kind != .goal {
            guard let amount = event.payment.map({ $0.amount.paidOut }) ?? event.amount else { continue }
            lines.append(
                Line(
                    kind: event.kind.rawValue, date: event.date, id: event.payment?.id, sourceID: event.sourceID, name: event.name,
                    amount: amount, status: event.payment == nil ? "due" : "logged"))
        }
        var shown = Set(events.compactMap { $0.payment?.id })
        for event in events where event.kind == .debt {
            guard let first = event.payment else { continue }
            for p in payments where p.kind == .debt && p.sourceID == event.sourceID && p.periodStart == first.periodStart && p.id != first.id {
                lines.append(
                    Line(kind: "debt", date: p.date, id: p.id, sourceID: p.sourceID, name: event.name, amount: p.amount.paidOut, status: "extra"))
                shown.insert(p.id)
            }
        }
        // Paid all the same: a payment of the month whose source was paused or deleted since, or
        // of a debt in the month it was added after its payment day (no payment was due). On its
        // renewal for a subscription; for a debt, whose period is its month, on the day it was paid.
        for p in payments where p.kind != .goal && month.days.contains(p.periodStart) && !shown.contains(p.id) {
            lines.append(
                Line(
                    kind: p.kind.rawValue, date: p.kind == .debt ? p.date : p.periodStart, id: p.id, sourceID: p.sourceID,
                    name: names["\(p.kind.rawValue):\(p.sourceID)"] ?? "(deleted)",
                    amount: p.amount.paidOut, status: "logged"))
        }
        let order = ["bill"] + CalendarEvent.Kind.allCases.map(\.rawValue)
        lines.sort { a, b in
            if a.date != b.date { return a.date < b.date }
            if a.kind != b.kind { return order.firstIndex(of: a.kind) ?? 0 < order.firstIndex(of: b.kind) ?? 0 }
            return (a.sourceID ?? a.id ?? 0) < (b.sourceID ?? b.id ?? 0)
        }
        var (incoming, outgoing) = (Int128(0), Int128(0))
        for line in lines where line.counts {
            if line.amount > .zero { incoming += Int128(line.amount.minorUnits) } else { outgoing += Int128(line.amount.minorUnits) }
        }
        self.month = month
        self.lines = lines
        self.incoming = Total(minorUnits: incoming)
        self.outgoing = Total(minorUnits: outgoing)
    }
}

/// A closed month as it stood when it closed: what came in and went out, and each debt's balance
/// at its end. Kept once (`month_snapshots`), so that the month after compares with a record of
/// the past, not with the past worked out again from definitions edited since.
public struct MonthSnapshot: Hashable, Sendable {
    public let month: YearMonth
    public let incoming: Total
    public let outgoing: Total
    /// Debt id → balance at the month's end.
    public let debts: [Int64: Amount]
    /// The month's rating (`MonthHealth`) as it closed; nil for a month kept before ratings were.
    public var health: Int?

    public init(month: YearMonth, incoming: Total, outgoing: Total, debts: [Int64: Amount], health: Int? = nil) {
        (self.month, self.incoming, self.outgoing, self.debts, self.health) = (month, incoming, outgoing, debts, health)
    }

    public var net: Total { Total(minorUnits: incoming.minorUnits + outgoing.minorUnits) }

    /// `month` closed: its cashflow, and the balance at its end of each debt added by then, worked
    /// back from the balance now by what the payments made after it took off.
    public init(closing cashflow: MoneyMonth, debts: [Debt], payments: [Payment], taken: [Int64: Amount]) {
        var balances: [Int64: Amount] = [:]
        // A debt added after the month ended had no balance at its end.
        for debt in debts where debt.start.exists(on: cashflow.month.lastDay) {
            let after = payments.filter { $0.kind == .debt && $0.sourceID == debt.id && $0.date > cashflow.month.lastDay }
            let back = after.reduce(Int64(0)) { $0 + (taken[$1.id] ?? $1.amount.magnitude).minorUnits }
            balances[debt.id] = Amount(minorUnits: debt.balance.minorUnits + back)
        }
        self.init(month: cashflow.month, incoming: cashflow.incoming, outgoing: cashflow.outgoing, debts: balances)
    }
}

extension MonthSnapshot {
    /// Whether `month`'s figures are kept as a record: only when the database saw the month end,
    /// having begun (`began`, its local day) on one of the month's days or before. A month that
    /// ended before the database began was never seen to close, so nothing of it is kept: its
    /// figures are what has been entered about it, worked out each time they are shown, and a bill
    /// back-dated into it later still counts. nil: not known, a record.
    public static func isRecord(of month: YearMonth, databaseBegan began: CivilDate?) -> Bool {
        began.map { $0 <= month.lastDay } ?? true
    }
}
