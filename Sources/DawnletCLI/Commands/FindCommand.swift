import DawnletApp
import DawnletCore
import DawnletStore

/// `find TEXT [--json]`: every todo, event, habit, recurring transaction, subscription, debt, goal
/// and income source whose title or name holds TEXT (any case) — a todo's or event's note,
/// location or tags too — with the command noun and id
/// that reach it; and the calendars' items from yesterday to the horizon, with their calendar and
/// the next occurrence (as `preview` keys its reminders).
enum FindCommand {
    static let command = Command(
        path: ["find"], usage: "find TEXT [--json]",
        summary:
            "Find items of every kind whose title or name (a todo's or event's note, location or tags too) contains TEXT (any case), the calendars' items too.",
        options: [.flag("json")], positionals: 1...1, run: run)

    static func run(_ invocation: inout Invocation) throws {
        let text = try invocation.text(invocation.arguments.positionals[0], "text to find")
        let store = try invocation.readStore()
        var found: [(kind: String, id: Int64?, title: String, detail: String, calendar: CalendarOccurrence?)] = []
        // Where else a todo or event may hold the text, by index in `found`: its note, location and tags.
        var held: [Int: String] = [:]
        for d in try store.items.definitions() {
            // When: the date and time of a one-off, the schedule (with its time) of a series.
            var when = d.schedule?.description ?? d.date?.description ?? ""
            if let time = d.time, d.schedule?.time == nil { when += (when.isEmpty ? "" : " ") + (d.schedule == nil ? "" : "at ") + time.description }
            let more = [d.details.note, d.details.location].compactMap { $0 } + d.details.tags
            if !more.isEmpty { held[found.count] = more.joined(separator: "\n") }
            found.append((d.kind.rawValue, d.id, d.title, when, nil))
        }
        for t in try store.money.recurringTransactions() { found.append(("money", t.id, t.name, "\(t.amount) \(t.when)", nil)) }
        for s in try store.sources.subscriptions() {
            found.append(("subscription", s.id, s.name, "\(s.amount) \(s.schedule)\(s.active ? "" : " paused")", nil))
        }
        for d in try store.sources.debts() { found.append(("debt", d.id, d.name, "balance \(d.balance)", nil)) }
        for g in try store.sources.goals() { found.append(("goal", g.id, g.name, "target \(g.target)", nil)) }
        for i in try store.sources.incomeSources() { found.append(("income", i.id, i.name, "\(i.amount) \(i.schedule)", nil)) }
        // Each calendar item once, at its next occurrence from yesterday on.
        let now = try invocation.now()
        let zone = try invocation.timeZone()
        let reader = PlanReader(store: store, config: invocation.config, zone: zone)
        let (items, problems) = reader.calendarItemsOnce(from: now.adding(seconds: -86_400), now: now)
        invocation.output.warn(problems)
        for occurrence in items {
            let when = occurrence.date.description + (occurrence.time.map { " \($0)" } ?? "")
            found.append(("calendar \(occurrence.calendar)", nil, occurrence.title, "\(occurrence.kind.rawValue) \(when); \(occurrence.key)", occurrence))
        }
        let key = TextSearch.folded(text)
        let matches = found.indices.filter { i in
            TextSearch.folded(found[i].title).contains(key) || held[i].map { TextSearch.folded($0).contains(key) } == true
        }.map { found[$0] }
        if invocation.json {
            invocation.output.line(
                JSON.object([
                    (
                        "found",
                        .array(
                            matches.map { m in
                                guard let occurrence = m.calendar else {
                                    return .object([
                                        ("kind", .string(m.kind)), ("definition_id", .int(Int(m.id ?? 0))), ("title", .string(m.title)),
                                        ("detail", .string(m.detail)),
                                    ])
                                }
                                return .object([
                                    ("kind", .string("calendar")), ("calendar", .string(occurrence.calendar)), ("uid", .string(occurrence.uid)),
                                    ("source", .string(occurrence.key)), ("title", .string(m.title)), ("detail", .string(m.detail)),
                                ])
                            })
                    )
                ]))
            return
        }
        if matches.isEmpty { invocation.output.line("nothing matches \"\(DisplayText.escaped(text))\"") }
        for m in matches {
            let what = m.id.map { "\(m.kind) #\($0)" } ?? m.kind
            invocation.output.line(DisplayText.shown("\(what)  \(m.title)\(m.detail.isEmpty ? "" : "  (\(m.detail))")"))
        }
    }
}
