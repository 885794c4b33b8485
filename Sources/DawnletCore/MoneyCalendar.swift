/// A named amount on a Schedule, active or paused: a subscription (a charge) or an income source
/// (a deposit) of the money calendar. Income rows from before anchors existed have a schedule
/// without one; such a source projects nothing and is skipped, not an error.
public struct ScheduledAmount: Hashable, Sendable {
    public let id: Int64
    public var name: String
    public var amount: Amount
    public var schedule: Schedule
    public var active: Bool
    /// The day it was added; nil when not known.
    public var created: CivilDate?

    public init(id: Int64, name: String, amount: Amount, schedule: Schedule, active: Bool, created: CivilDate? = nil) {
        self.id = id
        self.name = name
        self.amount = amount
        self.schedule = schedule
        self.active = active
        self.created = created
    }

    /// From its schedule's anchor (a start given, or the day it was added), else from the day it
    /// was added (`MoneyStart`).
    public var start: MoneyStart { MoneyStart(given: schedule.anchor, added: created) }

    /// The dates its schedule gives in `range`, none before its start. A schedule without an
    /// anchor counts from its start, or from `range` when that is not known either.
    public func dates(in range: ClosedRange<CivilDate>) -> [CivilDate] {
        guard let days = start.days(of: range) else { return [] }
        return schedule.occurrences(in: days, defaultAnchor: start.firstDay ?? days.lowerBound)
    }
}

public typealias Subscription = ScheduledAmount
public typealias IncomeSource = ScheduledAmount

/// A debt: a balance paid on one day of each month while above zero.
public struct Debt: Hashable, Sendable {
    public let id: Int64
    public var name: String
    public var balance: Amount
    public var minimumPayment: Amount
    /// 1–31, clamped to the month's last day.
    public var paymentDay: Int
    /// The day it was added; nil when not known.
    public var created: CivilDate?

    public init(id: Int64, name: String, balance: Amount, minimumPayment: Amount, paymentDay: Int, created: CivilDate? = nil) {
        self.id = id
        self.name = name
        self.balance = balance
        self.minimumPayment = minimumPayment
        self.paymentDay = paymentDay
        self.created = created
    }

    /// From the day it was added: a debt is given no other start (`MoneyStart`).
    public var start: MoneyStart { MoneyStart(given: nil, added: created) }

    /// The day of `month` its payment is due; nil when that day is before its start (the month
    /// it was added in, after its payment day, or any month before).
    public func dueDate(in month: YearMonth) -> CivilDate? {
        let due = CivilDate.clamped(year: month.year, month: month.month, day: paymentDay)
        return start.exists(on: due) ? due : nil
    }
}

/// A savings goal with an optional deadline; informational only.
public struct Goal: Hashable, Sendable {
    public let id: Int64
    public var name: String
    public var target: Amount
    public var targetDate: CivilDate?
    /// The day it was added: where its pace starts.
    public var created: CivilDate?

    public init(id: Int64, name: String, target: Amount, targetDate: CivilDate?, created: CivilDate? = nil) {
        self.id = id
        self.name = name
        self.target = target
        self.targetDate = targetDate
        self.created = created
    }

    /// From the day it was added (`MoneyStart`): money put towards it before is refused.
    public var start: MoneyStart { MoneyStart(given: nil, added: created) }
}

/// A logged payment of a subscription or a debt, bound to the period it pays, or money put
/// towards a goal (its period is its date).
public struct Payment: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable { case subscription, debt, goal }

    public let id: Int64
    public let kind: Kind
    public let sourceID: Int64
    public let date: CivilDate
    public let amount: Amount
    /// The renewal date for a subscription; the first of the month for a debt; its date for a goal.
    public let periodStart: CivilDate

    public init(id: Int64, kind: Kind, sourceID: Int64, date: CivilDate, amount: Amount, periodStart: CivilDate) {
        self.id = id
        self.kind = kind
        self.sourceID = sourceID
        self.date = date
        self.amount = amount
        self.periodStart = periodStart
    }
}

/// How far a goal is on a day: what its payments saved up to then, of its target, and what is
/// needed each month to reach it by its date.
public struct GoalProgress: Hashable, Sendable, CustomStringConvertible {
    public let saved: Total
    public let target: Amount
    /// Whole percent saved, 0 to 100 (more saved than the target is 100).
    public let percent: Int
    /// What is still to save (zero once reached).
    public let remaining: Total
    /// What is needed a month, rounded up to the cent, to reach the target by its date: nil
    /// without a date, once reached, or when the date has passed.
    public let perMonth: Total?

    public init(_ goal: Goal, payments: [Payment], on day: CivilDate) {
        let saved = payments.reduce(Int128(0)) {
            $1.kind == .goal && $1.sourceID == goal.id && $1.date <= day ? $0 + Int128($1.amount.magnitude.minorUnits) : $0
        }
        let target = Int128(goal.target.minorUnits)
        let remaining = max(0, target - saved)
        self.saved = Total(minorUnits: saved)
        self.target = goal.target
        self.remaining = Total(minorUnits: remaining)
        percent = target > 0 ? Int(min(100, saved * 100 / target)) : 100
        if let by = goal.targetDate, by >= day, remaining > 0 {
            // The months left, this one counted: December to June is 7 payments' time.
            let months = Int128(max(1, by.monthIndex - day.monthIndex + 1))
            perMonth = Total(minorUnits: (remaining + months - 1) / months)
        } else {
            perMonth = nil
        }
    }

    /// `saved 150.00 of 900.00 (16%), 750.00 to go`.
    public var description: String {
        "saved \(saved) of \(target) (\(percent)%)" + (remaining.minorUnits > 0 ? ", \(remaining) to go" : ", reached")
    }
}

/// A debt's standing: what its payments paid so far, and how many months of minimum payments
/// the balance still takes.
public struct DebtProgress: Hashable, Sendable {
    public let paid: Total
    /// Nil when paid off.
    public let monthsToPayoff: Int?

    public init(_ debt: Debt, payments: [Payment]) {
        paid = Total(minorUnits: payments.reduce(Int128(0)) { $1.kind == .debt && $1.sourceID == debt.id ? $0 + Int128($1.amount.magnitude.minorUnits) : $0 })
        let minimum = Int64(max(1, debt.minimumPayment.magnitude.minorUnits))
        monthsToPayoff = debt.balance > .zero ? Int((debt.balance.minorUnits + minimum - 1) / minimum) : nil
    }
}

/// One dot on the forward-looking money month.
public struct CalendarEvent: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case subscription, debt, goal, income

        /// The same kind, as reminders name it.
        public var reminderKind: ReminderKind {
            switch self {
            case .subscription: .subscription
            case .debt: .debt
            case .goal: .goal
            case .income: .income
            }
        }
    }

    public let kind: Kind
    public let sourceID: Int64
    public let date: CivilDate
    public let name: String
    public let amount: Amount?
    /// Subscriptions and debts can be logged; goals and income are informational.
    public var loggable: Bool { kind == .subscription || kind == .debt }
    /// The payment that logged this event's period, if any. Logged events still show.
    public let payment: Payment?
}

/// The money calendar's month: four independent sources merged onto one calendar, with logged
/// state persisted and period-bounded for subscriptions and debts alike.
public enum MoneyCalendar {
    /// Every event in `range`, ordered by date, then kind (subscription, debt, goal, income), then id.
    public static func events(
        in range: ClosedRange<CivilDate>, subscriptions: [Subscription], debts: [Debt], goals: [Goal],
        incomes: [IncomeSource], payments: [Payment]
    ) -> [CalendarEvent] {
        // The first payment of each period (a debt's month may hold extra ones after it).
        var paid: [PaymentKey: Payment] = [:]
        for p in payments where p.kind != .goal {
            let key = PaymentKey(kind: p.kind, id: p.sourceID, periodStart: p.periodStart)
            if let kept = paid[key], kept.id < p.id { continue }
            paid[key] = p
        }
        var events: [CalendarEvent] = []
        for sub in subscriptions where sub.active {
            for date in sub.dates(in: range) {
                events.append(
                    CalendarEvent(
                        kind: .subscription, sourceID: sub.id, date: date, name: sub.name, amount: sub.amount,
                        payment: paid[PaymentKey(kind: .subscription, id: sub.id, periodStart: date)]))
            }
        }
        // A debt is due each month from its start while it has a balance; a month logged stays, paid
        // off or not.
        for debt in debts {
            var month = YearMonth(containing: range.lowerBound)
            while month.firstDay <= range.upperBound {
                let payment = paid[PaymentKey(kind: .debt, id: debt.id, periodStart: month.firstDay)]
                if let due = debt.dueDate(in: month), range.contains(due), debt.balance > .zero || payment != nil {
                    events.append(
                        CalendarEvent(kind: .debt, sourceID: debt.id, date: due, name: debt.name, amount: debt.minimumPayment.paidOut, payment: payment))
                }
                let following = month.next
                if following == month { break }  // the last supported month
                month = following
            }
        }
        for goal in goals {
            if let target = goal.targetDate, range.contains(target) {
                events.append(CalendarEvent(kind: .goal, sourceID: goal.id, date: target, name: goal.name, amount: goal.target, payment: nil))
            }
        }
        for source in incomes where source.active {
            guard source.schedule.anchor != nil else { continue }  // nothing to project from yet
            for date in source.dates(in: range) {
                events.append(CalendarEvent(kind: .income, sourceID: source.id, date: date, name: source.name, amount: source.amount, payment: nil))
            }
        }
        let order = CalendarEvent.Kind.allCases
        events.sort {
            if $0.date != $1.date { return $0.date < $1.date }
            if $0.kind != $1.kind { return order.firstIndex(of: $0.kind) ?? 0 < order.firstIndex(of: $1.kind) ?? 0 }
            return $0.sourceID < $1.sourceID
        }
        return events
    }

    /// The billing period a subscription payment on `date` belongs to: from the renewal on or
    /// before it up to the day before the next. Nil before the first renewal.
    public static func period(of subscription: Subscription, containing date: CivilDate) -> ClosedRange<CivilDate>? {
        let anchor = subscription.schedule.anchor ?? subscription.start.firstDay ?? date
        guard let start = subscription.schedule.lastOccurrence(onOrBefore: date, defaultAnchor: anchor) else { return nil }
        let next = subscription.schedule.nextOccurrence(onOrAfter: start.adding(days: 1), defaultAnchor: anchor)
        return start...(next?.adding(days: -1) ?? CivilDate(dayNumber: start.dayNumber + Schedule.searchLimitDays))
    }

    private struct PaymentKey: Hashable {
        let kind: Payment.Kind
        let id: Int64
        let periodStart: CivilDate
    }
}

extension YearMonth {
    public var next: YearMonth {
        month == 12 ? YearMonth(year: year + 1, month: 1) ?? self : YearMonth(year: year, month: month + 1) ?? self
    }
}
