import DawnletApp
import DawnletCore
import DawnletRunner
import DawnletStore
import DawnletSystem

/// `today [--date D] [--tag TAG] [--json]` and `agenda [--from D] [--days N] [--tag TAG] [--json]`: the merged days across
/// modules, from `Agenda` (Core): timed items in order, then the rest; overdue one-off
/// todos kept on today and marked; done, skipped and logged items marked. `today` is the agenda
/// of one day.
enum TodayCommand {
    static let command = Command(
        path: ["today"], usage: "today [--date DATE] [--tag TAG] [--json]",
        summary: "Show the day: todos, events, habits, bills, money dates and calendar items, merged and skip-honouring.",
        options: [.value("date"), .value("tag"), .flag("json")], run: today)

    static let agendaCommand = Command(
        path: ["agenda"], usage: "agenda [--from DATE] [--days N] [--tag TAG] [--json]",
        summary: "Show the days ahead (default: 7 from today), every kind by day, with status and source.",
        options: [.value("from"), .value("days"), .value("tag"), .flag("json")], run: agenda)

    /// The longest agenda one call may ask for.
    static let maximumDays = 366

    static func today(_ invocation: inout Invocation) throws {
        let day = try invocation.optionalDate("date") ?? invocation.today()
        let json = invocation.json
        try answer("today", day...day, &invocation) { days, output, answer in
            guard let only = days.first else { return }
            if json {
                self.json(only, into: &answer)
                answer.append("\n")
            } else {
                lines(only, output, empty: "nothing today", into: &answer)
            }
        }
    }

    static func agenda(_ invocation: inout Invocation) throws {
        let from = try invocation.optionalDate("from") ?? invocation.today()
        var count = 7
        if let text = invocation.arguments.value("days") {
            guard let n = Int(text), (1...maximumDays).contains(n) else {
                throw CLIError.usage("--days \"\(text)\" is not a number of days from 1 to \(maximumDays)", invocation.globals.usage)
            }
            count = n
        }
        let last = from.adding(days: count - 1)
        guard CivilDate.supportedYears.contains(last.year) else {
            throw CLIError.usage("the agenda would run past 9999-12-31", invocation.globals.usage)
        }
        let json = invocation.json
        try answer("agenda", from...last, &invocation) { agenda, output, answer in
            if json { answer.append(#"{"days":["#) }
            for (i, day) in agenda.enumerated() {
                if i > 0 { answer.append(json ? "," : "\n") }
                if json { self.json(day, into: &answer) } else { lines(day, output, empty: "nothing", into: &answer) }
            }
            if json { answer.append("]}\n") }
        }
    }

    /// The days' answer, as `render` writes it: the one kept from the call before when it asked
    /// the same and nothing it was read from has changed since (`AnswerCache`), else made now,
    /// and kept unless a calendar could not be used. Either is printed as it reads now: a one-off
    /// todo of today's overdue from its time (`TimedText`), so a kept answer serves all day.
    static func answer(
        _ command: String, _ range: ClosedRange<CivilDate>, _ invocation: inout Invocation, render: ([Agenda.Day], Output, inout TimedText) -> Void
    ) throws {
        let (zone, now, database) = (try invocation.timeZone(), try invocation.now(), invocation.databasePath())
        let (today, secondsOfDay) = ISO8601.localDate(of: now, in: zone)
        let files =
            RunnerState.files(
                database: database, config: invocation.globals.configPath ?? ConfigFile.defaultPath(), calendars: invocation.config.calendars)
            + [ZoneDatabase.system.file(of: zone.identifier)]
        let request =
            "\(command) \(range.lowerBound)...\(range.upperBound) today=\(today) zone=\(zone.identifier) json=\(invocation.json) color=\(invocation.output.colored) tag=\(invocation.arguments.value("tag") ?? "")"
        let cache = AnswerCache(command, database: database, request: request, files: files)
        if let kept = cache?.read() { return kept.write(at: secondsOfDay, to: &invocation.output) }
        // Stamped before anything is read: a write after this is seen by the next call.
        let stamps = cache?.stamps()
        let (days, problems) = try self.days(range, &invocation)
        invocation.output.warn(problems)
        var answer = TimedText()
        render(days, invocation.output, &answer)
        answer.write(at: secondsOfDay, to: &invocation.output)
        if let cache, let stamps, problems.isEmpty { cache.keep(answer, stamps: stamps) }
    }

    /// Reads what the days need and merges it (Agenda.days), and the calendar files that could
    /// not be used.
    static func days(_ range: ClosedRange<CivilDate>, _ invocation: inout Invocation) throws -> ([Agenda.Day], [CalendarProblem]) {
        let now = ISO8601.localDate(of: try invocation.now(), in: try invocation.timeZone())
        let today = now.date
        let store = try invocation.readStore()
        // Two days either side: an item of its own zone may fall on these days from those.
        let stored =
            try store.items.storedOccurrences(in: range.lowerBound.adding(days: -2)...range.upperBound.adding(days: 2)) + (try store.items.oneOffTodoRows())
        let money = MoneyCalendar.events(
            in: range, subscriptions: try store.sources.subscriptions(), debts: try store.sources.debts(),
            goals: try store.sources.goals(), incomes: try store.sources.incomeSources(), payments: try store.sources.payments())
        // External calendars' items of those days.
        let zone = try invocation.timeZone()
        let window =
            zone.resolve(.midnight, on: range.lowerBound).instant...zone.resolve(.midnight, on: range.upperBound.adding(days: 1)).instant.adding(seconds: -1)
        // No calendar: nothing of the log to read for one.
        let calendars =
            invocation.config.calendars.isEmpty
            ? (items: [], problems: []) : PlanReader(store: store, config: invocation.config, zone: zone).calendarItems(window, now: try invocation.now())
        let definitions = try store.items.definitions()
        let days = Agenda.days(
            range, today: today, secondsOfDay: now.secondsOfDay, definitions: definitions, stored: Array(Set(stored)),
            bills: try store.money.recurringTransactions(), transactions: try store.money.transactions(in: range), money: money,
            calendar: calendars.items.compactMap(\.calendar), zones: PlanReader.itemZones(definitions, zones: .system), viewer: zone)
        // One list's todos and events only.
        guard let only = try invocation.tagFilter(store) else { return (days, calendars.problems) }
        return (days.map { $0.filter { only.keeps(ReminderKind(rawValue: $0.kind) ?? .calendar, $0.definitionID) } }, calendars.problems)
    }

    /// One day as a JSON object, `{"date":…,"items":[…]}`, each item as `item` has it; an entry
    /// the clock changes today reads both ways (`TimedText`).
    static func json(_ day: Agenda.Day, into answer: inout TimedText) {
        answer.append(#"{"date":"\#(day.date)","items":["#)
        for (i, entry) in day.entries.enumerated() {
            if i > 0 { answer.append(",") }
            if let from = entry.overdueFrom {
                answer.append(
                    JSON.object(item(entry.standing(overdue: false, on: day.date))).text, from: from.secondsOfDay,
                    after: JSON.object(item(entry.standing(overdue: true, on: day.date))).text)
            } else {
                answer.append(JSON.object(item(entry)).text)
            }
        }
        answer.append("]}")
    }

    static func item(_ entry: Agenda.Entry) -> [(String, JSON)] {
        // `definition_id` is what the kind's commands take (`todo done ID`), as in `preview` and
        // `find`; `occurrence_id` the stored row of this day's, where there is one (a todo
        // marked, a bill's transaction); `payment_id` the payment that logs it (what `payment
        // delete` takes).
        var members: [(String, JSON)] = [("kind", .string(entry.kind)), ("definition_id", entry.definitionID.map { .int(Int($0)) } ?? .null)]
        if let row = entry.id { members.append(("occurrence_id", .int(Int(row)))) }
        members += [
            ("title", .string(entry.title)),
            ("time", entry.time.map { .string($0.description) } ?? .null),
        ]
        // An item of its own zone, read otherwise there: its own time and zone.
        if let own = entry.own { members.append(("own_time", .string(own))) }
        members += [
            // An overdue todo is open, and says it is overdue.
            ("status", .string(entry.overdueSince == nil ? entry.status : "open")),
            ("overdue", .bool(entry.overdueSince != nil)), ("source", .string(entry.source)),
        ]
        if let end = entry.end { members.append(("end", .string(end))) }
        if let checklist = entry.checklist { members.append(("checklist", .string(checklist))) }
        if let amount = entry.amount { members.append(("amount", .string(amount.description))) }
        if let payment = entry.payment { members.append(("payment_id", .int(Int(payment.id)))) }
        return members
    }

    /// One day as text, each line ending in a newline, painted as `output` paints; an entry the
    /// clock changes today reads both ways (`TimedText`).
    static func lines(_ day: Agenda.Day, _ output: Output, empty: String, into answer: inout TimedText) {
        answer.append(output.paint("\(day.date) \(day.date.weekday.fullName)", .bold) + "\n")
        if day.entries.isEmpty { answer.append("  \(empty)\n") }
        // Ids padded to the day's widest, so titles line up (`#1 ` beside `#11`).
        let width = day.entries.compactMap { $0.definitionID.map { "#\($0)".count } }.max() ?? 0
        // Kinds padded to the day's widest, so that "subscription" beside "todo" keeps titles in line.
        let kindWidth = max(5, day.entries.map(\.kind.count).max() ?? 0)
        for entry in day.entries {
            if let from = entry.overdueFrom {
                answer.append(
                    line(entry.standing(overdue: false, on: day.date), on: day.date, output, width: width, kindWidth: kindWidth),
                    from: from.secondsOfDay, after: line(entry.standing(overdue: true, on: day.date), on: day.date, output, width: width, kindWidth: kindWidth))
            } else {
                answer.append(line(entry, on: day.date, output, width: width, kindWidth: kindWidth))
            }
        }
    }

    /// One entry's line of `date`, ending in a newline.
    static func line(_ entry: Agenda.Entry, on date: CivilDate, _ output: Output, width: Int, kindWidth: Int) -> String {
        let box =
            switch entry.status {
            case "done", "logged", "paid": "[x]"
            case "skipped": "[-]"
            default: "[ ]"
            }
        var line = "  \(entry.time?.description ?? "     ")  \(box) \(entry.kind.rightPadded(kindWidth)) "
        let shown = DisplayText.shown(entry.definitionID.map { "#\($0)" } ?? (entry.source.hasPrefix("ics:") ? entry.source : "#-"))
        line += shown + String(repeating: " ", count: max(0, width - shown.count)) + "  \(DisplayText.shown(entry.title))"
        if let own = entry.own { line += "  (\(own))" }
        if let end = entry.end { line += "  until \(String(end.map { $0 == "T" ? " " : $0 }))" }
        if let checklist = entry.checklist { line += "  (\(checklist))" }
        if let amount = entry.amount { line += "  \(amount)" }
        if entry.status == "skipped" || entry.status == "paid" { line += "  (\(entry.status))" }
        if let payment = entry.payment { line += "  logged (payment #\(payment.id) on \(payment.date))" }
        if box != "[ ]" { line = output.paint(line, .dim) }
        if let due = entry.overdueSince {
            // Overdue since its time today, or since its day.
            let since = due == date ? entry.time?.description ?? due.description : due.description
            line += "  " + output.paint("OVERDUE since \(since)", .red)
        }
        return line + "\n"
    }
}
