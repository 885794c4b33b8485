import DawnletCore
import DawnletSystem

/// `todo show ID` and `event show ID`: one item whole — when (and in which zone), its schedule,
/// reminders, channels, and what it holds (note, location, link, priority, tags).
extension ItemCommands {
    static func showCommand(_ kind: ItemKind) -> Command {
        Command(
            path: [kind.rawValue, "show"], usage: "\(kind.rawValue) show ID [--json]",
            summary: "Show the \(kind.rawValue) whole: when, schedule, reminders, channels, note, location, link, priority and tags.",
            options: [.flag("json")], positionals: 1...1, run: { try show(kind, &$0) })
    }

    static func show(_ kind: ItemKind, _ invocation: inout Invocation) throws {
        let id = try invocation.id()
        let store = try invocation.readStore()
        let d = try store.items.definition(kind, id: id)
        let details = d.details
        // The checklist as it stands on the todo's current occurrence.
        let today = try invocation.today()
        let occurrence =
            d.checklist.isEmpty || d.schedule == nil
            ? nil : Checklist.current(of: d, stored: try store.items.storedOccurrences([kind], in: today...today.adding(days: 366)), today: today)
        let entries = d.checklist.entries.enumerated().map {
            (number: $0.offset + 1, text: $0.element.text, checked: d.checklist.isChecked($0.element, on: occurrence))
        }
        let when = (d.schedule?.description ?? d.date?.description ?? "") + (d.schedule == nil ? d.time.map { " \($0)" } ?? "" : "")
        if invocation.json {
            var members: [(String, JSON)] = [
                ("kind", .string(kind.rawValue)), ("id", .int(Int(id))), ("title", .string(d.title)),
                ("when", when.isEmpty ? .null : .string(when)), ("reminders", .array(d.reminders.map { .string($0.description) })),
                ("channels", d.channels.map { .array($0.map { .string($0.rawValue) }) } ?? .null),
                ("note", details.note.map { .string($0) } ?? .null), ("location", details.location.map { .string($0) } ?? .null),
                ("url", details.url.map { .string($0) } ?? .null), ("priority", details.priority.map { .int($0) } ?? .null),
                ("tags", .array(details.tags.map { .string($0) })), ("zone", d.zone.map { .string($0) } ?? .null),
            ]
            if kind == .todo {
                // The checklist on its current occurrence (null: a one-off's one state).
                let items = entries.map { JSON.object([("number", .int($0.number)), ("text", .string($0.text)), ("checked", .bool($0.checked))]) }
                members.append(
                    (
                        "checklist",
                        .object([
                            ("occurrence", occurrence.map { .string($0.description) } ?? .null), ("done", .int(d.checklist.doneCount(on: occurrence))),
                            ("total", .int(entries.count)), ("items", .array(items)),
                        ])
                    ))
            }
            invocation.output.line(JSON.object(members))
            return
        }
        var lines = ["\(kind.rawValue) #\(id)  \(d.title)"]
        if !when.isEmpty { lines.append("  \(kind == .event ? "starts" : "due"): \(when)") }
        if let zone = d.zone {
            lines.append("  zone: \(zone)" + ((try? ZoneDatabase.system.zone(named: zone)) != nil ? "" : " (not in this machine's tzdata: read as floating)"))
        }
        if let minutes = d.durationMinutes { lines.append("  lasts: \(DurationText.format(.seconds(minutes * 60)))") }
        if !d.reminders.isEmpty { lines.append("  reminders: " + d.reminders.map(\.description).joined(separator: ", ")) }
        if let channels = d.channels { lines.append("  channels: " + channels.map(\.rawValue).joined(separator: ", ")) }
        if let priority = details.priority { lines.append("  priority: \(ItemDetails.priorityWord(priority)) (\(priority))") }
        if !details.tags.isEmpty { lines.append("  tags: " + details.tags.joined(separator: ", ")) }
        if let location = details.location { lines.append("  location: \(location)") }
        if let url = details.url { lines.append("  link: \(url)") }
        if let summary = d.checklist.summary(on: occurrence) {
            lines.append("  checklist" + (occurrence.map { " on \($0)" } ?? "") + ": \(summary)")
            for entry in entries { lines.append("    [\(entry.checked ? "x" : " ")] \(entry.number)  \(entry.text)") }
        }
        for line in lines { invocation.output.line(DisplayText.shown(line)) }
        // Each line of the note on a line of its own, escaped as every title is.
        if let note = details.note {
            invocation.output.line("  note:")
            for line in note.split(separator: "\n", omittingEmptySubsequences: false) { invocation.output.line("    " + DisplayText.shown(String(line))) }
        }
    }
}
