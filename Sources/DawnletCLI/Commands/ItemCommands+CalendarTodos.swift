import DawnletApp
import DawnletCore

/// `todo list`'s calendar todos: each open todo of the configured calendars once — a single one
/// (overdue up to a month back), a repeating one's occurrence from today on — with its calendar
/// and the key `reminder done|skip|snooze|dismiss` answers it by.
extension ItemCommands {
    struct CalendarTodo {
        let occurrence: CalendarOccurrence
        let overdue: Bool

        var json: JSON {
            .object([
                ("calendar", .string(occurrence.calendar)), ("uid", .string(occurrence.uid)), ("key", .string(occurrence.key)),
                ("title", .string(occurrence.title)), ("date", .string(occurrence.date.description)),
                ("time", occurrence.time.map { .string($0.description) } ?? .null), ("status", .string(overdue ? "overdue" : "open")),
            ])
        }

        /// `work  Call the plumber  due 2026-12-04 10:00  [overdue]  (ics:work:t1)`: outside text, escaped once, whole.
        func line(_ output: Output) -> String {
            let due = (occurrence.hasDue ? "due " : "from ") + occurrence.date.description + (occurrence.time.map { " \($0)" } ?? "")
            let status = overdue ? output.paint("[overdue]", .red) : "[open]"
            return DisplayText.shown("calendar \(occurrence.calendar)  \(occurrence.title)  \(due)  ") + status + DisplayText.shown("  (\(occurrence.key))")
        }
    }

    /// The calendars' todos the filter (`--open`, `--overdue`; `--done` lists none) keeps.
    static func calendarTodos(_ invocation: inout Invocation) throws -> [CalendarTodo] {
        let arguments = invocation.arguments
        guard !invocation.config.calendars.isEmpty, !arguments.has("done") else { return [] }
        let (now, zone) = (try invocation.now(), try invocation.timeZone())
        let local = ISO8601.localDate(of: now, in: zone)
        let reader = PlanReader(store: try invocation.readStore(), config: invocation.config, zone: zone)
        let (items, problems) = reader.calendarItemsOnce(from: now.adding(seconds: -31 * 86_400), now: now) {
            $0.kind == .todo && ($0.instance == nil || $0.date >= local.date)
        }
        invocation.output.warn(problems)
        return items.map { todo in
            CalendarTodo(occurrence: todo, overdue: OccurrenceMerge.isOverdue(todo.date, at: todo.time, now: (local.date, local.secondsOfDay)))
        }
        .filter { !arguments.has("overdue") || $0.overdue }
    }
}
