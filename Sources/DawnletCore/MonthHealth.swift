/// The month's one rating, 0 to 100, for `dashboard`: the mean of the parts that apply, each 0
/// to 100, from figures already computed for the month up to a day.
/// - **bills**: bills and renewals due by then that are paid — a bill's row counts once laid out
///   or marked paid (as the month's totals count it), a renewal once its payment is logged;
/// - **debts**: debt payments due by then that are logged for the month;
/// - **goals**: goals on pace — saved at least an even share of the target for the time gone
///   since the goal was added (or reached), with the date still ahead;
/// - **habits**: the habits' days of the month up to then that were kept (a skipped day is not
///   counted either way, nor today while it is not kept);
/// - **todos**: 100 less 20 for each todo occurrence of the month's days that are over still open.
/// A part with nothing to judge this month is left out; with no part, there is no rating.
public struct MonthHealth: Hashable, Sendable {
    public struct Part: Hashable, Sendable {
        /// `bills`, `debts`, `goals`, `habits` or `todos`.
        public let name: String
        public let score: Int
        public let detail: String
    }

    public let parts: [Part]

    /// The mean of the parts, rounded half up; nil without one.
    public var score: Int? {
        guard !parts.isEmpty else { return nil }
        return (2 * parts.reduce(0) { $0 + $1.score } + parts.count) / (2 * parts.count)
    }

    public init(parts: [Part]) { self.parts = parts }

    /// - Parameters:
    ///   - month: the month's cashflow; its lines dated after `day` are not judged.
    ///   - habitDays: each habit's days of the month up to `day`, planned and kept.
    ///   - openTodos: todo occurrences of the month's days that are over, still open; nil without todos.
    public init(
        month: MoneyMonth, through day: CivilDate, debts: [Debt], payments: [Payment], goals: [Goal], habitDays: (planned: Int, kept: Int),
        openTodos: Int?
    ) {
        var parts: [Part] = []
        func share(_ name: String, _ good: Int, of all: Int, _ detail: String) {
            if all > 0 { parts.append(Part(name: name, score: good * 100 / all, detail: detail)) }
        }
        let due = month.lines.filter { ($0.kind == "bill" || $0.kind == "subscription") && $0.counts && $0.amount < .zero && $0.date <= day }
        let paid = due.filter { $0.status != "due" }.count
        share("bills", paid, of: due.count, "\(paid) of \(due.count) paid")
        var (debtsDue, debtsLogged) = (0, 0)
        for debt in debts {
            guard let date = debt.dueDate(in: month.month), date <= day else { continue }
            debtsDue += 1
            if payments.contains(where: { $0.kind == .debt && $0.sourceID == debt.id && $0.periodStart == month.month.firstDay }) { debtsLogged += 1 }
        }
        share("debts", debtsLogged, of: debtsDue, "\(debtsLogged) of \(debtsDue) payments logged")
        let paced = goals.compactMap { MonthHealth.pace($0, payments: payments, on: day) }
        let onPace = paced.filter { $0.saved.minorUnits >= $0.due.minorUnits }.count
        share("goals", onPace, of: paced.count, "\(onPace) of \(paced.count) on pace")
        share("habits", habitDays.kept, of: habitDays.planned, "\(habitDays.kept) of \(habitDays.planned) days kept")
        if let openTodos {
            parts.append(Part(name: "todos", score: max(0, 100 - 20 * openTodos), detail: "\(openTodos) overdue"))
        }
        self.parts = parts
    }

    /// A goal's pace on `day`: what is saved, and the even share of its target for the time gone
    /// since it was added; nil for a goal with no date, a date not ahead, or added that day or later.
    public static func pace(_ goal: Goal, payments: [Payment], on day: CivilDate) -> (saved: Total, due: Total)? {
        guard let by = goal.targetDate, let start = goal.created, by > day, day > start else { return nil }
        let saved = GoalProgress(goal, payments: payments, on: day).saved
        let span = Int128(by.dayNumber - start.dayNumber), gone = Int128(day.dayNumber - start.dayNumber)
        return (saved, Total(minorUnits: Int128(goal.target.minorUnits) * gone / span))
    }

    /// A habit's days of `days` on its schedule, and how many of them were kept (a skipped one is
    /// neither, nor the last day while `lastOpen` — today, not over — and it is not kept).
    public static func habitDays(_ habit: ItemDefinition, stored: [StoredOccurrence], in days: ClosedRange<CivilDate>, lastOpen: Bool = false) -> (
        planned: Int, kept: Int
    ) {
        guard let schedule = habit.schedule else { return (0, 0) }
        var status: [CivilDate: OccurrenceStatus] = [:]
        for row in stored where row.kind == habit.kind && row.definitionID == habit.id && days.contains(row.date) { status[row.date] = row.status }
        var (planned, kept) = (0, 0)
        let anchor = schedule.anchor ?? habit.date ?? days.lowerBound
        schedule.forEachOccurrence(in: days, defaultAnchor: anchor) { date in
            switch status[date] {
            case .done?: (planned, kept) = (planned + 1, kept + 1)
            case .skipped?: break
            default: if !(lastOpen && date == days.upperBound) { planned += 1 }
            }
            return true
        }
        return (planned, kept)
    }
}
