import DawnletCore
import DawnletStore
import DawnletSystem

/// What a person says to a reminder that went out, wherever they say it: a notification's button
/// (the runner) or `reminder done|skip|…` (the command line). One path, so each records the same.
public enum ReminderAnswer: Hashable, Sendable, CustomStringConvertible {
    /// A todo's or habit's occurrence done; a calendar item's alarm acknowledged.
    case done
    /// The occurrence skipped (a bill's month too).
    case skip
    /// Seen, nothing more to record: the reminder stops waiting.
    case dismiss
    /// Comes back on each channel it went by at `until`; the series does not move.
    case snooze(until: Instant)
    /// A snooze called off: the reminder waits again, and does not come back by itself.
    case unsnooze
    /// A bill paid.
    case paid(ReminderKind, id: Int64, date: CivilDate)
    /// A subscription's renewal or a debt's month logged as paid.
    case logPayment(ReminderKind, id: Int64, date: CivilDate)

    /// What it makes of a reminder, as the log keeps it (nil for a snooze called off).
    public var code: Answer? {
        switch self {
        case .done: .done
        case .skip: .skipped
        case .dismiss: .dismissed
        case .snooze(let until): .snoozed(until: until)
        case .unsnooze: nil
        case .paid: .paid
        case .logPayment: .logged
        }
    }

    /// The word of the command that says it (`reminder done`, …).
    public var description: String {
        switch self {
        case .done: "done"
        case .skip: "skip"
        case .dismiss: "dismiss"
        case .snooze: "snooze"
        case .unsnooze: "unsnooze"
        case .paid: "paid"
        case .logPayment: "log"
        }
    }
}

/// Applies answers to reminders: the store's write the item's own command would make (`todo
/// done`, `bill` paid, `subscription log`), a calendar item's answer written back to its calendar
/// when it is writable, and the answer recorded on every delivery of the reminder, so it stops
/// waiting on every channel at once.
public struct ReminderAnswers {
    let store: Store
    let config: Config
    let zone: Zone

    public init(store: Store, config: Config, zone: Zone) {
        self.store = store
        self.config = config
        self.zone = zone
    }

    /// What an answer came to: as a code, in words, and the deliveries it answered (a desktop one
    /// still on screen is closed by the runner).
    public struct Applied: Sendable {
        public let answer: Answer?
        public let response: String
        public let deliveries: [Delivery]
    }

    /// Applies `answer`, given at `origin`, to the reminder `key` at `now`. `.notFound` when the
    /// reminder never went out; `.conflict` when the answer does not fit it (a bill is paid, not
    /// done: `verbs(for:)`), saying what it is and which answers it takes.
    public func apply(_ answer: ReminderAnswer, to key: ReminderKey, from origin: AnswerOrigin, now: Instant) throws(StoreError) -> Applied {
        let rows = try store.log.deliveries(of: key).filter { $0.state == .delivered }
        if rows.isEmpty, case .calendar(let reference) = key { return try answerUnsent(answer, reference, named: key.description, now: now) }
        guard !rows.isEmpty else { throw StoreError(.notFound, "no reminder \(key) went out (see reminder list)") }
        // Answered once, wherever: a second answer is refused, not recorded over the first.
        if answer != .unsnooze, let answered = rows.first(where: { $0.life.isAnswered }) {
            throw StoreError(.conflict, "\(key) was answered already (\(DisplayText.escaped(answered.response ?? "")))")
        }
        switch answer {
        // A payment names its own target: a digest's notification pays the items it lists.
        case .paid, .logPayment, .unsnooze: break
        default: guard Self.verbs(for: key).contains(answer.description) else { throw Self.refusal(answer.description, key) }
        }
        let response: String
        let code: Answer
        switch answer {
        case .snooze(let until):
            try laterThanNow(until, now)
            // Written into a writable calendar: its snooze alarm is what comes back (on every
            // device); kept here too, it would come back twice.
            if let written = snoozeCalendarItem(key, until: until, now: now) {
                for row in rows { try store.log.respond(row.id, .snoozed(until: until), from: origin, words: written) }
                return Applied(answer: .snoozed(until: until), response: written, deliveries: rows)
            }
            response = "snoozed until \(ISO8601.format(until, in: zone))"
            for row in rows { try store.log.snooze(row.id, until: until, from: origin, words: response) }
            return Applied(answer: .snoozed(until: until), response: response, deliveries: rows)
        case .unsnooze:
            let snoozed = rows.filter { $0.snoozedUntil != nil }
            guard !snoozed.isEmpty else { throw StoreError(.conflict, "\(key) is not snoozed") }
            for row in snoozed { try store.log.unsnooze(row.id) }
            return Applied(answer: nil, response: "snooze called off", deliveries: snoozed)
        case .paid(let kind, let id, let date):
            guard kind == .bill else { throw Self.refusal(answer.description, key) }
            try store.money.markTransactionPaid(definitionID: id, date: date)
            (code, response) = (.paid, "paid \(kind) \(id) on \(date)")
        case .logPayment(let kind, let id, let date):
            guard kind == .subscription || kind == .debt else { throw Self.refusal(answer.description, key) }
            let logged = try store.sources.logPayment(for: kind == .debt ? .debt : .subscription, id: id, on: date, amount: nil)
            (code, response) = (.logged, "logged payment #\(logged.payment): \(kind) \(id), \(logged.amount.paidOut) for \(logged.period)")
        case .done: (code, response) = (.done, try answerItem(answer, key, now: now))
        case .skip: (code, response) = (.skipped, try answerItem(answer, key, now: now))
        case .dismiss: (code, response) = (.dismissed, try answerItem(answer, key, now: now))
        }
        // A digest's line paid answers that line, not the digest while other lines still wait.
        if key.isDigest, code == .paid || code == .logged, try hasLinesLeft(rows[0], now: now) {
            return Applied(answer: code, response: response, deliveries: [])
        }
        for row in rows { try store.log.respond(row.id, code, from: origin, words: response) }
        return Applied(answer: code, response: response, deliveries: rows)
    }

    /// A snooze's end: refused unless later than now.
    private func laterThanNow(_ until: Instant, _ now: Instant) throws(StoreError) {
        guard until > now else { throw StoreError(.conflict, "a snooze ends later than now, not at \(ISO8601.format(until, in: zone))") }
    }

    /// A calendar item's reminder that has not gone out here (another machine's todo, due later):
    /// Done, a dismissal or a snooze is written into its writable calendar all the same, so every
    /// device, this one too, takes it from there; nothing is recorded here.
    func answerUnsent(_ answer: ReminderAnswer, _ reference: CalendarReference, named name: String, now: Instant) throws(StoreError) -> Applied {
        let key = ReminderKey.calendar(reference)
        guard Self.verbs(for: key).contains(answer.description) else { throw Self.refusal(answer.description, key) }
        let written: String?
        let code: Answer
        switch answer {
        case .done: (written, code) = (writeBack(reference, .acknowledged, until: nil, now: now), .done)
        case .skip: (written, code) = (writeBack(reference, .skipped, until: nil, now: now), .skipped)
        case .dismiss: (written, code) = (writeBack(reference, .dismissed, until: nil, now: now), .dismissed)
        case .snooze(let until):
            try laterThanNow(until, now)
            (written, code) = (writeBack(reference, .snoozed, until: until, now: now), .snoozed(until: until))
        default: throw Self.refusal(answer.description, key)
        }
        guard let written else {
            let calendar = config.calendars.first { $0.name == reference.calendar }
            let why =
                calendar.map { $0.readOnly ? "calendar \(DisplayText.escaped($0.name)) is read-only" : "its calendar could not be written" }
                ?? "no calendar of that name"
            throw StoreError(.notFound, "no reminder \(name) went out here, and \(why): nothing to answer it in")
        }
        return Applied(answer: code, response: written, deliveries: [])
    }

    /// The payment a reminder's own key names, for `reminder paid|log KEY`.
    public static func payment(_ answer: String, of key: ReminderKey) throws(StoreError) -> ReminderAnswer {
        guard let target = key.item else { throw refusal(answer, key) }
        return answer == "paid" ? .paid(target.kind, id: target.id, date: target.date) : .logPayment(target.kind, id: target.id, date: target.date)
    }

    /// Done, Skip or a dismissal on one of our items, a digest, or a calendar item's alarm.
    private func answerItem(_ answer: ReminderAnswer, _ key: ReminderKey, now: Instant) throws(StoreError) -> String {
        if case .calendar(let reference) = key {
            let calendarAnswer: CalendarAnswer = answer == .done ? .acknowledged : answer == .skip ? .skipped : .dismissed
            return writeBack(reference, calendarAnswer, until: nil, now: now) ?? calendarAnswer.action
        }
        guard answer != .dismiss else { return "dismissed" }
        guard let target = key.item else { throw Self.refusal(answer.description, key) }
        switch (answer, target.kind, target.kind.itemKind) {
        case (.done, .todo, let kind?), (.done, .habit, let kind?):
            try store.items.setOccurrence(kind, definitionID: target.id, date: target.date, status: .done)
            return "done"
        case (.skip, .bill, _):
            try store.money.skipTransaction(definitionID: target.id, date: target.date)
            return "skipped"
        case (.skip, _, let kind?):
            try store.items.setOccurrence(kind, definitionID: target.id, date: target.date, status: .skipped)
            return "skipped"
        default:
            throw Self.refusal(answer.description, key)
        }
    }

    /// A calendar item's snooze, written back as an RFC 9074 snooze alarm where its calendar is
    /// writable; nil when it is not (the snooze is kept here only).
    private func snoozeCalendarItem(_ key: ReminderKey, until: Instant, now: Instant) -> String? {
        guard case .calendar(let reference) = key else { return nil }
        return writeBack(reference, .snoozed, until: until, now: now)
    }

    /// An answer written into a writable calendar's file, so every other device sees it —
    /// ACKNOWLEDGED and X-MOZ-LASTACK, or a snooze alarm the next plan reads back. The words
    /// recorded, or nil when the calendar is read-only or the write failed (logged by the caller
    /// through `writeProblem`).
    private func writeBack(_ target: CalendarReference, _ answer: CalendarAnswer, until: Instant?, now: Instant) -> String? {
        guard let calendar = config.calendars.first(where: { $0.name == target.calendar }), !calendar.readOnly else { return nil }
        let start = target.instanceStart
        // Done on a todo completes it there, Skip cancels the occurrence (a repeating item's
        // instance), as well as acknowledging it.
        var closed = false
        let result = CalendarWriter.update(path: ConfigPath.expand(calendar.path), uid: target.uid) { text in
            if let until { return CalendarWriteBack.snooze(text, uid: target.uid, instanceStart: start, until: until, at: now) }
            switch answer {
            case .acknowledged:
                let done = CalendarWriteBack.complete(text, uid: target.uid, instance: target.instance, at: now)
                closed = done?.completed ?? false
                return done?.text
            case .skipped:
                let skipped = CalendarWriteBack.cancel(text, uid: target.uid, instance: target.instance, at: now)
                closed = skipped?.cancelled ?? false
                return skipped?.text
            case .snoozed, .dismissed:
                return CalendarWriteBack.acknowledge(text, uid: target.uid, at: now)
            }
        }
        switch result {
        case .success(let file):
            let words = closed ? (answer == .skipped ? "skipped (cancelled there)" : "completed") : answer == .skipped ? "acknowledged" : answer.rawValue
            return until.map { "snoozed until \(ISO8601.format($0, in: zone)) in \(file)" } ?? "\(words) in \(file)"
        case .failure(let problem):
            writeProblem?("cannot write \(answer.action) back to calendar \(calendar.name): \(problem)")
            return nil
        }
    }

    /// Told when an answer could not be written back to a calendar (it is kept here).
    public var writeProblem: ((String) -> Void)?
}

/// What a calendar item's reminder came back with, as written back to its calendar.
enum CalendarAnswer: String {
    case acknowledged, skipped, snoozed, dismissed

    /// The action's word in the log and the journal (`done` for an acknowledgement).
    var action: String {
        switch self {
        case .acknowledged: "done"
        case .skipped: "skipped"
        case .snoozed: "snooze"
        case .dismissed: "dismissed"
        }
    }
}
