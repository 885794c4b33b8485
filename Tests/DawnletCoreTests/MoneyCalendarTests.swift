import DawnletTestSupport
import Testing

@testable import DawnletCore

/// The money calendar's four-source month (subscriptions, debts, goals, income) on its own cases.
@Suite struct MoneyCalendarTests {
    static let card = Debt(id: 1, name: "Card", balance: Amount(minorUnits: 100_000), minimumPayment: Amount(minorUnits: 5_000), paymentDay: 31)
    static let paid = Debt(id: 2, name: "Paid off", balance: .zero, minimumPayment: Amount(minorUnits: 1_000), paymentDay: 5)
    static let stream = Subscription(
        id: 1, name: "Stream", amount: Amount(minorUnits: -1299),
        schedule: Schedule(rule: .monthlyOnDay(interval: 1, day: 15), anchor: date("2026-01-15")), active: true)
    static let paused = Subscription(
        id: 2, name: "Gym", amount: Amount(minorUnits: -3000),
        schedule: Schedule(rule: .monthlyOnDay(interval: 1, day: 1), anchor: date("2026-01-01")), active: false)
    static let holiday = Goal(id: 1, name: "Holiday", target: Amount(minorUnits: 200_000), targetDate: date("2026-02-20"))
    static let car = Goal(id: 2, name: "Car", target: Amount(minorUnits: 900_000), targetDate: date("2026-08-01"))
    static let someday = Goal(id: 3, name: "Someday", target: Amount(minorUnits: 1), targetDate: nil)
    static let salary = IncomeSource(
        id: 1, name: "Salary", amount: Amount(minorUnits: 300_000),
        schedule: Schedule(rule: .monthlyOnWeekday(interval: 1, ordinal: .last, weekday: .friday), anchor: date("2026-01-01")),
        active: true)
    static let legacy = IncomeSource(
        id: 2, name: "Old source", amount: Amount(minorUnits: 1_000),
        schedule: Schedule(rule: .monthlyOnDay(interval: 1, day: 10), anchor: nil), active: true)

    func month(_ text: String, payments: [Payment] = []) throws -> [CalendarEvent] {
        let m = try #require(YearMonth(text))
        return MoneyCalendar.events(
            in: m.days, subscriptions: [Self.stream, Self.paused], debts: [Self.card, Self.paid],
            goals: [Self.holiday, Self.car, Self.someday], incomes: [Self.salary, Self.legacy], payments: payments)
    }

    @Test("February: debt on the 31st clamps to the 28th; paid-off debt, paused subscription, legacy income, other goals absent")
    func february() throws {
        let events = try month("2026-02")
        #expect(
            events.map { "\($0.date) \($0.kind.rawValue) \($0.sourceID)" } == [
                "2026-02-15 subscription 1", "2026-02-20 goal 1", "2026-02-27 income 1", "2026-02-28 debt 1",
            ])
        #expect(events.map(\.loggable) == [true, false, false, true])
        #expect(events.allSatisfy { $0.payment == nil })
    }

    @Test("April: the debt falls on the 30th; a leap February on the 29th")
    func clamp() throws {
        #expect(try month("2026-04").filter { $0.kind == .debt }.map(\.date) == [date("2026-04-30")])
        #expect(try month("2028-02").filter { $0.kind == .debt }.map(\.date) == [date("2028-02-29")])
    }

    @Test("a logged renewal still shows, marked, and only in its own period")
    func logged() throws {
        let payment = Payment(id: 9, kind: .subscription, sourceID: 1, date: date("2026-02-16"), amount: Self.stream.amount, periodStart: date("2026-02-15"))
        let debtPayment = Payment(
            id: 10, kind: .debt, sourceID: 1, date: date("2026-02-03"), amount: Amount(minorUnits: 5_000), periodStart: date("2026-02-01"))
        let feb = try month("2026-02", payments: [payment, debtPayment])
        #expect(feb.first { $0.kind == .subscription }?.payment?.id == 9)
        #expect(feb.first { $0.kind == .debt }?.payment?.id == 10)
        let march = try month("2026-03", payments: [payment, debtPayment])
        #expect(march.filter { $0.loggable }.allSatisfy { $0.payment == nil })
    }

    @Test("billing periods run from a renewal to the day before the next")
    func periods() throws {
        #expect(MoneyCalendar.period(of: Self.stream, containing: date("2026-02-15")) == date("2026-02-15")...date("2026-03-14"))
        #expect(MoneyCalendar.period(of: Self.stream, containing: date("2026-03-14")) == date("2026-02-15")...date("2026-03-14"))
        #expect(MoneyCalendar.period(of: Self.stream, containing: date("2026-01-14")) == nil)
        let yearly = Subscription(
            id: 3, name: "Domain", amount: Amount(minorUnits: -1500),
            schedule: Schedule(rule: .monthlyOnDay(interval: 12, day: nil), anchor: date("2024-02-29")), active: true)
        #expect(MoneyCalendar.period(of: yearly, containing: date("2026-06-01")) == date("2026-02-28")...date("2027-02-27"))
    }
}
