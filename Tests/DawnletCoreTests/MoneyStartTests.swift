import DawnletTestSupport
import Testing

@testable import DawnletCore

/// Money starts when it exists (`MoneyStart`): the one rule, and every kind of money that asks it.
@Suite struct MoneyStartTests {
    @Test(
        "the days of a range an item exists on: from its first day on",
        arguments: [
            ("no first day known: every day", nil, "2026-11-01", "2026-11-30", "2026-11-01...2026-11-30"),
            ("all before it: none", "2026-12-10", "2026-11-01", "2026-11-30", "none"),
            ("the day before it alone: none", "2026-12-10", "2026-12-09", "2026-12-09", "none"),
            ("across it: from it", "2026-12-10", "2026-12-01", "2026-12-31", "2026-12-10...2026-12-31"),
            ("its first day alone: that day", "2026-12-10", "2026-12-10", "2026-12-10", "2026-12-10...2026-12-10"),
            ("all after it: every day", "2026-12-10", "2027-01-01", "2027-01-31", "2027-01-01...2027-01-31"),
        ] as [(String, String?, String, String, String)])
    func days(_ name: String, first: String?, lower: String, upper: String, expected: String) {
        let start = MoneyStart(given: nil, added: first.map(date))
        let days = start.days(of: date(lower)...date(upper))
        #expect(days.map { "\($0.lowerBound)...\($0.upperBound)" } ?? "none" == expected, "\(name)")
    }

    @Test("a start given wins over the day added, earlier or later; without either there is no bound")
    func givenWins() {
        #expect(MoneyStart(given: date("2026-01-01"), added: date("2026-12-10")).firstDay == date("2026-01-01"))
        #expect(MoneyStart(given: date("2027-02-01"), added: date("2026-12-10")).firstDay == date("2027-02-01"))
        #expect(MoneyStart(given: nil, added: date("2026-12-10")).firstDay == date("2026-12-10"))
        #expect(MoneyStart(given: nil, added: nil).exists(on: date("1970-01-01")))
    }

    @Test("against a day-by-day filter: the days of a range are those on or after the first day, for random ranges and first days")
    func againstNaive() {
        var rng = SeededRandom(seed: 0x5EED_0A11)
        let base = date("2026-01-01").dayNumber
        for _ in 0..<2_000 {
            let first = CivilDate(dayNumber: base + Int.random(in: 0...120, using: &rng))
            let lower = base + Int.random(in: 0...120, using: &rng)
            let range = CivilDate(dayNumber: lower)...CivilDate(dayNumber: lower + Int.random(in: 0...60, using: &rng))
            let start = MoneyStart(given: nil, added: first)
            let naive = (range.lowerBound.dayNumber...range.upperBound.dayNumber).map { CivilDate(dayNumber: $0) }.filter { $0 >= first }
            let got = start.days(of: range).map { ($0.lowerBound.dayNumber...$0.upperBound.dayNumber).map { CivilDate(dayNumber: $0) } } ?? []
            #expect(got == naive, "first \(first), range \(range)")
            for day in naive { #expect(start.exists(on: day)) }
        }
    }

    static let card = Debt(
        id: 1, name: "Card", balance: Amount(minorUnits: 50_000), minimumPayment: Amount(minorUnits: 5_000), paymentDay: 3,
        created: date("2026-12-10"))

    @Test("a debt is due from the day it was added: not in a month before, nor in its month when its day came first")
    func debtDue() throws {
        let june = try #require(YearMonth("2025-06")), december = try #require(YearMonth("2026-12"))
        let january = try #require(YearMonth("2027-01"))
        #expect(Self.card.dueDate(in: june) == nil)
        #expect(Self.card.dueDate(in: december) == nil)
        #expect(Self.card.dueDate(in: january) == date("2027-01-03"))
        // Added on its payment day: due that day. A day past the month's end clamps, then counts.
        var same = Self.card
        same.created = date("2026-12-03")
        #expect(same.dueDate(in: december) == date("2026-12-03"))
        let late = Debt(
            id: 2, name: "Late", balance: Amount(minorUnits: 100), minimumPayment: Amount(minorUnits: 100), paymentDay: 31, created: date("2027-02-28"))
        #expect(late.dueDate(in: try #require(YearMonth("2027-02"))) == date("2027-02-28"))
        // Not known when it was added: due every month, as before the rule.
        let unknown = Debt(id: 3, name: "Old", balance: Amount(minorUnits: 100), minimumPayment: Amount(minorUnits: 100), paymentDay: 3)
        #expect(unknown.dueDate(in: june) == date("2025-06-03"))
    }

    @Test("the money calendar starts each source when it exists: a debt, and a subscription stored without an anchor, from the day added")
    func calendar() {
        let legacy = Subscription(
            id: 1, name: "Old stream", amount: Amount(minorUnits: -500), schedule: Schedule(rule: .monthlyOnDay(interval: 1, day: 15), anchor: nil),
            active: true, created: date("2026-11-20"))
        let salary = IncomeSource(
            id: 1, name: "Salary", amount: Amount(minorUnits: 300_000),
            schedule: Schedule(rule: .monthlyOnDay(interval: 1, day: 25), anchor: date("2026-12-10")), active: true, created: date("2026-12-10"))
        func events(_ from: String, _ to: String) -> [String] {
            MoneyCalendar.events(
                in: date(from)...date(to), subscriptions: [legacy], debts: [Self.card], goals: [], incomes: [salary], payments: []
            ).map { "\($0.date) \($0.kind.rawValue)" }
        }
        #expect(events("2026-01-01", "2026-11-30") == [])
        #expect(events("2026-12-01", "2026-12-31") == ["2026-12-15 subscription", "2026-12-25 income"])
        #expect(events("2027-01-01", "2027-01-31") == ["2027-01-03 debt", "2027-01-15 subscription", "2027-01-25 income"])
    }

    @Test("a bill: its schedule's start given wins, even before the day it was added; a one-off's own date is its start")
    func bills() {
        let rent = RecurringTransaction(
            id: 1, name: "Rent", amount: Amount(minorUnits: -95_000),
            schedule: Schedule(rule: .monthlyOnDay(interval: 1, day: 1), anchor: date("2026-09-01")), created: date("2026-12-10"))
        #expect(rent.dates(in: date("2026-08-01")...date("2026-10-31")) == [date("2026-09-01"), date("2026-10-01")])
        let refund = RecurringTransaction(
            id: 2, name: "Refund", amount: Amount(minorUnits: 1_999), schedule: Schedule(rule: .monthlyOnDay(interval: 1, day: nil), anchor: nil),
            created: date("2026-12-10"), once: date("2026-11-30"))
        #expect(refund.dates(in: date("2026-11-01")...date("2026-11-30")) == [date("2026-11-30")])
        #expect(refund.falls(on: date("2026-11-30")))
        // Without an anchor (as rows of an older version), from the day it was added.
        let gym = RecurringTransaction(
            id: 3, name: "Gym", amount: Amount(minorUnits: -3_000), schedule: Schedule(rule: .monthlyOnDay(interval: 1, day: 5), anchor: nil),
            created: date("2026-12-10"))
        #expect(gym.dates(in: date("2026-11-01")...date("2027-01-31")) == [date("2027-01-05")])
        #expect(!gym.falls(on: date("2026-12-05")))
    }

    @Test("a closed month keeps no balance of a debt added after it ended, and counts no payment due before it")
    func closedMonth() throws {
        let november = try #require(YearMonth("2026-11"))
        let cashflow = MoneyMonth(
            november, transactions: [],
            events: MoneyCalendar.events(in: november.days, subscriptions: [], debts: [Self.card], goals: [], incomes: [], payments: []), payments: [])
        #expect(cashflow.lines.isEmpty && cashflow.outgoing == Total(minorUnits: 0))
        let snapshot = MonthSnapshot(closing: cashflow, debts: [Self.card], payments: [], taken: [:])
        #expect(snapshot.debts.isEmpty)
        var before = Self.card
        before.created = date("2026-11-30")
        #expect(MonthSnapshot(closing: cashflow, debts: [before], payments: [], taken: [:]).debts == [1: Amount(minorUnits: 50_000)])
    }

    @Test(
        "a closed month is a record only when the database saw it end: begun on its last day or before",
        arguments: [
            ("begun a month before", "2026-10-15", true),
            ("begun on its first day", "2026-11-01", true),
            ("begun on its last day", "2026-11-30", true),
            ("begun the day after it ended", "2026-12-01", false),
            ("begun later", "2026-12-10", false),
            ("not known", nil, true),
        ] as [(String, String?, Bool)])
    func monthRecord(_ name: String, began: String?, expected: Bool) throws {
        let november = try #require(YearMonth("2026-11"))
        #expect(MonthSnapshot.isRecord(of: november, databaseBegan: began.map(date)) == expected, "\(name)")
    }

    @Test("the dashboard flags no payment as unlogged that fell due before its debt was added")
    func dashboardFlag() throws {
        let month = try #require(YearMonth("2026-12"))
        func flags(_ debt: Debt) -> [String] {
            Dashboard.flags(
                today: date("2026-12-20"), overdue: 0, missed: 0, month: MoneyMonth(month, transactions: [], events: [], payments: []), earlierBills: [],
                goals: [], payments: [], debts: [debt]
            ).map(\.text)
        }
        #expect(flags(Self.card) == [])
        var earlier = Self.card
        earlier.created = date("2026-12-01")
        #expect(flags(earlier) == ["Card: the payment due 2026-12-03 is not logged"])
    }
}
