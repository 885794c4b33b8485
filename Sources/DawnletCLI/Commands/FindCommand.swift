import DawnletCore
import DawnletStore

/// `find TEXT [--json]`: every todo, event, habit, recurring transaction, subscription, debt, goal
/// and income source whose title or name holds TEXT (any case), with the command noun and id
/// that reach it.
enum FindCommand {
    static let command = Command(
        path: ["find"], usage: "find TEXT [--json]",
        summary: "Find items of every kind whose title or name contains TEXT (any case).",
        options: [.flag("json")], positionals: 1...1, run: run)

    static func run(_ invocation: inout Invocation) throws {
        let text = try invocation.text(invocation.arguments.positionals[0], "text to find")
        let store = try invocation.readStore()
        var found: [(kind: String, id: Int64, title: String, detail: String)] = []
        for d in try store.items.definitions() {
            // When: the date and time of a one-off, the schedule (with its time) of a series.
            var when = d.schedule?.description ?? d.date?.description ?? ""
            if let time = d.time, d.schedule?.time == nil { when += (when.isEmpty ? "" : " ") + (d.schedule == nil ? "" : "at ") + time.description }
            found.append((d.kind.rawValue, d.id, d.title, when))
        }
        for t in try store.money.recurringTransactions() { found.append(("money", t.id, t.name, "\(t.amount) \(t.when)")) }
        for s in try store.sources.subscriptions() { found.append(("subscription", s.id, s.name, "\(s.amount) \(s.schedule)\(s.active ? "" : " paused")")) }
        for d in try store.sources.debts() { found.append(("debt", d.id, d.name, "balance \(d.balance)")) }
        for g in try store.sources.goals() { found.append(("goal", g.id, g.name, "target \(g.target)")) }
        for i in try store.sources.incomeSources() { found.append(("income", i.id, i.name, "\(i.amount) \(i.schedule)")) }
        let key = TextSearch.folded(text)
        let matches = found.filter { TextSearch.folded($0.title).contains(key) }
        if invocation.json {
            invocation.output.line(
                JSON.object([
                    (
                        "found",
                        .array(
                            matches.map {
                                .object([
                                    ("kind", .string($0.kind)), ("definition_id", .int(Int($0.id))), ("title", .string($0.title)),
                                    ("detail", .string($0.detail)),
                                ])
                            })
                    )
                ]))
            return
        }
        if matches.isEmpty { invocation.output.line("nothing matches \"\(DisplayText.escaped(text))\"") }
        for m in matches { invocation.output.line(DisplayText.shown("\(m.kind) #\(m.id)  \(m.title)\(m.detail.isEmpty ? "" : "  (\(m.detail))")")) }
    }
}
