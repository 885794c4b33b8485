import DawnletApp
import DawnletCore
import DawnletRunner
import DawnletStore
import DawnletSystem

/// `next [--json] [--format waybar]`: the next reminder the runner will send (when, what, in how
/// long) and what needs looking at (overdue todos, missed and failed reminders), for a prompt or
/// a status bar (waybar, polybar, i3blocks) that runs it every few seconds. While `serve` runs on
/// the database it reads what the runner published (`RunnerStateFile`), else it plans.
enum NextCommand {
    static let command = Command(
        path: ["next"], usage: "next [--json] [--format waybar]",
        summary: "Show the next reminder due and how long until it (or why serve holds it), with the overdue, missed and failed counts; for status bars.",
        options: [.flag("json"), .value("format")], run: run)

    /// How far ahead it looks for the next reminder.
    static let lookaheadDays = RunnerState.lookaheadDays

    struct Answer {
        var next: Head?
        var overdue = 0, missed = 0, failed = 0
        var now: Instant
        /// "serve" (what the running runner published) or "plan" (planned here).
        var from = "plan"
        /// What the plan's calendar budget left out (planned here).
        var calendarProblems: [CalendarProblem] = []
    }

    /// What is said of the next reminder, from the plan or from what the runner published.
    struct Head {
        var fireAt: Instant
        var utcOffset: Int
        /// "todo #1", "event Work" (a calendar's), "digest".
        var what: String
        var title: String
        /// The reminder as `preview --json` writes it.
        var json: String
        /// Held back by the runner on every channel it has still to go out on, why, and since
        /// when (its server paused); nil when it is not.
        var held: (reason: Hold.Reason, since: Instant?)?

        init(fireAt: Instant, utcOffset: Int, what: String, title: String, json: String) {
            (self.fireAt, self.utcOffset, self.what, self.title, self.json) = (fireAt, utcOffset, what, title, json)
        }

        /// With what the runner holds back (`holds`), as it published it.
        init(_ reminder: PlannedReminder, holds: Holds? = nil) {
            var w = JSONWriter()
            PreviewCommand.write(reminder, to: &w, holds: holds)
            let what =
                reminder.definitionID.map { "\(reminder.kind) #\($0)" }
                ?? (reminder.item?.calendar.map { _ in "\(reminder.kind) \(reminder.sourceName)" } ?? reminder.kind.rawValue)
            self.init(fireAt: reminder.fireAt, utcOffset: reminder.utcOffset, what: what, title: reminder.title, json: w.out.string)
            if let holds, holds.holdsWhole(reminder), let first = holds.held(reminder).first { held = (first.reason, first.since) }
        }
    }

    static func run(_ invocation: inout Invocation) throws {
        let format = invocation.arguments.value("format")
        if let format, format != "waybar" {
            throw CLIError.usage("--format \"\(format)\" is not a format: give waybar", invocation.globals.usage)
        }
        let zone = try invocation.timeZone()
        let now = try invocation.now()
        let database = invocation.databasePath()
        let files = RunnerState.files(
            database: database, config: invocation.globals.configPath ?? ConfigFile.defaultPath(), calendars: invocation.config.calendars)
        let answer =
            try RunnerStateFile(database: database)?.read(files: files, zone: zone.identifier, now: now) ?? plan(&invocation, zone: zone, now: now)
        write(answer, format: format, zone: zone, to: &invocation.output, json: invocation.json)
    }

    /// The answer planned here, as the runner would.
    static func plan(_ invocation: inout Invocation, zone: Zone, now: Instant) throws -> Answer {
        let store = try invocation.readStore()
        let source = PlanReader(store: store, config: invocation.config, zone: zone)
        var answer = Answer(now: now)
        // From the grace window back (a reminder that goes out late now is the next one too),
        // over a day first, then further: most of the time the next is near, and a plan's cost
        // grows with its window.
        var start = now.adding(.zero - invocation.config.graceWindow)
        for days in [1, 7, 30, lookaheadDays] where answer.next == nil {
            let end = now.adding(seconds: Int64(days) * 86_400)
            answer.calendarProblems = try source.forEachReminder(now: now, window: start...end) { reminder in
                guard reminder.isToGoOut else { return true }
                answer.next = Head(reminder)
                return false
            }
            start = end.adding(seconds: 1)
        }
        answer.overdue = try source.overdue(at: now).count
        answer.missed = try store.log.unacknowledgedMissedCount()
        answer.failed = try store.log.count(.failed)
        return answer
    }

    static func write(_ answer: Answer, format: String?, zone: Zone, to output: inout Output, json: Bool) {
        if format == "waybar" {
            output.line(waybar(answer, zone: zone))
        } else if json {
            output.json { w, _ in
                w.beginObject()
                w.key("next")
                if let next = answer.next { w.raw(next.json) } else { w.null() }
                w.field("in_seconds", answer.next.map { Int(max(0, $0.fireAt.secondsSinceEpoch - answer.now.secondsSinceEpoch)) })
                w.key("held")
                if let held = answer.next?.held {
                    w.beginObject()
                    w.field("reason", held.reason.rawValue)
                    w.field("why", held.reason.words)
                    if let since = held.since {
                        w.field("since", instant: since, utcOffset: zone.utcOffset(at: since))
                    } else {
                        w.field("since", nil as String?)
                    }
                    w.endObject()
                } else {
                    w.null()
                }
                w.field("overdue", answer.overdue)
                w.field("missed", answer.missed)
                w.field("failed", answer.failed)
                w.field("from", answer.from)
                w.calendarCuts(answer.calendarProblems)
                w.endObject()
            }
        } else {
            output.line(DisplayText.escaped(sentence(answer, zone: zone)))
            if let counts = counts(answer) { output.line(output.paint(counts, answer.failed + answer.missed > 0 ? .red : .yellow)) }
            // What the plan's budget left out: the next reminder may be among it.
            for cut in CalendarCut.each(answer.calendarProblems) { output.line(DisplayText.escaped("not planned: \(cut)")) }
        }
    }

    /// "Tue 2026-12-01 09:00  todo #1  Call mum  (in 2 h 5 min)", "(held: notification server
    /// paused since 09:02)" for one the runner holds back, or that nothing is due.
    static func sentence(_ answer: Answer, zone: Zone) -> String {
        guard let next = answer.next else { return "nothing to remind of in the next \(lookaheadDays) days" }
        let local = ISO8601.format(next.fireAt, utcOffset: next.utcOffset)
        let day = ISO8601.localDate(of: next.fireAt, in: zone).date
        let when =
            next.held.map { held in
                "held: " + held.reason.words + (held.since.map { " since " + ISO8601.format($0, in: zone).dropFirst(11).prefix(5) } ?? "")
            } ?? until(next.fireAt, from: answer.now)
        return "\(day.weekday.fullName.prefix(3)) \(day) \(local.dropFirst(11).prefix(5))  \(next.what)  \(next.title)  (\(when))"
    }

    /// "2 overdue, 1 missed": only what is there; nil when nothing is.
    static func counts(_ answer: Answer) -> String? {
        let parts = [(answer.overdue, "overdue"), (answer.missed, "missed"), (answer.failed, "failed")].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// "in 5 min", "in 2 h 5 min", "in 3 days 4 h"; "now", or "now, 2 h 5 min late" for one
    /// that goes out late.
    static func until(_ instant: Instant, from now: Instant) -> String {
        let seconds = instant.secondsSinceEpoch - now.secondsSinceEpoch
        func span(_ seconds: Int64) -> String {
            let minutes = (seconds + 59) / 60
            if minutes < 60 { return "\(minutes) min" }
            if minutes < 24 * 60 { return "\(minutes / 60) h" + (minutes % 60 == 0 ? "" : " \(minutes % 60) min") }
            let days = minutes / 1440, hours = minutes % 1440 / 60
            return "\(days) day\(days == 1 ? "" : "s")" + (hours == 0 ? "" : " \(hours) h")
        }
        if seconds <= -60 { return "now, \(span(-seconds)) late" }
        if seconds <= 0 { return "now" }
        return seconds < 60 ? "in under a minute" : "in \(span(seconds))"
    }

    /// Waybar's custom module: `{"text","tooltip","class"}`. Its text is Pango markup, so a
    /// title's `&`, `<` and `>` are escaped; the class is what a style sheet colours by.
    static func waybar(_ answer: Answer, zone: Zone) -> JSON {
        func markup(_ text: String) -> String {
            var out = ""
            for c in DisplayText.escaped(text) {
                switch c {
                case "&": out += "&amp;"
                case "<": out += "&lt;"
                case ">": out += "&gt;"
                default: out.append(c)
                }
            }
            return out
        }
        var text = "", tooltip = markup(sentence(answer, zone: zone))
        if let next = answer.next {
            let local = ISO8601.format(next.fireAt, utcOffset: next.utcOffset)
            text = markup("\(local.dropFirst(11).prefix(5)) \(DisplayText.bounded(next.title, to: 40))")
        }
        if let counts = counts(answer) {
            text += (text.isEmpty ? "" : " · ") + counts
            tooltip += "\n" + counts
        }
        let soon = answer.next.map { $0.fireAt.secondsSinceEpoch - answer.now.secondsSinceEpoch <= 15 * 60 } ?? false
        let state =
            answer.failed > 0
            ? "failed"
            : answer.missed > 0
                ? "missed"
                : answer.overdue > 0
                    ? "overdue"
                    : answer.next == nil ? "idle" : answer.next?.held != nil ? "held" : soon ? "soon" : "pending"
        return .object([("text", .string(text)), ("tooltip", .string(tooltip)), ("class", .string(state))])
    }
}
