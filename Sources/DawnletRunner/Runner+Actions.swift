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
        case .unknown: return
        }
        self.answer(notification: id, answer, button: action)
    }

    /// Applies an answer to the reminder a notification showed, as its life says
    /// (`ReminderLife`): once, closing what is on screen, then a new plan. One answered already
    /// (elsewhere, a moment before) is not answered again; its notification is closed. A payment
    /// that cannot be recorded (already logged, paid off) is said on a notification of its own.
    private func answer(notification id: UInt32, _ answer: ReminderAnswer, button: InvokedAction?) {
        let action = button?.description ?? "dismissed"
        let row: Delivery
        do {
            guard let found = try store.log.delivery(notificationID: id, channel: .desktop) else { return }
            row = found
        } catch {
            return log(LogEntry("cannot read the reminder of notification \(id): \(error)", priority: 3))
        }
        let notifications = (channels as? LoopChannels)?.notifications
        var life = row.life
        let effects = answer.code.map { life.handle(.answer($0, .button)) } ?? []
        guard effects.contains(where: { if case .record = $0 { true } else { false } }) else {
            notifications?.close(id)
            return log(LogEntry("\(action) from notification \(id) not applied: \(row.key) was answered already (\(row.response ?? ""))"))
        }
        do {
            let applied = try answers.apply(answer, to: row.key, from: .button, now: scheduler.now)
            // The person's dismissal closed it already.
            if button != nil { for case .close(let shown) in effects { notifications?.close(shown) } }
            log(LogEntry("\(applied.response): \(row.key) (notification \(id))", fields: RunnerCore.fields(row.key, row.kind, .desktop, action)))
            send(.replan(reason: .notificationAction))
        } catch {
            let payment: Bool
            switch answer {
            case .paid, .logPayment: payment = true
            default: payment = false
            }
            log(LogEntry("cannot apply \(action) from notification \(id): \(error)", priority: payment ? 4 : 3))
            // Already logged (or paused, paid off): the person is told, on the desktop.
            guard payment, let button else { return }
            let notice = ReminderMessage(
                title: "Not recorded", body: error.message, key: .notice(button), when: ISO8601.format(scheduler.now, in: settings.zone), late: false)
            notifications?.close(id)
            channels?.deliver(notice, through: .desktop, replacing: nil) { _ in }
        }
    }

    /// NotificationClosed: how it ended, as its life says. The person's dismissal is an answer
    /// (on every channel; a calendar item's written back to a writable calendar); the server's
    /// expiry or close is recorded, and the reminder still waits.
    func closed(_ id: UInt32, reason: CloseReason) {
        guard let row = try? store.log.delivery(notificationID: id, channel: .desktop) else { return }
        var life = row.life
        for effect in life.handle(.serverClosed(id: id, reason)) {
            switch effect {
            case .writeItem(.dismissed):
                return answer(notification: id, .dismiss, button: nil)
            case .record(let answer, let origin):
                do {
                    try store.log.respond(row.id, answer, from: origin, words: reason.description)
                } catch {
                    log(LogEntry("cannot record that notification \(id) was \(reason): \(error)", priority: 3))
                }
                log(LogEntry("\(reason): \(row.key) (notification \(id))", fields: RunnerCore.fields(row.key, row.kind, .desktop, reason.description)))
            default:
                break
            }
        }
    }

    /// Another process wrote: a reminder answered there (`reminder done`, the item's own
    /// command, another device) has its notification, if still on screen, closed here.
    func closeAnsweredElsewhere() {
        guard !onScreen.isEmpty, let notifications = (channels as? LoopChannels)?.notifications else { return }
        for id in onScreen.sorted() {
            guard let row = try? store.log.delivery(notificationID: id, channel: .desktop) else { continue }
            var life = row.life
            for case .close(let shown) in life.handle(.stillShowing(id)) {
                onScreen.remove(shown)
                notifications.close(shown)
                log(LogEntry("closed notification \(shown): \(row.key) was answered elsewhere (\(row.response ?? ""))"))
            }
        }
    }

    /// At start: the notifications a serve before this one left on screen, still waiting for an
    /// answer, are posted again replacing themselves, so that the server sends what is pressed on
    /// them to this process (it answers only the connection that posted). One whose reminder is no
    /// longer planned (its item deleted) is closed instead.
    func takeOverNotifications() {
        guard let channels else { return }
        let now = scheduler.now
        let rows: [Delivery]
        do {
            rows = try store.log.postedElsewhere(than: process, since: now.adding(seconds: -Self.takeOverSince))
        } catch {
            return log(LogEntry("cannot read the notifications a serve before this one left: \(error)", priority: 4))
        }
        guard let first = rows.first?.fireAt, let last = rows.last?.fireAt else { return }
        let reader = PlanReader(store: store, config: settings.config, zone: settings.zone, zones: settings.zones)
        let planned = (try? reader.plan(now: now, window: first...last, includeSuppressed: true).reminders) ?? []
        for row in rows {
            var life = row.life
            guard let reminder = planned.first(where: { $0.key == row.key }) else {
                for effect in life.handle(.itemDeleted) {
                    switch effect {
                    case .close(let old):
                        (channels as? LoopChannels)?.notifications?.close(old)
                        log(LogEntry("closed notification \(old) of the serve before this one: \(row.key) is no longer planned"))
                    case .record(let answer, let origin):
                        do {
                            try store.log.respond(row.id, answer, from: origin, words: "its item was deleted")
                        } catch {
                            log(LogEntry("cannot record that \(row.key)'s item was deleted: \(error)", priority: 4))
                        }
                    default: break
                    }
                }
                continue
            }
            guard case .replace(let old)? = life.handle(.restart(process: process)).first else { continue }
            let message = ReminderMessage(reminder, late: row.late, at: now, zone: settings.zone, style: settings.config.style(of: reminder.item))
            channels.deliver(message, through: .desktop, replacing: old) { [unowned self] outcome in
                guard outcome.state == .delivered, let id = outcome.notificationID else {
                    return self.log(LogEntry("cannot take over notification \(old) (\(row.key)): \(outcome.detail ?? "not shown")", priority: 4))
                }
                do {
                    try self.store.log.notePosted(row.id, notificationID: id, by: self.process)
                } catch {
                    self.log(LogEntry("cannot note notification \(id) of \(row.key): \(error)", priority: 4))
                }
                self.onScreen.insert(id)
                self.log(LogEntry("notification \(old) taken over from the serve before this one: \(row.key)\(id == old ? "" : " (shown again as \(id))")"))
            }
        }
    }

    /// How far back a notification left on screen is taken over: a week of waiting reminders.
    static let takeOverSince: Int64 = 7 * 86_400
}
