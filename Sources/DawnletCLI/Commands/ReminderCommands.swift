import DawnletApp
import DawnletCore
import DawnletStore

/// `reminder …`: answer a reminder that went out from the terminal, as its notification's buttons
/// would (the same path: `ReminderAnswers`), and list those waiting or snoozed. A running `serve`
/// closes the notification of a reminder answered here.
enum ReminderCommands {
    static let answers: [(verb: String, summary: String)] = [
        ("done", "Mark the reminder's todo or habit done (a calendar todo completed in its file, an event's alarm acknowledged)."),
        ("skip", "Skip the reminder's occurrence (a bill's month too; a calendar item's occurrence cancelled in its file)."),
        ("dismiss", "Say you have seen it: it stops waiting, nothing else is recorded."),
        ("paid", "Record the reminder's bill paid."),
        ("log", "Log the payment of the reminder's subscription renewal or debt month."),
        ("unsnooze", "Call off the reminder's snooze: it waits again, and does not come back by itself. Without KEY: the one snoozed."),
    ]

    static let commands: [Command] =
        [
            Command(
                path: ["reminder", "list"], usage: "reminder list [--waiting | --snoozed] [--json]",
                summary: "List reminders that went out in the last week and wait for an answer, and those snoozed.",
                options: [.flag("waiting"), .flag("snoozed"), .flag("json")], run: list),
            Command(
                path: ["reminder", "snooze"], usage: "reminder snooze [KEY] [--for DURATION | --until DATE TIME]",
                summary: "Bring the reminder back later (default: the first snooze preset), on each channel it went by; the series does not move.",
                options: [.value("for"), .value("until")], positionals: 0...1, run: snooze),
        ]
        + answers.map { verb, summary in
            Command(
                path: ["reminder", verb], usage: "reminder \(verb) [KEY]",
                summary: verb == "unsnooze"
                    ? summary
                    : summary + " Without KEY: the newest one waiting that it fits."
                        + (["paid", "log"].contains(verb) ? "" : " KEY may be a calendar item's own (ics:NAME:UID[:INSTANCE], as find and todo list show it)."),
                options: [], positionals: 0...1, run: { try answer(verb, &$0) })
        }

    static func answer(_ verb: String, _ invocation: inout Invocation) throws {
        try apply(verb, &invocation) { (key) throws(StoreError) in
            switch verb {
            case "done": .done
            case "skip": .skip
            case "dismiss": .dismiss
            case "unsnooze": .unsnooze
            default: try ReminderAnswers.payment(verb, of: key)
            }
        }
    }

    static func snooze(_ invocation: inout Invocation) throws {
        let now = try invocation.now()
        let until: Instant
        switch (invocation.arguments.value("for"), invocation.arguments.value("until")) {
        case (_?, _?):
            throw CLIError.usage("give --for or --until, not both", invocation.globals.usage)
        case (let text?, nil):
            guard let span = DurationText.parse(text), span > .zero else {
                throw CLIError.usage("--for \"\(text)\" is not a duration longer than zero (10m, 1h, 1h30m, 2d)", invocation.globals.usage)
            }
            until = now.adding(span)
        case (nil, let text?):
            guard let (day, time) = DateWords.dateAndTime(text, today: try invocation.today()), let time else {
                throw CLIError.usage("--until \"\(text)\" is not a date and time (tomorrow 09:00, fri 18:30, 2026-12-04T09:30)", invocation.globals.usage)
            }
            until = try invocation.timeZone().resolve(time, on: day).instant
        case (nil, nil):
            // The first preset (one "before start" needs --until).
            guard let first = invocation.config.desktop.snooze[0].until(now: now, zone: try invocation.timeZone(), start: nil) else {
                throw CLIError.usage(
                    "give --for or --until: the first snooze preset (\(invocation.config.desktop.snooze[0])) says no time from now", invocation.globals.usage)
            }
            until = first
        }
        try apply("snooze", &invocation) { _ in .snooze(until: until) }
    }

    /// The answer applied to KEY, or to the newest reminder waiting that it fits (said on stderr
    /// once it is applied); says what it came to. Nothing is said done that was not.
    static func apply(_ verb: String, _ invocation: inout Invocation, _ answer: (ReminderKey) throws(StoreError) -> ReminderAnswer) throws {
        let now = try invocation.now()
        // A reminder is answered in a database it went out from: a missing one is exit 66, never made.
        var answers = ReminderAnswers(store: try invocation.readStore(), config: invocation.config, zone: try invocation.timeZone())
        var problems: [String] = []
        answers.writeProblem = { problems.append($0) }
        var chosen: ReminderAnswers.Entry?
        do {
            let key: ReminderKey
            if let text = invocation.arguments.positionals.first {
                guard let parsed = ReminderKey(text) else {
                    // A calendar item's own key, as `find` and `todo list` show it.
                    if let item = CalendarReference(text + ":0m"),
                        let applied = try answers.apply(try answer(.calendar(item)), toCalendarItem: text, from: .terminal, now: now)
                    {
                        for problem in problems { invocation.output.error(problem) }
                        invocation.output.line(DisplayText.shown("\(applied.response): \(text)"))
                        return
                    }
                    throw CLIError.usage(
                        text.hasPrefix("ics:")
                            ? "\"\(DisplayText.escaped(text))\" is neither a reminder key nor a calendar item's (as `find` and `todo list` show them)"
                            : "\"\(text)\" is not a reminder key (as `reminder list` shows them, e.g. todo:3:2026-12-01:0m)",
                        invocation.globals.usage)
                }
                key = parsed
            } else {
                chosen = try answers.implicitKey(verb, now: now)
                key = chosen!.key
            }
            let applied = try answers.apply(try answer(key), to: key, from: .terminal, now: now)
            if let chosen { invocation.output.error("\(verb): \(chosen.key) \"\(DisplayText.bounded(chosen.title, to: 80))\"") }
            for problem in problems { invocation.output.error(problem) }
            // A calendar's key holds its item's UID, and what came of it a file's name: any text.
            invocation.output.line(DisplayText.shown("\(applied.response): \(key)"))
        } catch let error as StoreError {
            // The reminder taken without KEY is named, so a refusal says which it was.
            guard let chosen else { throw CLIError(error) }
            throw CLIError(StoreError(error.code, "\(verb) \(chosen.key) \"\(DisplayText.bounded(chosen.title, to: 80))\": \(error.message)"))
        }
    }

    static func list(_ invocation: inout Invocation) throws {
        let waitingOnly = invocation.arguments.has("waiting"), snoozedOnly = invocation.arguments.has("snoozed")
        guard !(waitingOnly && snoozedOnly) else { throw CLIError.usage("give --waiting or --snoozed, not both", invocation.globals.usage) }
        let answers = ReminderAnswers(store: try invocation.readStore(), config: invocation.config, zone: try invocation.timeZone())
        let zone = try invocation.timeZone()
        let waiting = snoozedOnly ? [] : try answers.waiting(now: try invocation.now())
        let snoozed = waitingOnly ? [] : try answers.snoozed()
        if invocation.json {
            func object(_ entry: ReminderAnswers.Entry) -> JSON {
                var fields: [(String, JSON)] = [
                    ("key", .string(entry.key.description)), ("kind", .string(entry.kind.rawValue)), ("title", .string(entry.title)),
                    ("due", .string(ISO8601.format(entry.fireAt, in: zone))), ("channels", .array(entry.channels.map { .string($0.rawValue) })),
                    ("late", .bool(entry.late)), ("repeats", .int(entry.repeats)),
                ]
                if let until = entry.snoozedUntil { fields.append(("until", .string(ISO8601.format(until, in: zone)))) }
                return .object(fields)
            }
            var fields: [(String, JSON)] = []
            if !snoozedOnly { fields.append(("waiting", .array(waiting.map(object)))) }
            if !waitingOnly { fields.append(("snoozed", .array(snoozed.map(object)))) }
            invocation.output.line(JSON.object(fields))
            return
        }
        func line(_ entry: ReminderAnswers.Entry, _ when: Instant, _ prefix: String) -> String {
            let iso = ISO8601.format(when, in: zone)
            let time = "\(iso.prefix(10)) \(iso.dropFirst(11).prefix(5))"
            let again = entry.repeats == 0 ? "" : "  back \(entry.repeats) time\(entry.repeats == 1 ? "" : "s")"
            // The title and a calendar's key (its item's UID) are outside text: the line is escaped once, whole.
            return DisplayText.shown(
                "\(prefix)\(time)  \(entry.kind)  \(entry.title)  → \(entry.channels.map(\.rawValue).joined(separator: ", "))\(again)  (\(entry.key))")
        }
        if !snoozedOnly {
            if waiting.isEmpty { invocation.output.line("nothing waiting for an answer") }
            for entry in waiting { invocation.output.line(line(entry, entry.fireAt, "")) }
        }
        if !waitingOnly {
            if !snoozed.isEmpty && !snoozedOnly { invocation.output.line("snoozed:") }
            if snoozed.isEmpty && snoozedOnly { invocation.output.line("nothing snoozed") }
            for entry in snoozed { invocation.output.line(line(entry, entry.snoozedUntil ?? entry.fireAt, "until ")) }
        }
    }
}
