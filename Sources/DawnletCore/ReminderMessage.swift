/// What one delivery says, whatever the channel: the placeholders of the command
/// channel's argv template, the desktop notification, the email.
public struct ReminderMessage: Hashable, Sendable {
    public var title: String
    public var body: String
    /// What it is about, and the key it carries.
    public var key: MessageKey
    /// A reminder kind, "digest", "summary" (several late reminders in one), "test" or "notice".
    public var kind: String { key.kind }
    /// When it was due, ISO 8601 with its UTC offset (one held for quiet hours: when it was due
    /// inside them); for a summary, when it goes out.
    public var when: String
    /// The item's own time (an event's start, a todo's due time), ISO 8601 with its UTC offset;
    /// its date for a date-only item; empty for a digest or a summary.
    public var due = ""
    /// How long before the item it reminds (`10m`, `1d`); empty for a digest or a summary.
    public var offset = ""
    public var late: Bool
    /// Held for quiet hours, and going out at their end.
    public var held = false
    /// Critical for an overdue todo, a bill due today and a nag's return, unless its item or kind
    /// asks for another; normal else.
    public var urgency: Urgency
    /// A nag's how manyeth time back (0: its first going out).
    public var repetition = 0
    /// A freedesktop sound name to play where the server plays sounds.
    public var sound: String?
    public var persistence: Persistence = .default
    /// When it went out (planned), and when its item starts (an event's start, a todo's due
    /// time): a snooze "before start" counts back from it.
    public var firedAt: Instant?
    public var start: Instant?
    /// What can be logged as paid right from it: a digest's
    /// subscription renewals, debt due dates and bills not yet logged, or the reminder's own.
    public var payables: [Payable] = []
    /// A digest's lines and a summary's members, for the commands that answer each
    /// (`answerText`, in `ReminderMessage+Answers.swift`).
    public var answerLines: [AnswerLine] = []

    /// One thing a notification can record as paid: a subscription's renewal or a debt's month
    /// (Log payment), a bill (Paid).
    public struct Payable: Hashable, Sendable {
        public let kind: ReminderKind
        public let id: Int64
        public let date: CivilDate
        public let title: String
    }

    public init(title: String, body: String, key: MessageKey, when: String, late: Bool, urgency: Urgency = .normal) {
        self.title = title
        self.body = body
        self.key = key
        self.when = when
        self.late = late
        self.urgency = urgency
    }

    /// The message of one planned reminder going out at `sentAt` (late, at a snooze's or a nag's
    /// return, at the end of quiet hours: its words say how far its item is then), as `style`
    /// says; `zone` gives the item's own time its UTC offset.
    public init(_ reminder: PlannedReminder, late: Bool, at sentAt: Instant, zone: Zone, style: DeliveryStyle = DeliveryStyle()) {
        let dueToday = reminder.offset?.isZero ?? false
        let pressing = (reminder.kind == .reminder(.todo) && late) || (reminder.kind == .reminder(.bill) && dueToday)
        let when = reminder.heldFrom.map { ISO8601.format($0, in: zone) } ?? ISO8601.format(reminder.fireAt, utcOffset: reminder.utcOffset)
        self.init(
            title: reminder.title, body: "", key: .reminder(reminder.key), when: when, late: late,
            urgency: reminder.repetition > 0 ? .critical : style.urgency ?? (pressing ? .critical : .normal))
        repetition = reminder.repetition

        sound = style.sound
        persistence = style.persistence
        firedAt = reminder.fireAt
        let payable: Set<ReminderKind> = [.subscription, .debt, .bill]
        payables = (reminder.item.map { [$0] } ?? reminder.items)
            .filter { payable.contains($0.kind) && $0.suppression == nil }
            .prefix(ReminderMessage.mostPayables)
            .map { Payable(kind: $0.kind, id: $0.definitionID, date: $0.date, title: $0.title) }
        offset = reminder.offset?.description ?? ""
        if reminder.key.isDigest { answerLines = Self.answerLines(ofDigest: reminder) }
        var relative: String?
        if let item = reminder.item {
            if let start = item.calendar?.start {
                due = ISO8601.format(start, in: zone)
                self.start = start
            } else if let time = item.time {
                let resolved = zone.resolve(time, on: item.date)
                due = ISO8601.format(resolved.instant, utcOffset: resolved.utcOffset)
                start = resolved.instant
            } else {
                due = item.date.description
            }
            relative = start.map { DueWords.relative($0, from: sentAt) } ?? DueWords.relative(item.date, from: ISO8601.localDate(of: sentAt, in: zone).date)
        }
        body = reminder.body(relative: relative)
        if reminder.heldFrom != nil {
            held = true
            body += "\nHeld for quiet hours: due \(when.dropFirst(11).prefix(5))."
        }
    }

    /// The start of its item's note, after the body's first line (what is due, and when): its
    /// first three lines, 300 characters at most (the rest is in `show ID`), each line as text is
    /// shown. Added as a reminder of one item goes out (the plan does not carry notes).
    public mutating func addNote(_ note: String) {
        let lines = note.split(separator: "\n", omittingEmptySubsequences: false)
        var shown = lines.prefix(3).map { DisplayText.shown(String($0)) }.joined(separator: "\n")
        if lines.count > 3 { shown += "\n…" }
        shown = "\n" + DisplayText.bounded(shown, to: 300)
        if let end = body.firstIndex(of: "\n") { body.insert(contentsOf: shown, at: end) } else { body += shown }
    }

    /// One message for several late reminders, of bounded size whatever their number or titles: it
    /// lists the first `listed` (each line at most 120 characters) and counts the rest ("and 290
    /// more"), so it fits a command's argument list, a notification and a mail line alike.
    /// `when` is the moment it goes out.
    /// Reminders held for quiet hours (each with `heldFrom`) are "held for quiet hours", listed
    /// at the times they were due, and not late.
    public static func summary(of reminders: [PlannedReminder], when: String, zone: Zone, listed: Int = 10) -> ReminderMessage {
        let shown = reminders.prefix(listed)
        let held = reminders.allSatisfy { $0.heldFrom != nil }
        let lines = shown.map { reminder in
            let due = reminder.heldFrom.map { ISO8601.format($0, in: zone) } ?? ISO8601.format(reminder.fireAt, utcOffset: reminder.utcOffset)
            return DisplayText.bounded("\(due.prefix(16)) \(reminder.title)", to: 120)
        }
        var message = ReminderMessage(
            title: "\(reminders.count) reminders \(held ? "held for quiet hours" : "you missed")",
            body: (lines + (reminders.count > listed ? ["and \(reminders.count - listed) more"] : [])).joined(separator: "\n"),
            key: .summary(shown.map(\.key), more: reminders.count - shown.count), when: when, late: !held)
        message.answerLines = answerLines(ofSummary: shown, labels: lines)
        return message
    }

    /// The command template's placeholders.
    public var templateValues: [String: String] {
        [
            "title": title, "body": body, "kind": kind, "key": key.description, "when": when, "late": late ? "late" : "", "due": due, "offset": offset,
            "repeat": repetition > 0 ? "\(repetition)" : "", "urgency": urgency.rawValue,
        ]
    }

    /// A digest offers at most this many payments (a notification's actions are a short menu).
    public static let mostPayables = 4

    /// What a person can do from the notification: Done where the CLI has `done` (todos, habits),
    /// Skip where it has `skip` (and bills), Log payment for a subscription renewal or a debt due
    /// date and Paid for a bill (a digest's too), Done (acknowledged) on a calendar item's, and
    /// the snooze presets on every single reminder (one "before start" only where the item starts
    /// later than the reminder went out). A summary of several has none.
    public func actions(snooze: [SnoozePreset]) -> [ReminderAction] {
        let paying = payables.map { $0.kind == .bill ? ReminderAction.paid($0) : .logPayment($0) }
        guard case .reminder(let reminder) = key else { return [] }
        let snoozes: [ReminderAction] = snooze.compactMap { preset in
            guard case .beforeStart(let span) = preset else { return .snooze(preset, until: nil) }
            guard let start, let firedAt, start.adding(.zero - span) > firedAt else { return nil }
            return .snooze(preset, until: start.adding(.zero - span))
        }
        if case .calendar = reminder { return [.done] + snoozes }
        guard let target = reminder.item else { return kind == "digest" ? paying : [] }
        var actions: [ReminderAction] = []
        switch target.kind {
        case .todo, .habit: actions = [.done, .skip]
        case .event, .bill: actions = [.skip]
        default: break
        }
        return paying + actions + snoozes
    }
}

extension ReminderMessage {
    /// The command lines that answer this reminder from a terminal, as `program` (the program's
    /// name, with the `--db` and `--config` it runs with) would type them: one per answer its
    /// notification offers, and `dismiss`. None for a summary, a test or a notice.
    public func answerCommands(program: String, snooze: [SnoozePreset], zone: Zone) -> [String] {
        guard case .reminder(let key) = key else { return [] }
        let target = ShellWords.quoted(key.description)
        var verbs: [String] = []
        for action in actions(snooze: snooze) {
            switch action {
            case .done: verbs.append("done")
            case .skip: verbs.append("skip")
            case .paid(let payable) where payable.kind == key.item?.kind && payable.id == key.item?.id: verbs.append("paid")
            case .logPayment(let payable) where payable.kind == key.item?.kind && payable.id == key.item?.id: verbs.append("log")
            case .snooze(.after(let span), _): verbs.append("snooze \(target) --for \(DurationText.format(span))")
            case .snooze(.at(let words), _): verbs.append("snooze \(target) --until \(ShellWords.quoted(words))")
            case .snooze(_, let until?): verbs.append("snooze \(target) --until \(ISO8601.format(until, in: zone).prefix(16))")
            default: break
            }
        }
        verbs.append("dismiss")
        return verbs.map { verb in verb.hasPrefix("snooze ") ? "\(program) reminder \(verb)" : "\(program) reminder \(verb) \(target)" }
    }
}

/// Words for a POSIX shell.
public enum ShellWords {
    /// `text` as one shell word: as it is when it holds nothing a shell reads specially, else in
    /// single quotes (a single quote inside written as `'\''`).
    public static func quoted(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.:/@+=,".unicodeScalars.contains(scalar))
            }
        return plain ? text : "'" + text.replacing("'", with: "'\\''") + "'"
    }
}

/// What a message is about, as the key it carries: a command's `{key}` and DAWNLET_REMINDER_KEY,
/// an email's X-Dawnlet-Key and Message-ID, the log's lines.
public enum MessageKey: Hashable, Sendable, CustomStringConvertible {
    /// One planned reminder.
    case reminder(ReminderKey)
    /// Several late reminders in one: the ones it lists, and how many more it counts.
    case summary([ReminderKey], more: Int)
    /// `notify-test`'s, sent at an instant.
    case test(Instant)
    /// What the runner says about an action it could not record.
    case notice(InvokedAction)

    /// `todo:3:2026-12-01:0m`, `summary:todo:1:…,todo:2:…,+290`, `test:1796112000`, `notice:paid:bill:1:2026-12-01`.
    public var description: String {
        switch self {
        case .reminder(let key): key.description
        case .summary(let keys, let more): "summary:" + (keys.map(\.description) + (more > 0 ? ["+\(more)"] : [])).joined(separator: ",")
        case .test(let at): "test:\(at.secondsSinceEpoch)"
        case .notice(let action): "notice:\(action)"
        }
    }

    /// `description` read back; nil for text that is none of them.
    public init?(_ text: String) {
        if text.hasPrefix("summary:") {
            var keys: [ReminderKey] = []
            var more = 0
            for part in text.dropFirst(8).split(separator: ",") {
                if part.hasPrefix("+"), let count = Int(part.dropFirst()) {
                    more = count
                } else if let key = ReminderKey(String(part)) {
                    keys.append(key)
                } else {
                    return nil
                }
            }
            self = .summary(keys, more: more)
        } else if text.hasPrefix("test:"), let seconds = Int64(text.dropFirst(5)) {
            self = .test(Instant(secondsSinceEpoch: seconds))
        } else if text.hasPrefix("notice:") {
            self = .notice(InvokedAction(key: String(text.dropFirst(7))))
        } else if let key = ReminderKey(text) {
            self = .reminder(key)
        } else {
            return nil
        }
    }

    /// What the message is: its reminder's kind (`todo`, `digest`, `calendar`…), or `summary`,
    /// `test`, `notice`.
    public var kind: String {
        switch self {
        case .reminder(.item(let kind, _, _, _)): kind.rawValue
        case .reminder(.digest): "digest"
        case .reminder(.calendar): ReminderKind.calendar.rawValue
        case .summary: "summary"
        case .test: "test"
        case .notice: "notice"
        }
    }
}

/// An action button on a desktop notification.
public enum ReminderAction: Hashable, Sendable {
    case done, skip
    /// A snooze preset; `until`: the instant it was worked out to when the notification went out
    /// (one before the item's start), else it is worked out at the press.
    case snooze(SnoozePreset, until: Instant?)
    /// Records the payment of a subscription's renewal or a debt's month, as `log` does.
    case logPayment(ReminderMessage.Payable)
    /// Marks a bill's row paid.
    case paid(ReminderMessage.Payable)
    /// One member of a summary answered (`done`, `paid` or `log`), as `reminder VERB KEY` would.
    case member(String, ReminderKey, title: String)

    /// The action key sent to the server and returned in ActionInvoked: `done`, `skip`,
    /// `snooze:10m`, `snooze:tomorrow 09:00`, `snooze-until:1796115600`,
    /// `log:subscription:3:2026-12-02`, `paid:bill:1:2026-12-01`.
    public var key: String {
        switch self {
        case .done: "done"
        case .skip: "skip"
        case .snooze(let preset, let until): until.map { "snooze-until:\($0.secondsSinceEpoch)" } ?? "snooze:\(preset)"
        case .logPayment(let p): "log:\(p.kind.rawValue):\(p.id):\(p.date)"
        case .paid(let p): "paid:\(p.kind.rawValue):\(p.id):\(p.date)"
        case .member(let verb, let key, _): "member:\(verb):\(key)"
        }
    }

    public var label: String {
        switch self {
        case .done: "Done"
        case .skip: "Skip"
        case .snooze(let preset, _): preset.label
        case .logPayment(let p): "Log payment: \(DisplayText.bounded(p.title, to: 40))"
        case .paid(let p): "Paid: \(DisplayText.bounded(p.title, to: 40))"
        case .member(let verb, _, let title): "\(verb == "done" ? "Done" : verb == "paid" ? "Paid" : "Log payment"): \(DisplayText.bounded(title, to: 40))"
        }
    }
}

/// A desktop notification's content for one message, shaped by what the server can do
/// (org.freedesktop.Notifications, Desktop Notifications Specification 1.2).
public struct DesktopNotification: Hashable, Sendable {
    public static let appName = "Dawnlet"
    public static let desktopEntry = "dawnlet-remind"

    public var summary: String
    public var body: String
    /// 0 low, 1 normal, 2 critical.
    public var urgency: UInt8
    /// The `sound-name` hint, sent where the server has the "sound" capability.
    public var sound: String?
    public var persistence: Persistence
    public var category: String
    /// Milliseconds; 0 means until dismissed.
    public var expireMilliseconds: Int32
    public var actions: [ReminderAction]

    /// - Parameter capabilities: the server's GetCapabilities answer: `body-markup` makes the body
    ///   escaped markup; without `actions` no buttons are offered.
    /// - Parameter mostActions: how many buttons the server shows (nil: all, as dunst's menu
    ///   does); the first are kept (answers first, then the snoozes in their order).
    public init(_ message: ReminderMessage, capabilities: Set<String>, expire: Duration, snooze: [SnoozePreset], mostActions: Int? = nil) {
        summary = DisplayText.shown(message.title) + (message.late ? " (late)" : "") + (message.repetition > 0 ? " (again)" : "")
        // Each line's control and bidi characters shown as escapes (a server may pass them on to a
        // terminal or reorder the text by them); the line breaks themselves kept.
        let text = message.body + (message.desktopAnswerHint.map { "\n" + $0 } ?? "")
        let shown = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map { DisplayText.shown(String($0)) }
            .joined(separator: "\n")
        body = capabilities.contains("body-markup") ? DesktopNotification.escapeMarkup(shown) : shown
        urgency = message.urgency.level
        sound = capabilities.contains("sound") ? message.sound : nil
        persistence = message.persistence
        category = "x-dawnlet.\(message.kind)"
        expireMilliseconds = Int32(clamping: expire.wholeSeconds * 1_000)
        // A summary's members answered one by one only where every action is shown.
        let offered = message.actions(snooze: snooze) + (mostActions == nil ? message.memberActions : [])
        actions = capabilities.contains("actions") ? Array(offered.prefix(mostActions ?? .max)) : []
    }

    /// Text made inert for a server that reads the body as markup: `&`, `<` and `>` as entities.
    public static func escapeMarkup(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
