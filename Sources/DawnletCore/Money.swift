/// A calendar month, `YYYY-MM`.
public struct YearMonth: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let year: Int
    public let month: Int

    public init?(year: Int, month: Int) {
        guard CivilDate.supportedYears.contains(year), (1...12).contains(month) else { return nil }
        self.year = year
        self.month = month
    }

    public init(containing date: CivilDate) {
        let c = date.components
        year = c.year
        month = c.month
    }

    /// Parses exactly `YYYY-MM`.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
            let y = parseDigits(parts[0]), let m = parseDigits(parts[1])
        else { return nil }
        self.init(year: y, month: m)
    }

    public var firstDay: CivilDate { CivilDate.clamped(year: year, month: month, day: 1) }
    public var lastDay: CivilDate { CivilDate.clamped(year: year, month: month, day: 31) }
    public var days: ClosedRange<CivilDate> { firstDay...lastDay }

    public var description: String { pad(year, 4) + "-" + pad(month, 2) }

    public static func < (a: YearMonth, b: YearMonth) -> Bool { (a.year, a.month) < (b.year, b.month) }
}

/// A recurring transaction (a bill, a salary), or a one-off one on a single date: the money
/// module's definition.
public struct RecurringTransaction: Hashable, Sendable {
    public let id: Int64
    public var name: String
    public var amount: Amount
    /// Its anchor is explicit once stored. Not used for a one-off.
    public var schedule: Schedule
    /// Where the anchor defaults to for a schedule without one.
    public var created: CivilDate
    /// A one-off transaction's date: then it falls on that day alone.
    public var once: CivilDate?

    public init(id: Int64, name: String, amount: Amount, schedule: Schedule, created: CivilDate, once: CivilDate? = nil) {
        self.id = id
        self.name = name
        self.amount = amount
        self.schedule = schedule
        self.created = created
        self.once = once
    }

    /// From its one-off date or its schedule's anchor (a start given), else from the day it was
    /// added (`MoneyStart`).
    public var start: MoneyStart { MoneyStart(given: once ?? schedule.anchor, added: created) }

    /// The dates it falls on in `range`: its schedule's, or a one-off's date; none before its start.
    public func dates(in range: ClosedRange<CivilDate>) -> [CivilDate] {
        guard let days = start.days(of: range) else { return [] }
        guard let once else { return schedule.occurrences(in: days, defaultAnchor: created) }
        return days.contains(once) ? [once] : []
    }

    /// Whether it falls on `date`.
    public func falls(on date: CivilDate) -> Bool {
        start.exists(on: date) && (once.map { $0 == date } ?? schedule.matches(date, defaultAnchor: created))
    }

    /// When it falls, as `money list` says it: its schedule, or `once on 2026-12-24`.
    public var when: String { once.map { "once on \($0)" } ?? schedule.description }
}

/// A real transaction row: the money module's occurrence.
public struct Transaction: Hashable, Sendable {
    /// Posted (laid out for its month), skipped (left out of totals), or paid (marked so from its
    /// notification; counted as posted).
    public enum Status: String, Hashable, Sendable { case posted, skipped, paid }

    public let id: Int64
    public let definitionID: Int64?
    public let date: CivilDate
    public var name: String
    public var amount: Amount
    public var status: Status

    public init(id: Int64, definitionID: Int64?, date: CivilDate, name: String, amount: Amount, status: Status) {
        self.id = id
        self.definitionID = definitionID
        self.date = date
        self.name = name
        self.amount = amount
        self.status = status
    }
}

/// Money is eager: a month holds a real row for every date its recurring definitions
/// match, created when the month is loaded unless that (definition, date) pair already has one —
/// a skipped one included, which is why skipping never comes back.
public enum MoneyRules {
    public struct Due: Hashable, Sendable {
        public let definition: RecurringTransaction
        public let date: CivilDate
    }

    /// The (definition, date) pairs in `month` that have no row yet.
    public static func missing(in month: YearMonth, definitions: [RecurringTransaction], existing: [Transaction]) -> [Due] {
        var have = Set<PairKey>()
        for row in existing { if let id = row.definitionID { have.insert(PairKey(id: id, date: row.date)) } }
        var result: [Due] = []
        for definition in definitions {
            for date in definition.dates(in: month.days)
            where !have.contains(PairKey(id: definition.id, date: date)) {
                result.append(Due(definition: definition, date: date))
            }
        }
        return result
    }

    /// The sum of real rows, skipped ones excluded. Exact for any month a database can hold:
    /// each amount is at most `Amount.limit`, and the sum is kept in 128 bits (Int64 overflowed
    /// with a few hundred of the largest daily amounts).
    public static func total(_ transactions: [Transaction]) -> Total {
        Total(minorUnits: transactions.reduce(Int128(0)) { $1.status == .skipped ? $0 : $0 + Int128($1.amount.minorUnits) })
    }

    private struct PairKey: Hashable {
        let id: Int64
        let date: CivilDate
    }
}
