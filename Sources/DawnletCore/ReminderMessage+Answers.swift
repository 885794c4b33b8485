/// The commands that answer a message from a terminal, as its email lists them. A single
/// reminder's are `reminder VERB KEY` (`answerCommands`). A digest is answered line by line: each
/// line that has an answer gets its item's own command (`todo done 3 --on 2026-12-01`, `money paid
/// 1 --on …`, `subscription log 2 --on …`), which answers that occurrence wherever it is
/// reminded, and the digest as a whole is dismissed. A summary lists each member's `reminder`
/// commands, a digest among them as a digest's email does.
extension ReminderMessage {
    /// One line of a digest, or one member of a summary, kept for the commands that answer it.
    public struct AnswerLine: Hashable, Sendable {
        public enum Target: Hashable, Sendable {
            /// A digest's line: an occurrence of one of our items, answered by the item's own command.
            case occurrence(ReminderKind, id: Int64, date: CivilDate)
            /// A summary's member: its reminder, answered by `reminder VERB KEY`; a digest's, by
            /// `lines` and its dismissal.
            case reminder(ReminderKey, lines: [AnswerLine])
        }

        /// The line as the message lists it, on one line (a title's line breaks and control
        /// characters shown as escapes).
        public let label: String
        /// Its item's title, or its reminder's, as it is.
        public let title: String
        public let target: Target

        public init(label: String, title: String, target: Target) {
            self.label = DisplayText.shown(label)
            self.title = title
            self.target = target
        }
    }

    /// The lines of a digest a terminal command answers: todos and habits (done), bills (paid),
    /// subscription renewals and debts' months (log), each as the digest lists it. Left out: what
    /// has no command answer (events, goals, income, calendar files' items), and a habit, a
    /// renewal or a debt's month still ahead of the digest's day, which is done or logged on its
    /// day and not before.
    public static func answerLines(ofDigest reminder: PlannedReminder) -> [AnswerLine] {
        let day = reminder.occurrenceDate
        return reminder.items.enumerated().compactMap { index, item in
            guard !item.isCalendar, item.suppression == nil else { return nil }
            switch item.kind {
            case .todo, .bill: break
            case .habit, .subscription, .debt: guard item.date <= day else { return nil }
            default: return nil
            }
            let overdue = index >= reminder.items.count - reminder.overdueCount
            let label =
                overdue
                ? "overdue since \(item.date): \(item.title)" : "\(item.kind.rawValue): \(item.title)" + (item.date != day ? " (\(item.date))" : "")
            return AnswerLine(
                label: DisplayText.bounded(label, to: 120), title: item.title, target: .occurrence(item.kind, id: item.definitionID, date: item.date))
        }
    }

    /// A summary's members, labelled as its body lists them.
    static func answerLines(ofSummary reminders: some Collection<PlannedReminder>, labels: [String]) -> [AnswerLine] {
        zip(reminders, labels).map { reminder, label in
            AnswerLine(
                label: label, title: reminder.title, target: .reminder(reminder.key, lines: reminder.key.isDigest ? answerLines(ofDigest: reminder) : []))
        }
    }

    /// The part of an email that says how to answer it from a terminal, every command as
    /// `program` (with the `--db` and `--config` it runs with) would run it; empty for a test or
    /// a notice.
    public func answerText(program: String, snooze: [SnoozePreset], zone: Zone) -> String {
        switch key {
        case .reminder(let key) where key.isDigest && !answerLines.isEmpty:
            return "Answer its lines from a terminal:\n" + Self.digestText(answerLines, key, program: program, indent: "  ")
        case .reminder:
            let commands = answerCommands(program: program, snooze: snooze, zone: zone)
            return "Answer it from a terminal:\n" + commands.map { "  \($0)\n" }.joined()
        case .summary(_, let more):
            var text = "Answer each from a terminal:\n"
            for member in answerLines {
                text += "  \(member.label)\n"
                guard case .reminder(let key, let lines) = member.target else { continue }
                text +=
                    key.isDigest && !lines.isEmpty
                    ? Self.digestText(lines, key, program: program, indent: "    ")
                    : Self.memberCommands(key, program: program, snooze: snooze).map { "    \($0)\n" }.joined()
            }
            if more > 0 { text += "  and \(more) more, with their keys:\n    \(program) reminder list\n" }
            return text
        case .test, .notice:
            return ""
        }
    }

    /// A digest's lines, each with the command that answers it, and its dismissal.
    static func digestText(_ lines: [AnswerLine], _ key: ReminderKey, program: String, indent: String) -> String {
        var text = ""
        for line in lines {
            guard case .occurrence(let kind, let id, let date) = line.target else { continue }
            let command: String
            switch kind {
            case .bill: command = "money paid"
            case .subscription, .debt: command = "\(kind.rawValue) log"
            default: command = "\(kind.rawValue) done"
            }
            text += "\(indent)\(line.label)\n\(indent)  \(program) \(command) \(id) --on \(date)\n"
        }
        return text + "\(indent)the digest, seen:\n\(indent)  \(program) reminder dismiss \(ShellWords.quoted(key.description))\n"
    }

    /// A summary member's `reminder` commands: each answer it takes, the first snooze preset
    /// that says a time of its own, and `dismiss`.
    static func memberCommands(_ key: ReminderKey, program: String, snooze: [SnoozePreset]) -> [String] {
        let target = ShellWords.quoted(key.description)
        return key.answerVerbs.compactMap { verb in
            guard verb == "snooze" else { return "\(program) reminder \(verb) \(target)" }
            for preset in snooze {
                switch preset {
                case .after(let span): return "\(program) reminder snooze \(target) --for \(DurationText.format(span))"
                case .at(let words): return "\(program) reminder snooze \(target) --until \(ShellWords.quoted(words))"
                case .beforeStart: continue
                }
            }
            return nil
        }
    }
}

extension ReminderKey {
    /// The words of the answers a reminder takes, by what it reminds of, as `reminder` spells
    /// them: done where its item's command has `done` (todos, habits; a calendar item's alarm
    /// acknowledged), skip where it has `skip` (and bills), paid for a bill, log for a
    /// subscription's renewal or a debt's month, snooze for every single reminder, dismiss for
    /// all. A digest is only dismissed: its lines are answered by their items' own commands.
    public var answerVerbs: [String] {
        switch self {
        case .digest: ["dismiss"]
        case .calendar: ["done", "skip", "snooze", "dismiss"]
        case .item(let kind, _, _, _):
            switch kind {
            case .todo, .habit: ["done", "skip", "snooze", "dismiss"]
            case .event: ["skip", "snooze", "dismiss"]
            case .bill: ["paid", "skip", "snooze", "dismiss"]
            case .subscription, .debt: ["log", "snooze", "dismiss"]
            case .goal, .income, .calendar: ["snooze", "dismiss"]
            }
        }
    }
}

extension ReminderMessage {
    /// A summary's buttons, where the server shows every action (dunst's menu): each member's own
    /// answer — Done for a todo, a habit or a calendar item, Paid for a bill, Log payment for a
    /// renewal or a debt's month — answering that reminder only. None for anything else, and
    /// none for a member that takes no such answer (an event, a goal, a digest).
    public var memberActions: [ReminderAction] {
        guard case .summary = key else { return [] }
        return answerLines.compactMap { line in
            guard case .reminder(let key, _) = line.target, let verb = key.answerVerbs.first(where: ["done", "paid", "log"].contains) else { return nil }
            return .member(verb, key, title: line.title)
        }
    }

    /// A summary on the desktop has no buttons where the server shows a few at most (and on
    /// dunst, its menu answers a member only with Done, Paid or Log payment): its body ends saying
    /// what closing it does and how to answer one member from a terminal, with the answers its
    /// members take. Nil for anything else.
    public var desktopAnswerHint: String? {
        guard case .summary(let keys, _) = key else { return nil }
        let taken = Set(keys.flatMap(\.answerVerbs))
        let verbs = ["done", "skip", "paid", "log", "snooze"].filter(taken.contains)
        let answer = verbs.isEmpty ? "" : "; to answer one: dawnlet-remind reminder \(verbs.joined(separator: "|")) KEY (reminder list shows the keys)"
        return "Closing this dismisses them all\(answer)."
    }
}
