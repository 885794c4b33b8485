import DawnletCore
import DawnletStore

/// `todo`, `event` and `habit`: one set of verbs over the definition/occurrence split.
/// Definitions are listed by `KIND list`; their merged occurrences by `today`.
enum ItemCommands {
    /// How an item's reminders go out, over its kind's: on add and edit alike.
    static let styleOptions: [OptionSpec] = [.value("nag"), .value("urgency"), .value("sound")]
    static let styleUsage = "[--nag EVERY|off] [--urgency LEVEL] [--sound NAME]"

    static var commands: [Command] {
        [
            Command(
                path: ["todo", "add"],
                usage:
                    "todo add TITLE [--due DATE[THH:MM]] [--zone ZONE] [--every SCHEDULE [--until DATE]] [--remind OFFSET]... [--channel LIST] \(styleUsage) \(Invocation.detailUsage) "
                    + "[--check TEXT]...",
                summary: "Add a todo: one-off (optionally due) or repeating; prints its id.",
                options: [.value("due"), .value("every"), .value("until"), .repeatable("remind"), .value("channel")] + styleOptions + Invocation.detailOptions
                    + Invocation.zoneOptions + [.repeatable("check")],
                positionals: 1...1,
                run: addTodo),
            Command(
                path: ["event", "add"],
                usage:
                    "event add TITLE --start DATE[THH:MM] [--zone ZONE] [--duration 1h30m] [--every SCHEDULE [--until DATE]] [--remind OFFSET]... [--channel LIST] \(styleUsage) "
                    + Invocation.detailUsage,
                summary: "Add an event, optionally repeating; prints its id.",
                options: [.value("start"), .value("duration"), .value("every"), .value("until"), .repeatable("remind"), .value("channel")] + styleOptions
                    + Invocation.detailOptions + Invocation.zoneOptions,
                positionals: 1...1, run: addEvent),
            Command(
                path: ["habit", "add"], usage: "habit add NAME --days mon,wed,fri [--at TIME] [--from DATE] [--until DATE] [--channel LIST] \(styleUsage)",
                summary: "Add a habit kept on some weekdays, from today or DATE (until DATE); prints its id.",
                options: [.value("days"), .value("at"), .value("from"), .value("until"), .value("channel")] + styleOptions, positionals: 1...1,
                run: addHabit),
        ]
            + ItemKind.allCases.flatMap { kind in
                var verbs = [
                    kind == .todo
                        ? Command(
                            path: ["todo", "list"], usage: "todo list [--open | --done | --overdue] [--tag TAG] [--json]",
                            summary:
                                "List todos with where each stands (open, done, overdue) and a repeating one's next occurrence; then the calendars' open todos, with the key that answers each.",
                            options: [.flag("open"), .flag("done"), .flag("overdue"), .value("tag"), .flag("json")], run: { try list(.todo, &$0) })
                        : Command(
                            path: [kind.rawValue, "list"], usage: "\(kind.rawValue) list\(kind == .event ? " [--tag TAG]" : "") [--json]",
                            summary: kind == .habit
                                ? "List the habits you defined, with their streaks and this week's days kept."
                                : "List the \(kind.rawValue)s you defined (their occurrences are in `today`).",
                            options: (kind == .event ? [.value("tag")] : []) + [.flag("json")], run: { try list(kind, &$0) }),
                    Command(
                        path: [kind.rawValue, "skip"], usage: "\(kind.rawValue) skip ID [--on DATE]",
                        summary: "Skip one occurrence (default: today's); the series carries on.",
                        options: [.value("on")], positionals: 1...1, run: { try mark(kind, .skipped, &$0) }),
                    Command(
                        path: [kind.rawValue, "unskip"], usage: "\(kind.rawValue) unskip ID [--on DATE]",
                        summary: "Undo a skip: the occurrence (default: today's) is back as it was.",
                        options: [.value("on")], positionals: 1...1, run: { try unmark(kind, .skipped, &$0) }),
                    Command(
                        path: [kind.rawValue, "delete"], usage: "\(kind.rawValue) delete ID",
                        summary: "Delete the \(kind.rawValue) and every record of its occurrences.",
                        options: [], positionals: 1...1, run: { try delete(kind, &$0) }),
                ]
                if kind != .event {
                    verbs.append(
                        Command(
                            path: [kind.rawValue, "done"], usage: "\(kind.rawValue) done ID [--on DATE]",
                            summary: "Mark one occurrence done (default: today's, or the one-off todo).",
                            options: [.value("on")], positionals: 1...1, run: { try mark(kind, .done, &$0) }))
                }
                if kind == .todo {
                    verbs.append(
                        Command(
                            path: ["todo", "reopen"], usage: "todo reopen ID [--on DATE]",
                            summary: "Undo done: the todo (or that occurrence) is open again.",
                            options: [.value("on")], positionals: 1...1, run: { try unmark(.todo, .done, &$0) }))
                }
                verbs.append(editCommand(kind))
                if kind != .habit { verbs.append(showCommand(kind)) }
                if kind == .todo { verbs += checkCommands }
                return verbs
            }
    }

    static func addTodo(_ invocation: inout Invocation) throws {
        let title = try invocation.text(invocation.arguments.positionals[0], "title")
        let due = try invocation.dateAndTime("due")
        let schedule = try invocation.schedule("every")
        let checklist = try checklistTexts(invocation)
        let today = try invocation.today()
        let store = try invocation.openStore()
        let id = try store.items.addItem(
            kind: .todo, title: title, date: due?.0, time: schedule?.time ?? due?.1, schedule: schedule,
            reminders: try invocation.reminders(), channels: try invocation.itemChannels(), style: try invocation.itemStyle(over: nil),
            details: try invocation.itemDetails(), zone: try invocation.itemZone(), checklist: checklist, today: today, now: try invocation.now())
        invocation.output.line(String(id))
        if schedule == nil {
            invocation.echoResolved("due", as: "todo \(id): due", due)
        } else {
            try echoFirst(.todo, id, store: store, today: today, invocation)
        }
    }

    /// For an item added with `--every`: on stderr, the schedule as kept (with the date it counts
    /// from) and its first occurrence from today, which need not be the date given (`--due fri`
    /// with `weekly on thu` counts from Friday; the first is the Thursday after).
    static func echoFirst(_ kind: ItemKind, _ id: Int64, store: Store, today: CivilDate, _ invocation: Invocation) throws {
        let definition = try store.items.definition(kind, id: id)
        guard let schedule = definition.schedule else { return }
        let first = OccurrenceMerge.occurrences(of: [definition], stored: [], in: today...today.adding(days: 366)).first?.date
        let day = first.map { "first occurrence \($0.weekday.shortName.prefix(1).uppercased() + $0.weekday.shortName.dropFirst()) \($0)" }
        invocation.output.error("\(kind.rawValue) \(id): \(schedule); \(day ?? "no occurrence within a year")")
    }

    static func addEvent(_ invocation: inout Invocation) throws {
        let title = try invocation.text(invocation.arguments.positionals[0], "title")
        guard let start = try invocation.dateAndTime("start") else { throw CLIError.usage("--start is required", invocation.globals.usage) }
        var duration: Int?
        if let text = invocation.arguments.value("duration") {
            guard let minutes = durationMinutes(text) else {
                throw CLIError.usage("--duration \"\(text)\" is not a duration like 45m, 2h or 1h30m (at most 30 days)", invocation.globals.usage)
            }
            duration = minutes
        }
        let schedule = try invocation.schedule("every")
        let today = try invocation.today()
        let store = try invocation.openStore()
        let id = try store.items.addItem(
            kind: .event, title: title, date: start.0, time: schedule?.time ?? start.1,
            schedule: schedule, durationMinutes: duration,
            reminders: try invocation.reminders(), channels: try invocation.itemChannels(), style: try invocation.itemStyle(over: nil),
            details: try invocation.itemDetails(), zone: try invocation.itemZone(), today: today, now: try invocation.now())
        invocation.output.line(String(id))
        if schedule == nil {
            invocation.echoResolved("start", as: "event \(id): starts", start)
        } else {
            try echoFirst(.event, id, store: store, today: today, invocation)
        }
    }

    static func addHabit(_ invocation: inout Invocation) throws {
        let name = try invocation.text(invocation.arguments.positionals[0], "name")
        let set = try weekdays(try invocation.required("days"), &invocation)
        let time = try invocation.optionalTime("at")
        let today = try invocation.today()
        let from = try invocation.optionalDate("from")
        var schedule = Schedule(rule: .weekly(interval: 1, days: set), anchor: from ?? today, time: time)
        try invocation.ending(&schedule)
        let id = try invocation.openStore().items.addItem(
            kind: .habit, title: name, date: nil, time: time, schedule: schedule, channels: try invocation.itemChannels(),
            style: try invocation.itemStyle(over: nil), today: today,
            now: try invocation.now())
        invocation.output.line(String(id))
        invocation.echoResolved("from", as: "habit \(id): from", from.map { ($0, nil) })
    }

    static func list(_ kind: ItemKind, _ invocation: inout Invocation) throws {
        let store = try invocation.readStore()
        var definitions = try store.items.definitions([kind])
        // One list's only (and none of the calendars', which have no tags of ours).
        let only = try invocation.tagFilter(store)
        if let only { definitions = definitions.filter { only.keeps(kind.reminderKind, $0.id) } }
        // Todos: where each stands today, and the filter asked for.
        var standing: [Int64: TodoStanding] = [:]
        if kind == .todo {
            let now = ISO8601.localDate(of: try invocation.now(), in: try invocation.timeZone())
            let today = now.date
            let wanted = ["open", "done", "overdue"].filter { invocation.arguments.has($0) }
            guard wanted.count <= 1 else { throw CLIError.usage("give one of --open, --done and --overdue", invocation.globals.usage) }
            let rows = Dictionary(
                grouping: try store.items.storedOccurrences([.todo], in: today...today.adding(days: 366)) + (try store.items.oneOffTodoRows()),
                by: \.definitionID)
            for d in definitions { standing[d.id] = TodoStanding(d, stored: Array(Set(rows[d.id] ?? [])), today: today, secondsOfDay: now.secondsOfDay) }
            if let filter = wanted.first {
                definitions = definitions.filter { d in
                    let status = standing[d.id]?.status
                    return filter == "open" ? status != .done : status?.rawValue == filter
                }
            }
        }
        // Habits: their streaks, from every entry since the earliest began.
        var streaks: [Int64: HabitStreak] = [:]
        if kind == .habit, !definitions.isEmpty {
            let today = try invocation.today()
            let earliest = definitions.compactMap { $0.schedule?.anchor }.min() ?? today
            let rows = Dictionary(grouping: try store.items.storedOccurrences([.habit], in: min(earliest, today)...today), by: \.definitionID)
            for d in definitions { streaks[d.id] = HabitStreak(d, stored: rows[d.id] ?? [], today: today) }
        }
        // The calendars' todos, after ours (none is done: a completed one is not read).
        let calendarTodos = kind == .todo && only == nil ? try Self.calendarTodos(&invocation) : []
        if invocation.json {
            let items = definitions.map { d -> JSON in
                var members: [(String, JSON)] = [("id", .int(Int(d.id))), ("title", .string(d.title))]
                if kind != .habit { members.append(("date", d.date.map { .string($0.description) } ?? .null)) }
                members.append(("time", d.time.map { .string($0.description) } ?? .null))
                members.append(("schedule", d.schedule.map { .string($0.description) } ?? .null))
                if kind == .event { members.append(("duration_minutes", d.durationMinutes.map { .int($0) } ?? .null)) }
                if kind != .habit { members.append(("reminders", .array(d.reminders.map { .string($0.description) }))) }
                if let standing = standing[d.id] {
                    members.append(("status", .string(standing.status.rawValue)))
                    members.append(("next", standing.next.map { .string($0.description) } ?? .null))
                }
                if let s = streaks[d.id] {
                    members.append(
                        (
                            "streak",
                            .object([
                                ("current", .int(s.current)), ("longest", .int(s.longest)), ("week_done", .int(s.doneThisWeek)),
                                ("week_planned", .int(s.plannedThisWeek)),
                            ])
                        ))
                }
                // Its own zone, last (nil: floating).
                if kind != .habit { members.append(("zone", d.zone.map { .string($0) } ?? .null)) }
                return .object(members)
            }
            var fields: [(String, JSON)] = [(kind.rawValue + "s", .array(items))]
            if kind == .todo { fields.append(("calendar_todos", .array(calendarTodos.map(\.json)))) }
            invocation.output.line(JSON.object(fields))
            return
        }
        if definitions.isEmpty && calendarTodos.isEmpty { invocation.output.line("no \(kind.rawValue)s") }
        // Ids padded to the widest, so the titles line up (`#1 ` beside `#11`).
        let width = definitions.map { "#\($0.id)".count }.max() ?? 0
        for d in definitions {
            var line = "#\(d.id)".rightPadded(width) + "  " + describe(d)
            if let s = streaks[d.id] {
                line += "  streak \(s.current), longest \(s.longest); this week \(s.weekText)"
            }
            if let standing = standing[d.id] {
                let status = "[\(standing.status.rawValue)]"
                line += "  " + (standing.status == .overdue ? invocation.output.paint(status, .red) : status)
                if d.isRepeating { line += standing.next.map { "  next \($0)" } ?? "  no next occurrence within a year" }
                if standing.status == .done { line = invocation.output.paint(line, .dim) }
            }
            invocation.output.line(line)
        }
        for todo in calendarTodos { invocation.output.line(todo.line(invocation.output)) }
    }
}
