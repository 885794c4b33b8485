import DawnletCore
import DawnletStore
import DawnletSystem

extension ReminderAnswers {
    /// A calendar item answered by its own key, as `find`, `todo list` and the completions show it
    /// (`ics:NAME:UID:INSTANCE`, or `ics:NAME:UID` for its first occurrence from today on), whether
    /// or not a reminder of it went out here: the reminders of that occurrence waiting or snoozed
    /// here are answered as their own keys would be (written back once, recorded on each); with
    /// none, the answer is written into its writable calendar all the same. Nil when no calendar
    /// item has that key.
    public func apply(
        _ answer: ReminderAnswer, toCalendarItem text: String, from origin: AnswerOrigin, now: Instant
    ) throws(StoreError) -> Applied? {
        guard text.hasPrefix("ics:"), let occurrence = calendarItem(text, now: now) else { return nil }
        let mine = { (key: ReminderKey) -> Bool in
            guard case .calendar(let reference) = key else { return false }
            return reference.calendar == occurrence.calendar && reference.uid == occurrence.uid && reference.instance == occurrence.instance
        }
        var keys: [ReminderKey] = []
        for entry in try waiting(now: now) + snoozed() where mine(entry.key) && !keys.contains(entry.key) { keys.append(entry.key) }
        guard let first = keys.first else {
            let reference = CalendarReference(calendar: occurrence.calendar, uid: occurrence.uid, instance: occurrence.instance, trigger: .offset(.minutes(0)))
            return try answerUnsent(answer, reference, named: "of \(text)", now: now)
        }
        // The first reminder carries the answer to the file; the others are recorded as answered with it.
        let applied = try apply(answer, to: first, from: origin, now: now)
        var deliveries = applied.deliveries
        for key in keys.dropFirst() {
            let rows = try store.log.deliveries(of: key).filter { $0.state == .delivered && !$0.life.isAnswered }
            for row in rows {
                if let code = applied.answer {
                    try store.log.respond(row.id, code, from: origin, words: applied.response)
                }
            }
            deliveries += rows
        }
        return Applied(answer: applied.answer, response: applied.response, deliveries: deliveries)
    }

    /// The occurrence a calendar item's key names: that instance, or the item's first from the
    /// start of today.
    func calendarItem(_ text: String, now: Instant) -> CalendarOccurrence? {
        let today = ISO8601.localDate(of: now, in: zone).date
        let reader = PlanReader(store: store, config: config, zone: zone)
        // An instance named: the last month too (an overdue todo's); none: from today on.
        let named = reader.calendarItems(now.adding(seconds: -31 * 86_400)...now.adding(config.horizon), now: now).items.compactMap(\.calendar)
        if let exact = named.first(where: { $0.key == text }) { return exact }
        return named.filter { "ics:\($0.calendar):\($0.uid)" == text && $0.date >= today }
            .min { ($0.date, $0.time?.secondsOfDay ?? -1) < ($1.date, $1.time?.secondsOfDay ?? -1) }
    }

    /// The calendar reminders waiting here whose files now say they were answered on another
    /// device (their occurrence completed or cancelled, their alarms acknowledged since they went
    /// out), recorded so: they wait no more, nag no more, and a notification still on screen is
    /// taken down. Read when a calendar's files change; what was recorded, in words.
    public func answeredInCalendars(now: Instant) throws(StoreError) -> [String] {
        var recorded: [String] = []
        for entry in try waiting(now: now) where entry.snoozedUntil == nil {
            guard case .calendar(let reference) = entry.key, let calendar = config.calendars.first(where: { $0.name == reference.calendar }) else { continue }
            let uid = "UID:" + reference.uid
            guard
                let text = CalendarWriter.text(
                    path: ConfigPath.expand(calendar.path), uid: reference.uid, holds: { $0.contains(uid + "\r\n") || $0.contains(uid + "\n") }),
                let words = CalendarWriteBack.answeredElsewhere(text, uid: reference.uid, instance: reference.instance, firedAt: entry.fireAt)
            else { continue }
            for channel in entry.channels {
                try store.log.answeredElsewhere(
                    DeliveryID(entry.key, channel), title: entry.title, fireAt: entry.fireAt, answer: .answeredElsewhere(.device), words: words, now: now)
            }
            recorded.append("\(entry.key): \(words)")
        }
        return recorded
    }
}
