import DawnletCore
import DawnletStore

/// `todo|event|habit edit`: a series or one occurrence changed, and the pieces of text an edit and
/// an add read (weekdays, durations) and `list` writes.
extension ItemCommands {
    static func editCommand(_ kind: ItemKind) -> Command {
        let reminding: [OptionSpec] = [.repeatable("remind"), .flag("no-remind"), .value("channel"), .flag("no-channel")] + styleOptions
        switch kind {
        case .todo:
            return Command(
                path: ["todo", "edit"],
                usage: "todo edit ID [--on DATE] [--title T] [--due DATE[THH:MM]] [--at TIME | --no-time] [--zone ZONE | --no-zone] "
                    + "[--every SCHEDULE | --once] [--until DATE | --no-until] [--remind OFFSET]... [--no-remind] [--channel LIST | --no-channel] \(styleUsage) "
                    + "\(Invocation.detailUsage) [--no-tags] [--check TEXT]... [--no-check ITEM]...",
                summary: "Change the todo (or, with --on, one occurrence's title and time); add or remove checklist entries.",
                options: [
                    .value("on"), .value("title"), .value("due"), .value("at"), .flag("no-time"), .value("every"), .flag("once"), .value("until"),
                    .flag("no-until"),
                ] + reminding + Invocation.detailOptions + [.flag("no-tags"), .repeatable("check"), .repeatable("no-check")] + Invocation.zoneOptions
                    + [.flag("no-zone")], positionals: 1...1,
                run: { try edit(.todo, &$0) })
        case .event:
            return Command(
                path: ["event", "edit"],
                usage: "event edit ID [--on DATE] [--title T] [--start DATE[THH:MM]] [--at TIME | --all-day] [--zone ZONE | --no-zone] [--duration D] "
                    + "[--every SCHEDULE | --once] [--until DATE | --no-until] [--remind OFFSET]... [--no-remind] [--channel LIST | --no-channel] \(styleUsage) "
                    + "\(Invocation.detailUsage) [--no-tags]",
                summary: "Change the event (or, with --on, one occurrence's title and time).",
                options: [
                    .value("on"), .value("title"), .value("start"), .value("at"), .flag("all-day"), .value("duration"),
                    .value("every"), .flag("once"), .value("until"), .flag("no-until"),
                ] + reminding + Invocation.detailOptions + [.flag("no-tags")] + Invocation.zoneOptions + [.flag("no-zone")], positionals: 1...1,
                run: { try edit(.event, &$0) })
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
                [
                    "due", "start", "every", "until", "duration", "remind", "channel", "nag", "urgency", "sound", "note", "note-file", "location", "url",
                    "priority", "tag", "zone", "check", "no-check",
                ]
                .filter { arguments.value($0) != nil }
                + ["no-time", "all-day", "once", "no-until", "no-remind", "no-channel", "no-tags", "no-zone"].filter { arguments.has($0) }
            guard other.isEmpty else { throw CLIError.usage("with --on only --title and --at apply (not --\(other[0]))", usage) }
            guard title != nil || time != nil else { throw CLIError.usage("nothing to change: give --title or --at", usage) }
            let date = try occurrenceDate(of: old, invocation: invocation, store: store)
            try store.items.setOccurrence(kind, definitionID: id, date: date, status: nil, title: title, time: time)
            invocation.output.line("\(kind.rawValue) \(id) on \(date): updated")
            return
        }
        for (a, b) in [
            ("at", "no-time"), ("at", "all-day"), ("every", "once"), ("until", "no-until"), ("until", "once"), ("remind", "no-remind"),
            ("channel", "no-channel"),
        ]
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
        } else if arguments.value("until") != nil {
            guard var schedule = new.schedule else {
                throw CLIError.usage("\(kind.rawValue) \(id) does not repeat: --until ends a schedule (give --every too)", usage)
            }
            try invocation.ending(&schedule)
            new.schedule = schedule
        }
        if arguments.has("no-until") { new.schedule?.until = nil }
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
        if kind != .habit {
            new.details = try invocation.itemDetails(over: old.details)
            new.zone = try invocation.itemZone(over: old.zone)
        }
        let checklist: (add: [String], remove: [Checklist.Entry]) = kind == .todo ? try checklistEdit(old, invocation) : ([], [])
        // The schedule's time is the item's time: one value, shown the same everywhere.
        new.schedule?.time = new.time
        // Its checklist's entries added and removed, with or without a change to the rest.
        try applyChecklistEdit(checklist, todo: id, store: store, &invocation)
        guard new != old else {
            if !checklist.add.isEmpty || !checklist.remove.isEmpty { return }
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
        if let zone = d.zone { line += "  zone \(zone)" }
        if let minutes = d.durationMinutes { line += "  for \(formatDuration(minutes))" }
        if !d.reminders.isEmpty { line += "  remind " + ReminderOffset.text(d.reminders) }
        if let channels = d.channels { line += "  by " + channels.map(\.rawValue).joined(separator: ",") }
        if let style = d.style?.text { line += "  " + style }
        return line
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
