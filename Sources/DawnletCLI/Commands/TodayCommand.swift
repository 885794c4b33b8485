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
        try answer("today", day...day, &invocation) { days, output in
            guard let only = days.first else { return "" }
            return json ? JSON.object(self.json(only)).text + "\n" : lines(only, output, empty: "nothing today")
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
        try answer("agenda", from...last, &invocation) { agenda, output in
            if json { return JSON.object([("days", .array(agenda.map { .object(self.json($0)) }))]).text + "\n" }
            return agenda.map { lines($0, output, empty: "nothing") }.joined(separator: "\n")
        }
    }

    /// The days' answer, as `render` writes it: the one kept from the call before when it asked
    /// the same and nothing it was read from has changed since (`AnswerCache`), else made now,
    /// and kept unless a calendar could not be used.
    static func answer(
        _ command: String, _ range: ClosedRange<CivilDate>, _ invocation: inout Invocation, render: ([Agenda.Day], Output) -> String
    ) throws {
        let (zone, today, database) = (try invocation.timeZone(), try invocation.today(), invocation.databasePath())
        let files =
            RunnerState.files(
                database: database, config: invocation.globals.configPath ?? ConfigFile.defaultPath(), calendars: invocation.config.calendars)
            + [ZoneDatabase.system.file(of: zone.identifier)]
        let request =
            "\(command) \(range.lowerBound)...\(range.upperBound) today=\(today) zone=\(zone.identifier) json=\(invocation.json) color=\(invocation.output.colored) tag=\(invocation.arguments.value("tag") ?? "")"
        let cache = AnswerCache(command, database: database, request: request, files: files)
        let now = try invocation.now()
        if let kept = cache?.read(now: now) { return invocation.output.lines(kept) }
        // Stamped before anything is read: a write after this is seen by the next call.
        let stamps = cache?.stamps()
        let (days, problems) = try self.days(range, &invocation)
        invocation.output.warn(problems)
        let text = render(days, invocation.output)
        invocation.output.lines(text)
        // Kept until an open todo of today's reaches its time (a one-off is overdue from then).
        var until = zone.resolve(.midnight, on: today.adding(days: 1)).instant
        for day in days where day.date == today {
            for entry in day.entries where entry.kind == "todo" && entry.status == "open" && entry.overdueSince == nil {
                if let time = entry.time { until = min(until, zone.resolve(time, on: today).instant) }
            }
        }
        if let cache, let stamps, problems.isEmpty { cache.keep(text, stamps: stamps, until: until) }
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
        let calendars = PlanReader(store: store, config: invocation.config, zone: zone).calendarItems(window, now: try invocation.now())
        let definitions = try store.items.definitions()
        let days = Agenda.days(
            range, today: today, secondsOfDay: now.secondsOfDay, definitions: definitions, stored: Array(Set(stored)),
            bills: try store.money.recurringTransactions(), transactions: try store.money.transactions(in: range), money: money,
            calendar: calendars.items.compactMap(\.calendar), zones: PlanReader.itemZones(definitions, zones: .system), viewer: zone)
        // One list's todos and events only.
        guard let only = try invocation.tagFilter(store) else { return (days, calendars.problems) }
        return (days.map { $0.filter { only.keeps(ReminderKind(rawValue: $0.kind) ?? .calendar, $0.definitionID) } }, calendars.problems)
    }

    static func json(_ day: Agenda.Day) -> [(String, JSON)] {
        [
            ("date", .string(day.date.description)),
            (
                "items",
                .array(
                    day.entries.map { entry in
                        // `definition_id` is what the kind's commands take (`todo done ID`), as in
                        // `preview` and `find`; `occurrence_id` the stored row of this day's, where
                        // there is one (a todo marked, a bill's transaction); `payment_id` the
                        // payment that logs it (what `payment delete` takes).
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
                        return .object(members)
                    })
            ),
        ]
    }

    /// One day as text, each line ending in a newline, painted as `output` paints.
    static func lines(_ day: Agenda.Day, _ output: Output, empty: String) -> String {
        var text = output.paint("\(day.date) \(day.date.weekday.fullName)", .bold) + "\n"
        if day.entries.isEmpty { text += "  \(empty)\n" }
        func source(_ entry: Agenda.Entry) -> String { entry.definitionID.map { "#\($0)" } ?? (entry.source.hasPrefix("ics:") ? entry.source : "#-") }
        // Ids padded to the day's widest, so titles line up (`#1 ` beside `#11`).
        let width = day.entries.compactMap { $0.definitionID.map { "#\($0)".count } }.max() ?? 0
        // Kinds padded to the day's widest, so that "subscription" beside "todo" keeps titles in line.
        let kindWidth = max(5, day.entries.map(\.kind.count).max() ?? 0)
        for entry in day.entries {
            let box = ["done": "[x]", "logged": "[x]", "paid": "[x]", "skipped": "[-]"][entry.status] ?? "[ ]"
            var line = "  \(entry.time?.description ?? "     ")  \(box) \(entry.kind.rightPadded(kindWidth)) "
            let shown = DisplayText.shown(source(entry))
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
                let since = due == day.date ? entry.time?.description ?? due.description : due.description
                line += "  " + output.paint("OVERDUE since \(since)", .red)
            }
            text += line + "\n"
        }
        return text
    }
}
