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
                usage: "todo add TITLE [--due DATE[THH:MM]] [--every SCHEDULE] [--remind OFFSET]... [--channel LIST] \(styleUsage)",
                summary: "Add a todo: one-off (optionally due) or repeating; prints its id.",
                options: [.value("due"), .value("every"), .repeatable("remind"), .value("channel")] + styleOptions, positionals: 1...1, run: addTodo),
            Command(
                path: ["event", "add"],
                usage: "event add TITLE --start DATE[THH:MM] [--duration 1h30m] [--every SCHEDULE] [--remind OFFSET]... [--channel LIST] \(styleUsage)",
                summary: "Add an event, optionally repeating; prints its id.",
                options: [.value("start"), .value("duration"), .value("every"), .repeatable("remind"), .value("channel")] + styleOptions,
                positionals: 1...1, run: addEvent),
            Command(
                path: ["habit", "add"], usage: "habit add NAME --days mon,wed,fri [--at TIME] [--from DATE] [--channel LIST] \(styleUsage)",
                summary: "Add a habit kept on some weekdays, from today or DATE; prints its id.",
                options: [.value("days"), .value("at"), .value("from"), .value("channel")] + styleOptions, positionals: 1...1, run: addHabit),
        ]
            + ItemKind.allCases.flatMap { kind in
                var verbs = [
                    kind == .todo
                        ? Command(
                            path: ["todo", "list"], usage: "todo list [--open | --done | --overdue] [--json]",
                            summary: "List todos with where each stands (open, done, overdue) and a repeating one's next occurrence.",
                            options: [.flag("open"), .flag("done"), .flag("overdue"), .flag("json")], run: { try list(.todo, &$0) })
                        : Command(
                            path: [kind.rawValue, "list"], usage: "\(kind.rawValue) list [--json]",
                            summary: kind == .habit
                                ? "List the habits you defined, with their streaks and this week's days kept."
                                : "List the \(kind.rawValue)s you defined (their occurrences are in `today`).",
                            options: [.flag("json")], run: { try list(kind, &$0) }),
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
                return verbs
            }
    }

    static func addTodo(_ invocation: inout Invocation) throws {
        let title = try invocation.text(invocation.arguments.positionals[0], "title")
        let due = try invocation.dateAndTime("due")
        let schedule = try invocation.schedule("every")
        let today = try invocation.today()
        let store = try invocation.openStore()
        let id = try store.items.addItem(
            kind: .todo, title: title, date: due?.0, time: schedule?.time ?? due?.1, schedule: schedule,
            reminders: try invocation.reminders(), channels: try invocation.itemChannels(), style: try invocation.itemStyle(over: nil), today: today,
            now: try invocation.now())
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
            reminders: try invocation.reminders(), channels: try invocation.itemChannels(), style: try invocation.itemStyle(over: nil), today: today,
            now: try invocation.now())
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
        let schedule = Schedule(rule: .weekly(interval: 1, days: set), anchor: from ?? today, time: time)
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
            let rows = try store.items.storedOccurrences([.habit], in: min(earliest, today)...today)
            for d in definitions { streaks[d.id] = HabitStreak(d, stored: rows, today: today) }
        }
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
                return .object(members)
            }
            invocation.output.line(JSON.object([(kind.rawValue + "s", .array(items))]))
            return
        }
        if definitions.isEmpty { invocation.output.line("no \(kind.rawValue)s") }
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
    }

    /// `done` and `skip`: records the status of one occurrence.
    static func mark(_ kind: ItemKind, _ status: OccurrenceStatus, _ invocation: inout Invocation) throws {
        let id = try invocation.id()
        let store = try invocation.openStore()
        let definition = try store.items.definition(kind, id: id)
        // Without --on: today's, else the next open one (a habit is done on its day, not ahead).
        let date = try occurrenceDate(of: definition, invocation: invocation, store: store, next: kind == .habit && status == .done ? nil : .open)
        if kind == .habit, status == .done, date > (try invocation.today()) {
            throw CLIError.data("habit \(id) on \(date) is in the future: a habit is done on the day, or after it")
        }
        let before = try store.items.setOccurrence(kind, definitionID: id, date: date, status: status)
        // Asked twice, the same answer: already so, and nothing changed.
        invocation.output.line("\(kind.rawValue) \(id) on \(date): \(before == status ? "already " : "")\(status.rawValue)")
    }

    /// `reopen` and `unskip`: the occurrence goes back to what it was before it was marked.
    static func unmark(_ kind: ItemKind, _ status: OccurrenceStatus, _ invocation: inout Invocation) throws {
        let id = try invocation.id()
        let store = try invocation.openStore()
        let definition = try store.items.definition(kind, id: id)
        let date = try occurrenceDate(of: definition, invocation: invocation, store: store, next: status)
        let cleared = try store.items.clearOccurrence(kind, definitionID: id, date: date, status: status)
        let outcome =
            status == .done ? (cleared ? "open again" : "was not done; nothing changed") : (cleared ? "no longer skipped" : "was not skipped; nothing changed")
        invocation.output.line("\(kind.rawValue) \(id) on \(date): \(outcome)")
    }

    static func editCommand(_ kind: ItemKind) -> Command {
        let reminding: [OptionSpec] = [.repeatable("remind"), .flag("no-remind"), .value("channel"), .flag("no-channel")] + styleOptions
        switch kind {
        case .todo:
            return Command(
                path: ["todo", "edit"],
                usage: "todo edit ID [--on DATE] [--title T] [--due DATE[THH:MM]] [--at TIME | --no-time] "
                    + "[--every SCHEDULE | --once] [--remind OFFSET]... [--no-remind] [--channel LIST | --no-channel] \(styleUsage)",
                summary: "Change the todo (or, with --on, one occurrence's title and time).",
                options: [.value("on"), .value("title"), .value("due"), .value("at"), .flag("no-time"), .value("every"), .flag("once")]
                    + reminding, positionals: 1...1, run: { try edit(.todo, &$0) })
        case .event:
            return Command(
                path: ["event", "edit"],
                usage: "event edit ID [--on DATE] [--title T] [--start DATE[THH:MM]] [--at TIME | --all-day] [--duration D] "
                    + "[--every SCHEDULE | --once] [--remind OFFSET]... [--no-remind] [--channel LIST | --no-channel] \(styleUsage)",
                summary: "Change the event (or, with --on, one occurrence's title and time).",
                options: [
                    .value("on"), .value("title"), .value("start"), .value("at"), .flag("all-day"), .value("duration"),
                    .value("every"), .flag("once"),
                ] + reminding, positionals: 1...1, run: { try edit(.event, &$0) })
        case .habit:
            return Command(
                path: ["habit", "edit"],
                usage: "habit edit ID [--name N] [--days DAYS] [--at TIME | --no-time] [--channel LIST | --no-channel] \(styleUsage)",
                summary: "Change the habit's name, days, time, channels or way of reminding.",
                options: [.value("name"), .value("days"), .value("at"), .flag("no-time"), .value("channel"), .flag("no-channel")] + styleOptions,
                positionals: 1...1,
                run: { try edit(.habit, &$0) })
        }
    }

    /// `edit`: with `--on`, one occurrence's title and time; else the series, any of its parts.
    /// A changed schedule keeps the rows of dates it still produces; the others are history.
    static func edit(_ kind: ItemKind, _ invocation: inout Invocation) throws {
        let id = try invocation.id()
        let arguments = invocation.arguments
        let usage = invocation.globals.usage
        let store = try invocation.openStore()
        let old = try store.items.definition(kind, id: id)
        if arguments.value("on") != nil {
            let title = try arguments.value("title").map { (t) throws(CLIError) in try invocation.text(t, "title") }
            let time = try invocation.optionalTime("at")
            let other =
                ["due", "start", "every", "duration", "remind", "channel", "nag", "urgency", "sound"].filter { arguments.value($0) != nil }
                + ["no-time", "all-day", "once", "no-remind", "no-channel"].filter { arguments.has($0) }
            guard other.isEmpty else { throw CLIError.usage("with --on only --title and --at apply (not --\(other[0]))", usage) }
            guard title != nil || time != nil else { throw CLIError.usage("nothing to change: give --title or --at", usage) }
            let date = try occurrenceDate(of: old, invocation: invocation, store: store)
            try store.items.setOccurrence(kind, definitionID: id, date: date, status: nil, title: title, time: time)
            invocation.output.line("\(kind.rawValue) \(id) on \(date): updated")
            return
        }
        for (a, b) in [("at", "no-time"), ("at", "all-day"), ("every", "once"), ("remind", "no-remind"), ("channel", "no-channel")]
        where (arguments.value(a) != nil || arguments.has(a)) && arguments.has(b) {
            throw CLIError.usage("give --\(a) or --\(b), not both", usage)
        }
        var new = old
        if let text = arguments.value(kind == .habit ? "name" : "title") { new.title = try invocation.text(text, kind == .habit ? "name" : "title") }
        // A new date (and maybe time): --due for todos, --start for events.
        if let (day, time) = try invocation.dateAndTime(kind == .event ? "start" : "due") {
            new.date = day
            if let time { new.time = time }
        }
        if let time = try invocation.optionalTime("at") { new.time = time }
        if arguments.has("no-time") || arguments.has("all-day") { new.time = nil }
        if let text = arguments.value("duration") {
            guard let minutes = durationMinutes(text) else {
                throw CLIError.usage("--duration \"\(text)\" is not a duration like 45m, 2h or 1h30m (at most 30 days)", usage)
            }
            new.durationMinutes = minutes
        }
        if kind == .habit, let days = arguments.value("days") {
            new.schedule = Schedule(rule: .weekly(interval: 1, days: try weekdays(days, &invocation)), anchor: old.schedule?.anchor, time: new.time)
        }
        if var schedule = try invocation.schedule("every") {
            let today = try invocation.today()
            if schedule.anchor == nil { schedule.anchor = new.date ?? old.schedule?.anchor ?? today }
            if let time = schedule.time, arguments.value("at") == nil { new.time = time }
            new.schedule = schedule
        }
        if arguments.has("once") {
            // One-off from here: on the next open occurrence, or the date it had.
            if old.isRepeating && new.date == old.date {
                let today = try invocation.today()
                let rows = try store.items.storedOccurrences([kind], in: today...today.adding(days: 366))
                new.date = TodoStanding(old, stored: rows, today: today).next ?? old.date
            }
            new.schedule = nil
        }
        if arguments.has("no-remind") { new.reminders = [] }
        if !arguments.all("remind").isEmpty { new.reminders = try invocation.reminders() }
        if arguments.has("no-channel") { new.channels = nil }
        if let channels = try invocation.itemChannels() { new.channels = channels }
        new.style = try invocation.itemStyle(over: old.style)
        // The schedule's time is the item's time: one value, shown the same everywhere.
        new.schedule?.time = new.time
        guard new != old else {
            guard !arguments.values.isEmpty else { throw CLIError.usage("nothing to change: give what to set (see --help)", usage) }
            // What was asked is already so (the same title again): nothing is written, and that is no error.
            invocation.output.error("\(kind.rawValue) \(id): already so; nothing changed")
            return
        }
        try store.items.replaceDefinition(new, now: try invocation.now())
        invocation.output.line("\(kind.rawValue) \(id): \(describe(new))")
        let dateOption = kind == .event ? "start" : "due"
        invocation.echoResolved(dateOption, as: "\(kind.rawValue) \(id): \(kind == .event ? "starts" : "due")", try invocation.dateAndTime(dateOption))
    }

    /// `mon,wed,fri` as a set of weekdays, or a usage error.
    /// `daily` and `weekdays` too, as schedules say them.
    static func weekdays(_ days: String, _ invocation: inout Invocation) throws(CLIError) -> WeekdaySet {
        switch days.lowercased() {
        case "daily", "every day": return .all
        case "weekdays": return .workdays
        default: break
        }
        guard let parsed = Schedule("weekly on " + days), case .weekly(_, let set?) = parsed.rule, parsed.anchor == nil, parsed.time == nil else {
            throw CLIError.usage(
                "--days \"\(days)\" is not a list of weekdays like mon,wed,fri, nor daily or weekdays", invocation.globals.usage)
        }
        return set
    }

    /// What a definition now is, as `list` shows it.
    static func describe(_ d: ItemDefinition) -> String {
        var line = DisplayText.shown(d.title)
        if let schedule = d.schedule {
            line += "  (\(schedule))"
        } else if let date = d.date {
            line += d.kind == .todo ? "  due \(date)" : "  on \(date)"
            if let time = d.time { line += " \(time)" }
        }
        if let minutes = d.durationMinutes { line += "  for \(formatDuration(minutes))" }
        if !d.reminders.isEmpty { line += "  remind " + ReminderOffset.text(d.reminders) }
        if let channels = d.channels { line += "  by " + channels.map(\.rawValue).joined(separator: ",") }
        if let style = d.style?.text { line += "  " + style }
        return line
    }

    static func delete(_ kind: ItemKind, _ invocation: inout Invocation) throws {
        let id = try invocation.id()
        try invocation.openStore().items.delete(kind, id: id)
        invocation.output.line("\(kind.rawValue) \(id) deleted")
    }

    /// The occurrence a verb acts on: a one-off's own date; for a repeating item `--on DATE`, which
    /// must be a date its schedule produces (or one already recorded). Without it, today's, when
    /// today is one; else, given `next`, the first from today on within a year with that status
    /// (open for done and skip, done for reopen), and which date that is goes to stderr.
    static func occurrenceDate(of definition: ItemDefinition, invocation: Invocation, store: Store, next wanted: OccurrenceStatus? = nil) throws
        -> CivilDate
    {
        let noun = "\(definition.kind.rawValue) \(definition.id)"
        guard let schedule = definition.schedule else {
            // An undated todo is done on the day it is marked (or the day already recorded).
            let recorded = try store.items.oneOffTodoRows().first { $0.definitionID == definition.id }?.date
            let own = try definition.date ?? recorded ?? invocation.today()
            if let on = try invocation.optionalDate("on"), on != own {
                throw CLIError.data("\(noun) happens once, on \(own), not on \(on)")
            }
            return own
        }
        let asked = try invocation.optionalDate("on")
        let today = try invocation.today()
        let date = asked ?? today
        let anchor = definition.date ?? date
        let recorded = try store.items.storedOccurrences([definition.kind], in: date...date).contains { $0.definitionID == definition.id }
        if recorded || schedule.matches(date, defaultAnchor: anchor) { return date }
        guard asked == nil, let wanted else {
            throw CLIError.data("\(date) is not an occurrence of \(noun) (\(schedule))\(asked == nil ? "; give --on DATE" : "")")
        }
        let year = today...today.adding(days: 366)
        let stored = try store.items.storedOccurrences([definition.kind], in: year).filter { $0.definitionID == definition.id }
        let word = wanted == .open ? "open" : wanted.rawValue
        guard let next = OccurrenceMerge.occurrences(of: [definition], stored: stored, in: year).first(where: { $0.status == wanted })?.date else {
            throw CLIError.data("today is not an occurrence of \(noun) (\(schedule)), and none within a year is \(word); give --on DATE")
        }
        invocation.output.error("\(noun): \(next), its next \(word) occurrence (today, \(today), is not one)")
        return next
    }

    /// `45m`, `2h`, `1h30m`: minutes, 1 to 30 days' worth.
    static func durationMinutes(_ text: String) -> Int? {
        var minutes = 0
        var digits = ""
        var sawUnit = false
        for character in text {
            if character.isASCII && character.isNumber {
                digits.append(character)
                continue
            }
            guard let n = Int(digits), digits.count <= 5 else { return nil }
            switch character {
            case "d": minutes += n * 1440
            case "h": minutes += n * 60
            case "m": minutes += n
            default: return nil
            }
            digits = ""
            sawUnit = true
        }
        guard sawUnit, digits.isEmpty, (1...(30 * 1440)).contains(minutes) else { return nil }
        return minutes
    }

    static func formatDuration(_ minutes: Int) -> String {
        let h = minutes / 60, m = minutes % 60
        return h == 0 ? "\(m)m" : (m == 0 ? "\(h)h" : "\(h)h\(m)m")
    }
}
