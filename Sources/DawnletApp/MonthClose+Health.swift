import DawnletCore
import DawnletStore

extension MonthClose {
    /// The month's rating through `day` (its last day for a month that closed) from what the
    /// store holds: its habits' days and their entries, its todos' occurrences of the days over, its
    /// goals, with the month's cashflow and the debts and payments already read. `dayOpen`: `day`
    /// is today, not over (a habit's day not kept yet does not count against it).
    public static func health(
        of cashflow: MoneyMonth, through day: CivilDate, dayOpen: Bool = false, store: Store, debts: [Debt], payments: [Payment],
        habits: [ItemDefinition]? = nil, goals: [Goal]? = nil
    ) throws -> MonthHealth {
        let month = cashflow.month
        let days = month.firstDay...max(month.firstDay, min(day, month.lastDay))
        // Each habit's own rows: looked for among all of them, a thousand habits' would cost a
        // thousand times the rows.
        let habitRows = Dictionary(grouping: try store.items.storedOccurrences([.habit], in: days), by: \.definitionID)
        var habitDays = (planned: 0, kept: 0)
        for habit in try habits ?? store.items.definitions([.habit]) {
            let counted = MonthHealth.habitDays(habit, stored: habitRows[habit.id] ?? [], in: days, lastOpen: dayOpen && days.upperBound == day)
            habitDays = (habitDays.planned + counted.planned, habitDays.kept + counted.kept)
        }
        let todos = try store.items.definitions([.todo])
        var openTodos: Int?
        if !todos.isEmpty {
            // Todos of the days that are over: before today, or the whole of a month that closed.
            let last = dayOpen ? days.upperBound.adding(days: -1) : days.upperBound
            openTodos = 0
            if last >= month.firstDay {
                let over = month.firstDay...last
                let rows = try store.items.storedOccurrences([.todo], in: over)
                // Counted as the merge meets them: nothing to build or sort for a count.
                var open = 0
                OccurrenceMerge.forEachInPlace(of: todos, stored: rows, in: over) { _, _, _, row in
                    if (row?.pointee.status ?? .open) == .open { open += 1 }
                }
                openTodos = open
            }
        }
        return MonthHealth(
            month: cashflow, through: days.upperBound, debts: debts, payments: payments, goals: try goals ?? store.sources.goals(), habitDays: habitDays,
            openTodos: openTodos)
    }
}
