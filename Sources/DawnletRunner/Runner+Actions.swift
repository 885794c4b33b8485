import DawnletApp
import DawnletCore
import DawnletStore
import DawnletSystem

/// What the person does with a desktop notification: its buttons are answers (`ReminderAnswers`,
/// the same path as `reminder done|skip|…`); a closed notification is recorded. A reminder
/// answered elsewhere has its notification closed.
extension Runner {
    /// What the person did with one of our notifications.
    func respond(to id: UInt32, _ response: NotificationResponse) {
        onScreen.remove(id)
        digestsShown[id] = nil
        switch response {
        case .invoked(let action): act(on: id, action)
        case .closed(let reason): closed(id, reason: reason)
        }
    }

    /// The answers, as the settings now stand; what cannot be written back to a calendar is logged.
    var answers: ReminderAnswers {
        var answers = ReminderAnswers(store: store, config: settings.config, zone: settings.zone)
        answers.writeProblem = { [unowned self] problem in self.log(LogEntry(problem, priority: 4)) }
        return answers
    }

    /// ActionInvoked: the answer the button stands for, applied to the reminder it showed; then a
    /// new plan.
    func act(on id: UInt32, _ action: InvokedAction) {
        let answer: ReminderAnswer
        switch action {
        case .done: answer = .done
        case .skip: answer = .skip
        case .snooze(let preset):
            let now = scheduler.now
            guard let until = (preset ?? settings.config.desktop.snooze[0]).until(now: now, zone: settings.zone, start: nil) else {
                return log(LogEntry("cannot snooze notification \(id) \(preset.map { "until \($0)" } ?? ""): that is not later than now", priority: 4))
            }
            answer = .snooze(until: until)
        case .snoozeUntil(let until):
            guard until > scheduler.now else { return log(LogEntry("cannot snooze notification \(id): its start has come", priority: 4)) }
            answer = .snooze(until: until)
        case .paid(let kind, let source, let date): answer = .paid(kind, id: source, date: date)
        case .logPayment(let kind, let source, let date): answer = .logPayment(kind, id: source, date: date)
        case .member(let verb, let key):
            do {
                answer = verb == "done" ? .done : try ReminderAnswers.payment(verb, of: key)
            } catch {
                return log(LogEntry("cannot apply \(action) from notification \(id): \(error)", priority: 3))
            }
            return self.answer(notification: id, answer, button: action, member: key)
        case .unknown: return
        }
        self.answer(notification: id, answer, button: action)
    }

    /// Applies an answer to the reminder a notification showed, as its life says
    /// (`ReminderLife`): once, closing what is on screen, then a new plan. One answered already
    /// (elsewhere, a moment before) is not answered again; its notification is closed. A payment
    /// from one line of a digest answers that line only: the digest is shown again without it
    /// (its last line answers it whole); so does a summary's `member` answered from its menu. A payment that cannot be recorded
    /// (already logged, paid off) is said on a notification of its own.
    private func answer(notification id: UInt32, _ answer: ReminderAnswer, button: InvokedAction?, member: ReminderKey? = nil) {
        let action = button?.description ?? "dismissed"
        let rows: [Delivery]
        do {
            rows = try store.log.deliveries(notificationID: id, channel: .desktop)
        } catch {
            return log(LogEntry("cannot read the reminder of notification \(id): \(error)", priority: 3))
        }
        guard let row = member.map({ key in rows.first { $0.key == key } }) ?? rows.first else { return }
        let notifications = (channels as? LoopChannels)?.notifications
        let payment: Bool
        switch answer {
        case .paid, .logPayment: payment = true
        default: payment = false
        }
        let line = (payment && row.key.isDigest) || member != nil
        var life = row.life
        let effects = answer.code.map { life.handle(.answer($0, .button)) } ?? []
        guard line || effects.contains(where: { if case .record = $0 { true } else { false } }) else {
            notifications?.close(id)
            return log(LogEntry("\(action) from notification \(id) not applied: \(row.key) was answered already (\(row.response ?? ""))"))
        }
        do {
            let applied = try answers.apply(answer, to: row.key, from: .button, now: scheduler.now)
            // A digest's last line answers the digest too: closed, not shown again.
            if line, member != nil || applied.deliveries.isEmpty {
                // A member's answer is on its rows now: read again, it is left out.
                let shown = member == nil ? rows : (try? store.log.deliveries(notificationID: id, channel: .desktop)) ?? rows
                showAgain(shown, replacing: id, .lineAnswered)
            } else if button != nil {
                // The person's dismissal closed it already.
                for case .close(let shown) in effects { notifications?.close(shown) }
            }
            log(LogEntry("\(applied.response): \(row.key) (notification \(id))", fields: RunnerCore.fields(row.key, .desktop, action)))
            send(.replan(reason: .notificationAction))
        } catch {
            log(LogEntry("cannot apply \(action) from notification \(id): \(error)", priority: payment ? 4 : 3))
            // Already logged (or paused, paid off): the person is told, on the desktop.
            guard payment, let button else { return }
            let notice = ReminderMessage(
                title: "Not recorded", body: error.message, key: .notice(button), when: ISO8601.format(scheduler.now, in: settings.zone), late: false)
            notifications?.close(id)
            channels?.deliver(notice, through: .desktop, replacing: nil) { _ in }
        }
    }

    /// NotificationClosed: how it ended, as the life of each reminder it showed says (a summary
    /// shows several). The person's dismissal is an answer to each (on every channel; a calendar
    /// item's written back to a writable calendar); the server's expiry or close is recorded, and
    /// they still wait.
    func closed(_ id: UInt32, reason: CloseReason) {
        guard let rows = try? store.log.deliveries(notificationID: id, channel: .desktop) else { return }
        var dismissed = false
        for row in rows {
            var life = row.life
            for effect in life.handle(.serverClosed(id: id, reason)) {
                switch effect {
                case .writeItem(.dismissed):
                    do {
                        let applied = try answers.apply(.dismiss, to: row.key, from: .button, now: scheduler.now)
                        dismissed = true
                        let fields = RunnerCore.fields(row.key, .desktop, "dismissed")
                        log(LogEntry("\(applied.response): \(row.key) (notification \(id))", fields: fields))
                    } catch {
                        log(LogEntry("cannot apply dismissed from notification \(id): \(error)", priority: 3))
                    }
                case .record(let answer, let origin) where !answer.byPerson:
                    do {
                        try store.log.respond(row.id, answer, from: origin, words: reason.description)
                    } catch {
                        log(LogEntry("cannot record that notification \(id) was \(reason): \(error)", priority: 3))
                    }
                    log(LogEntry("\(reason): \(row.key) (notification \(id))", fields: RunnerCore.fields(row.key, .desktop, reason.description)))
                default:
                    break
                }
            }
        }
        if dismissed { send(.replan(reason: .notificationAction)) }
    }

    /// A calendar's files changed: its reminders waiting here that another device answered
    /// (the file says completed, cancelled or acknowledged since) are recorded answered there.
    func readCalendarAnswers() {
        guard !settings.config.calendars.isEmpty else { return }
        do {
            let answers = ReminderAnswers(store: store, config: settings.config, zone: settings.zone)
            for line in try answers.answeredInCalendars(now: scheduler.now) { log(LogEntry("answered elsewhere: \(line)")) }
        } catch {
            log(LogEntry("cannot read what the calendars answered: \(error)", priority: 4))
        }
    }

    /// Another process wrote: a reminder answered there (`reminder done`, the item's own
    /// command, another device) has its notification, if still on screen, closed here; a summary
    /// some of whose reminders still wait is shown again with those only.
    func closeAnsweredElsewhere() {
        guard !onScreen.isEmpty, let notifications = (channels as? LoopChannels)?.notifications else { return }
        for id in onScreen.sorted() {
            guard let rows = try? store.log.deliveries(notificationID: id, channel: .desktop), let row = rows.first else { continue }
            let waiting = rows.filter { !$0.life.isAnswered }
            guard waiting.isEmpty else {
                if waiting.count < rows.count {
                    showAgain(rows, replacing: id, .lineAnswered)
                } else if let shown = digestsShown[id] {
                    // A digest whose line was answered elsewhere (`todo done` in a terminal).
                    showAgain(rows, replacing: id, .lineAnswered, unlessShowing: shown)
                }
                continue
            }
            var life = row.life
            for case .close(let shown) in life.handle(.stillShowing(id)) {
                onScreen.remove(shown)
                digestsShown[shown] = nil
                notifications.close(shown)
                let keys = rows.map(\.key.description).joined(separator: ", ")
                log(LogEntry("closed notification \(shown): \(keys) \(rows.count == 1 ? "was" : "were") answered elsewhere (\(row.response ?? ""))"))
            }
        }
    }
}
