import DawnletCore
import DawnletStore

/// A todo's checklist: `todo add|edit --check TEXT` adds entries, `todo edit --no-check ITEM`
/// removes one, `todo check|uncheck ID ITEM` marks one on the todo's current occurrence (a
/// repeating todo's next one starts all unchecked). ITEM is an entry's number or its exact text.
extension ItemCommands {
    static var checkCommands: [Command] {
        [
            Command(
                path: ["todo", "check"], usage: "todo check ID ITEM [--on DATE]",
                summary: "Check one entry of the todo's checklist (its number or exact text) on today's or the next open occurrence.",
                options: [.value("on")], positionals: 2...2, run: { try check(true, &$0) }),
            Command(
                path: ["todo", "uncheck"], usage: "todo uncheck ID ITEM [--on DATE]",
                summary: "Uncheck one entry of the todo's checklist (its number or exact text) on today's or the next open occurrence.",
                options: [.value("on")], positionals: 2...2, run: { try check(false, &$0) }),
        ]
    }

    /// `todo check` and `todo uncheck`.
    static func check(_ checked: Bool, _ invocation: inout Invocation) throws {
        let id = try invocation.id()
        let store = try invocation.openStore()
        let d = try store.items.definition(.todo, id: id)
        let entry = try checklistEntry(invocation.arguments.positionals[1], of: d)
        let date = try occurrenceDate(of: d, invocation: invocation, store: store, next: .open)
        let occurrence = Checklist.occurrence(of: d, on: date)
        let changed = try store.items.setChecked(todo: id, entry: entry.id, occurrence: occurrence, checked, at: try invocation.now())
        let after = try store.items.definition(.todo, id: id).checklist
        let number = (d.checklist.entries.firstIndex(of: entry) ?? 0) + 1
        let state = changed ? "" : checked ? "already checked: " : "was not checked: "
        let on = occurrence.map { " on \($0)" } ?? ""
        invocation.output.line(
            DisplayText.shown(
                "todo \(id)\(on): \(state)[\(checked ? "x" : " ")] \(number) \(entry.text)  (\(after.summary(on: occurrence) ?? ""))"))
    }

    /// The entry `item` names in `d`'s checklist, or why none: exit 65, as an id that names nothing.
    static func checklistEntry(_ item: String, of d: ItemDefinition) throws(CLIError) -> Checklist.Entry {
        let count = d.checklist.entries.count
        guard count > 0 else { throw CLIError.data("todo \(d.id) has no checklist: add entries with `todo edit \(d.id) --check TEXT`") }
        guard let entry = d.checklist.entry(named: item) else {
            throw CLIError.data(
                "todo \(d.id) has no checklist entry \"\(DisplayText.escaped(item))\": give its number (1 to \(count)) or its exact text")
        }
        return entry
    }

    /// The entries `--check` gives (repeatable), each a line of text of at most
    /// `Checklist.textLimit` characters, none twice (nor one `existing` has).
    static func checklistTexts(_ invocation: Invocation, existing: Checklist = Checklist()) throws(CLIError) -> [String] {
        var texts: [String] = []
        for given in invocation.arguments.all("check") {
            let text = try invocation.text(given, "checklist entry")
            guard text.count <= Checklist.textLimit else {
                throw .usage("the checklist entry is longer than \(Checklist.textLimit) characters", invocation.globals.usage)
            }
            guard !texts.contains(text), !existing.entries.contains(where: { $0.text == text }) else {
                throw .usage("the checklist already has the entry \"\(DisplayText.escaped(text))\"", invocation.globals.usage)
            }
            texts.append(text)
        }
        guard existing.entries.count + texts.count <= Checklist.mostEntries else {
            throw .usage("a checklist holds at most \(Checklist.mostEntries) entries", invocation.globals.usage)
        }
        return texts
    }

    /// `todo edit ID --check TEXT --no-check ITEM`: what to add and the entries to remove (each
    /// ITEM named by its number before this edit, or its text), worked out before anything is
    /// written.
    static func checklistEdit(_ d: ItemDefinition, _ invocation: Invocation) throws(CLIError) -> (add: [String], remove: [Checklist.Entry]) {
        var remove: [Checklist.Entry] = []
        for item in invocation.arguments.all("no-check") {
            let entry = try checklistEntry(item, of: d)
            if !remove.contains(entry) { remove.append(entry) }
        }
        let kept = Checklist(entries: d.checklist.entries.filter { !remove.contains($0) })
        return (try checklistTexts(invocation, existing: kept), remove)
    }

    /// Writes a checklist edit; a line on stdout for each entry added or removed.
    static func applyChecklistEdit(_ edit: (add: [String], remove: [Checklist.Entry]), todo id: Int64, store: Store, _ invocation: inout Invocation) throws {
        for entry in edit.remove where try store.items.removeChecklistEntry(todo: id, entry: entry.id) {
            invocation.output.line(DisplayText.shown("todo \(id): checklist entry \"\(entry.text)\" removed"))
        }
        guard !edit.add.isEmpty else { return }
        try store.items.addChecklistEntries(todo: id, edit.add)
        let count = try store.items.definition(.todo, id: id).checklist.entries.count
        for (i, text) in edit.add.enumerated() {
            invocation.output.line(DisplayText.shown("todo \(id): checklist entry \(count - edit.add.count + i + 1) \"\(text)\" added"))
        }
    }

    /// A checklist asked of an event or a habit (`event add --check`, `habit check`): refused
    /// with what to do instead, before the command's own options are read. Nil for anything else.
    static func checklistRefusal(_ words: [String]) -> CLIError? {
        guard let noun = words.first, noun == "event" || noun == "habit" else { return nil }
        let options = words.prefix { $0 != "--" }
        let asked =
            (words.count > 1 && ["check", "uncheck"].contains(words[1]))
            || options.contains { $0 == "--check" || $0 == "--no-check" || $0.hasPrefix("--check=") || $0.hasPrefix("--no-check=") }
        guard asked else { return nil }
        return .usage("a checklist belongs to a todo; \(noun == "event" ? "an event" : "a habit") has none", "todo add TITLE --check TEXT  (todo --help)")
    }
}
