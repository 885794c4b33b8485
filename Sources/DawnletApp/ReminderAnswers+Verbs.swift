import DawnletCore
import DawnletStore

/// Which answers fit which reminder, in one table: `reminder VERB` without a key takes the newest
/// reminder waiting that VERB fits, and an answer that does not fit is refused saying what the
/// reminder is and which answers it takes. A notification offers the same (`ReminderMessage.actions`).
extension ReminderAnswers {
    /// The words of the answers a reminder takes, as `reminder` spells them
    /// (`ReminderKey.answerVerbs`: the one table). (`unsnooze` fits a snoozed reminder, whatever it is.)
    public static func verbs(for key: ReminderKey) -> [String] { key.answerVerbs }

    /// What a reminder is, for a sentence: `a todo's reminder`, `an event's reminder`, `a morning digest`.
    public static func what(_ key: ReminderKey) -> String {
        switch key {
        case .digest: "a morning digest"
        case .calendar: "a calendar item's reminder"
        case .item(let kind, _, _, _): "\(kind.withArticle)'s reminder"
        }
    }

    /// What an answer makes of a reminder, after "is" or "can be": `done`, `skipped`, `logged`.
    public static func participle(_ verb: String) -> String {
        switch verb {
        case "skip": "skipped"
        case "log": "logged"
        case "snooze": "snoozed"
        case "dismiss": "dismissed"
        case "unsnooze": "unsnoozed"
        default: verb
        }
    }

    /// `done, skip, snooze or dismiss`.
    static func alternatives(_ verbs: [String]) -> String {
        verbs.count < 2 ? verbs.joined() : verbs.dropLast().joined(separator: ", ") + " or " + verbs[verbs.count - 1]
    }

    /// Why `verb` does not fit the reminder `key`, with the answers that do.
    static func refusal(_ verb: String, _ key: ReminderKey) -> StoreError {
        let digest = key.isDigest ? "; its items are answered on their own reminders, or with their own commands" : ""
        return StoreError(
            .conflict, "\(key) is \(what(key)), which is not \(participle(verb)): answer it with reminder \(alternatives(verbs(for: key)))\(digest)")
    }

    /// Why no reminder waiting fits `verb`: what each kind waiting takes instead.
    static func noneFits(_ verb: String, among waiting: [Entry]) -> StoreError {
        var seen: [String] = []
        var takes: [String] = []
        for entry in waiting where !seen.contains(what(entry.key)) {
            seen.append(what(entry.key))
            takes.append("\(what(entry.key)) takes \(alternatives(verbs(for: entry.key)))")
        }
        let which = waiting.count == 1 ? "the one reminder waiting cannot" : "none of the \(waiting.count) reminders waiting can"
        return StoreError(.notFound, "\(which) be \(participle(verb)) (\(takes.joined(separator: "; "))); see reminder list")
    }
}
