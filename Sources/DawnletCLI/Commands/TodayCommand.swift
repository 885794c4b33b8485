import DawnletCore
import DawnletRunner
import DawnletStore

/// `today [--date D] [--json]`: the merged day across modules (DESIGN §3): timed items in order,
/// then the rest; overdue one-off todos kept on today and marked; done and skipped items marked.
enum TodayCommand {
    static let command = Command(
        path: ["today"], usage: "today [--date DATE] [--json]",
        summary: "Show the day: todos, events, habits and money, merged and skip-honouring.",
        options: [.value("date"), .flag("json")], run: run)

    /// One line of the day, whatever module it comes from.
    struct Item {
        let kind: String
        let id: Int64?
        let definitionID: Int64?
        let title: String
        let time: WallTime?
        let status: String
        let overdue: Bool
        let dueDate: CivilDate?
        let source: String
        let amount: Amount?
    }

    static func run(_ invocation: inout Invocation) throws {
        let day = try invocation.optionalDate("date") ?? invocation.today()
        let store = try invocation.readStore()
        let stored = try store.storedOccurrences(in: day...day) + (try store.oneOffTodoRows())
        var items = OccurrenceMerge.day(day, definitions: try store.definitions(), stored: Array(Set(stored))).map {
            Item(kind: $0.kind.rawValue, id: $0.rowID, definitionID: $0.definition.id, title: $0.title, time: $0.time,
                 status: $0.status.rawValue, overdue: $0.overdue, dueDate: $0.overdue ? $0.date : nil,
                 source: $0.source.rawValue, amount: nil)
        }
        let bills = try store.loadMonth(YearMonth(containing: day)).filter { $0.date == day }
        items += bills.map {
            Item(kind: "bill", id: $0.id, definitionID: $0.definitionID, title: $0.name, time: nil,
                 status: $0.status == .skipped ? "skipped" : "open", overdue: false, dueDate: nil, source: "stored", amount: $0.amount)
        }
        // External calendars' items of the day (DESIGN §8), timed ones in their place.
        let zone = try invocation.timeZone()
        let midnight = WallTime(hour: 0, minute: 0)!
        let dayWindow = zone.resolve(midnight, on: day).instant...zone.resolve(midnight, on: day.adding(days: 1)).instant.adding(seconds: -1)
        let calendars = PlanSource(store: store, config: invocation.config, zone: zone).calendarItems(dayWindow)
        invocation.output.warn(calendars.problems)
        for occurrence in calendars.items.compactMap(\.calendar) where occurrence.date == day {
            let item = Item(kind: occurrence.kind.rawValue, id: nil, definitionID: nil, title: occurrence.title, time: occurrence.time,
                            status: "open", overdue: false, dueDate: nil, source: "ics:\(occurrence.calendar)", amount: nil)
            let position = occurrence.time.flatMap { time in items.firstIndex { $0.time.map { $0 > time } ?? true } } ?? items.count
            items.insert(item, at: position)
        }
        if invocation.json {
            invocation.output.line(JSON.object([
                ("date", .string(day.description)),
                ("items", .array(items.map { item in
                    var members: [(String, JSON)] = [
                        ("kind", .string(item.kind)), ("id", item.id.map { .int(Int($0)) } ?? .null),
                        ("definition_id", item.definitionID.map { .int(Int($0)) } ?? .null), ("title", .string(item.title)),
                        ("time", item.time.map { .string($0.description) } ?? .null), ("status", .string(item.status)),
                        ("overdue", .bool(item.overdue)), ("source", .string(item.source)),
                    ]
                    if let amount = item.amount { members.append(("amount", .string(amount.description))) }
                    return .object(members)
                })),
            ]))
            return
        }
        invocation.output.line("\(day) \(day.weekday.fullName)")
        if items.isEmpty { invocation.output.line("  nothing today") }
        for item in items {
            let box = item.status == "done" ? "[x]" : item.status == "skipped" ? "[-]" : "[ ]"
            var line = "  \(item.time?.description ?? "     ")  \(box) \(item.kind.padding(toLength: 5, withPad: " ", startingAt: 0)) "
            line += "\(item.definitionID.map { "#\($0)" } ?? (item.source.hasPrefix("ics:") ? item.source : "#-"))  \(item.title)"
            if let amount = item.amount { line += "  \(amount)" }
            if let due = item.dueDate { line += "  OVERDUE since \(due)" }
            if item.status == "skipped" { line += "  (skipped)" }
            invocation.output.line(line)
        }
    }
}
