import DawnletCore
import DawnletStore

/// The verbs on one occurrence (`done`, `skip`, `reopen`, `unskip`) and `delete`. Each answers the
/// reminders of what it changed as `reminder done|skip` would (`Invocation.answerReminders`); an
/// undo takes that answer back.
extension ItemCommands {
    /// `done` and `skip`: records the status of one occurrence.
    static func mark(_ kind: ItemKind, _ status: OccurrenceStatus, _ invocation: inout Invocation) throws {
        let id = try invocation.id()
        let store = try invocation.openStore()
        let definition = try store.items.definition(kind, id: id)
        // Without --on: today's, else the next open one (a habit is done on its day, not ahead).
        let date = try occurrenceDate(of: definition, invocation: invocation, store: store, next: kind == .habit && status == .done ? nil : .open)
        if kind == .habit, status == .done, date > (try invocation.today()) {
            throw CLIError.data("habit \(id) on \(date) is in the future: a habit is done on the day, or after it")
        }
        let before = try store.items.setOccurrence(kind, definitionID: id, date: date, status: status)
        // Asked twice, the same answer: already so, and nothing changed.
        invocation.output.line("\(kind.rawValue) \(id) on \(date): \(before == status ? "already " : "")\(status.rawValue)")
        // A digest lists what was open when it went out: one marked already was not on it.
        try invocation.answerReminders(store, after: "\(kind.rawValue) \(id) on \(date) \(status.rawValue)") { answers, now throws(StoreError) in
            try answers.answer(.init(kind.reminderKind, id: id, date: date), status == .done ? .done : .skipped, digests: before != status, now: now)
        }
    }

    /// `reopen` and `unskip`: the occurrence goes back to what it was before it was marked.
    static func unmark(_ kind: ItemKind, _ status: OccurrenceStatus, _ invocation: inout Invocation) throws {
        let id = try invocation.id()
        let store = try invocation.openStore()
        let definition = try store.items.definition(kind, id: id)
        let date = try occurrenceDate(of: definition, invocation: invocation, store: store, next: status)
        let cleared = try store.items.clearOccurrence(kind, definitionID: id, date: date, status: status)
        let outcome =
            status == .done ? (cleared ? "open again" : "was not done; nothing changed") : (cleared ? "no longer skipped" : "was not skipped; nothing changed")
        invocation.output.line("\(kind.rawValue) \(id) on \(date): \(outcome)")
        guard cleared else { return }
        try invocation.answerReminders(store, after: "\(kind.rawValue) \(id) on \(date) \(outcome)", takingBack: true) { answers, now throws(StoreError) in
            try answers.takeBack(.init(kind.reminderKind, id: id, date: date), status == .done ? .done : .skipped, now: now)
        }
    }

    static func delete(_ kind: ItemKind, _ invocation: inout Invocation) throws {
        let id = try invocation.id()
        let store = try invocation.openStore()
        try store.items.delete(kind, id: id)
        invocation.output.line("\(kind.rawValue) \(id) deleted")
        try invocation.answerReminders(store, after: "\(kind.rawValue) \(id) deleted") { answers, _ throws(StoreError) in
            try answers.answerDeleted(kind.reminderKind, id: id)
        }
    }

    /// The occurrence a verb acts on: a one-off's own date; for a repeating item `--on DATE`, which
    /// must be a date its schedule produces (or one already recorded). Without it, today's, when
    /// today is one; else, given `next`, the first from today on within a year with that status
    /// (open for done and skip, done for reopen), and which date that is goes to stderr.
    static func occurrenceDate(of definition: ItemDefinition, invocation: Invocation, store: Store, next wanted: OccurrenceStatus? = nil) throws
        -> CivilDate
    {
        let noun = "\(definition.kind.rawValue) \(definition.id)"
        guard let schedule = definition.schedule else {
            // An undated todo is done on the day it is marked (or the day already recorded).
            let recorded = try store.items.oneOffTodoRows().first { $0.definitionID == definition.id }?.date
            let own = try definition.date ?? recorded ?? invocation.today()
            if let on = try invocation.optionalDate("on"), on != own {
                throw CLIError.data("\(noun) happens once, on \(own), not on \(on)")
            }
            return own
        }
        let asked = try invocation.optionalDate("on")
        let today = try invocation.today()
        let date = asked ?? today
        let anchor = definition.date ?? date
        let recorded = try store.items.storedOccurrences([definition.kind], in: date...date).contains { $0.definitionID == definition.id }
        if recorded || schedule.matches(date, defaultAnchor: anchor) { return date }
        guard asked == nil, let wanted else {
            throw CLIError.data("\(date) is not an occurrence of \(noun) (\(schedule))\(asked == nil ? "; give --on DATE" : "")")
        }
        let year = today...today.adding(days: 366)
        let stored = try store.items.storedOccurrences([definition.kind], in: year).filter { $0.definitionID == definition.id }
        let word = wanted == .open ? "open" : wanted.rawValue
        guard let next = OccurrenceMerge.occurrences(of: [definition], stored: stored, in: year).first(where: { $0.status == wanted })?.date else {
            throw CLIError.data("today is not an occurrence of \(noun) (\(schedule)), and none within a year is \(word); give --on DATE")
        }
        invocation.output.error("\(noun): \(next), its next \(word) occurrence (today, \(today), is not one)")
        return next
    }

}
