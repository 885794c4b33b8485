import DawnletCore
import DawnletStore
import DawnletSystem

/// What the person does with a desktop notification: Done, Skip and Snooze write
/// back to the store as the CLI would; a closed notification is recorded.
extension Runner {
    /// What the person did with one of our notifications.
    func respond(to id: UInt32, _ response: NotificationResponse) {
        switch response {
        case .invoked(let action): act(on: id, action)
        case .closed(let reason): closed(id, reason: reason)
        }
    }

    /// ActionInvoked: the same store write as the CLI's `done` / `skip` (`money skip` for a bill),
    /// or a snooze recorded on the delivery; then a new plan.
    func act(on id: UInt32, _ action: InvokedAction) {
        do {
            guard let row = try store.log.delivery(notificationID: id, channel: .desktop) else { return }
            switch action {
            case .logPayment(let kind, let source, let date): return pay(paid: false, kind, source, date, from: row, notification: id, action: action)
            case .paid(let kind, let source, let date): return pay(paid: true, kind, source, date, from: row, notification: id, action: action)
            default: break
            }
            if case .calendar(let key) = row.key {
                let answer: CalendarAnswer
                switch action {
                case .done: answer = .acknowledged
                case .snooze: answer = .snoozed
                default: return
                }
                return acknowledgeInCalendar(key, row: row, notification: id, answer: answer)
            }
            guard let target = row.key.item else { return }
            let response: String
            switch (action, target.kind, target.kind.itemKind) {
            case (.done, .todo, let kind?), (.done, .habit, let kind?):
                try store.items.setOccurrence(kind, definitionID: target.id, date: target.date, status: .done)
                response = "done"
            case (.skip, .bill, _):
                try store.money.skipTransaction(definitionID: target.id, date: target.date)
                response = "skipped"
            case (.skip, _, let kind?):
                try store.items.setOccurrence(kind, definitionID: target.id, date: target.date, status: .skipped)
                response = "skipped"
            case (.snooze, _, _):
                let until = scheduler.now.adding(settings.config.desktop.snooze)
                response = "snoozed until \(ISO8601.format(until, in: settings.zone))"
                try store.log.snooze(row.id, until: until, response: response)
            default:
                return
            }
            try store.log.respond(row.id, response: response)
            (channels as? LoopChannels)?.notifications?.close(id)
            log(LogEntry("\(response): \(row.key) (notification \(id))", fields: RunnerCore.fields(row.key, row.kind, .desktop, "\(action)")))
            send(.replan(reason: .notificationAction))
        } catch {
            log(LogEntry("cannot apply \(action) from notification \(id): \(error)", priority: 3))
        }
    }

    /// Log payment (a subscription's renewal, a debt's month) or Paid (a bill), from the reminder
    /// or its digest: recorded as `log` or the bill's row would be. Already logged: said on a
    /// notification of its own, naming the payment.
    private func pay(
        paid: Bool, _ kind: ReminderKind, _ source: Int64, _ date: CivilDate, from row: Delivery, notification id: UInt32, action: InvokedAction
    ) {
        let payment = (kind: kind, id: source, date: date)
        let response: String
        do {
            switch (paid, payment.kind) {
            case (true, .bill):
                try store.money.markTransactionPaid(definitionID: payment.id, date: payment.date)
                response = "paid \(payment.kind.rawValue) \(payment.id) on \(payment.date)"
            case (false, .subscription), (false, .debt):
                let logged = try store.sources.logPayment(for: payment.kind == .debt ? .debt : .subscription, id: payment.id, on: payment.date, amount: nil)
                response = "logged payment #\(logged.payment): \(payment.kind.rawValue) \(payment.id), \(logged.amount) for \(logged.period)"
            default:
                return
            }
        } catch {
            // Already logged (or paused, paid off): the person is told, on the desktop.
            log(LogEntry("cannot record \(action) from notification \(id): \(error)", priority: 4))
            let notice = ReminderMessage(
                title: "Not recorded", body: error.message, key: .notice(action),
                when: ISO8601.format(scheduler.now, in: settings.zone), late: false)
            (channels as? LoopChannels)?.notifications?.close(id)
            channels?.deliver(notice, through: .desktop, replacing: nil) { _ in }
            return
        }
        do { try store.log.respond(row.id, response: response) } catch { log(LogEntry("cannot record the response: \(error)", priority: 3)) }
        (channels as? LoopChannels)?.notifications?.close(id)
        log(LogEntry("\(response) (notification \(id))", fields: RunnerCore.fields(row.key, row.kind, .desktop, "\(action)")))
        send(.replan(reason: .notificationAction))
    }

    /// Done, Skip, Snooze or a dismissal on a calendar item's notification: written into its
    /// calendar when that is writable (`readOnly: false`), so every other device sees it —
    /// ACKNOWLEDGED and X-MOZ-LASTACK; a snooze as an RFC 9074 snooze alarm, which the next plan
    /// reads back and fires. A read-only calendar's item is snoozed here only.
    private func acknowledgeInCalendar(_ key: String, row: Delivery, notification id: UInt32, answer: CalendarAnswer) {
        let now = scheduler.now
        let calendars = settings.config.calendars
        let until = now.adding(settings.config.desktop.snooze)
        var response: String?
        if let target = CalendarWriteBack.target(ofKey: key, calendars: calendars.map(\.name)),
            let calendar = calendars.first(where: { $0.name == target.calendar }), !calendar.readOnly
        {
            let start = target.instance.flatMap { name -> Instant? in
                if case .utc(let at)? = RecurrenceRule.until(name) { return at } else { return nil }
            }
            switch CalendarWriter.update(
                path: ConfigPath.expand(calendar.path), uid: target.uid,
                { text in
                    answer == .snoozed
                        ? CalendarWriteBack.snooze(text, uid: target.uid, instanceStart: start, until: until, at: now)
                        : CalendarWriteBack.acknowledge(text, uid: target.uid, at: now)
                })
            {
            case .success(let file):
                response =
                    answer == .snoozed
                    ? "snoozed until \(ISO8601.format(until, in: settings.zone)) in \(file)"
                    : "\(answer.rawValue) in \(file)"
            case .failure(let problem):
                log(LogEntry("cannot write \(answer.action) back to calendar \(calendar.name): \(problem)", priority: 4))
            }
        }
        do {
            // Not written back (a read-only calendar, or the write failed): done here only.
            if response == nil && answer == .snoozed {
                response = "snoozed until \(ISO8601.format(until, in: settings.zone))"
                try store.log.snooze(row.id, until: until, response: response!)
            }
            let response = response ?? answer.action
            try store.log.respond(row.id, response: response)
            if answer != .dismissed { (channels as? LoopChannels)?.notifications?.close(id) }
            log(LogEntry("\(response): \(row.key) (notification \(id))", fields: RunnerCore.fields(row.key, row.kind, .desktop, answer.action)))
            send(.replan(reason: .notificationAction))
        } catch {
            log(LogEntry("cannot apply \(answer.action) from notification \(id): \(error)", priority: 3))
        }
    }

    /// NotificationClosed: how it ended, unless an action already said. A calendar item's
    /// dismissal is written back to a writable calendar.
    func closed(_ id: UInt32, reason: CloseReason) {
        guard let row = try? store.log.delivery(notificationID: id, channel: .desktop), row.response == nil else { return }
        if reason == .dismissed, case .calendar(let key) = row.key {
            return acknowledgeInCalendar(key, row: row, notification: id, answer: .dismissed)
        }
        let words = reason.description
        do {
            try store.log.respond(row.id, response: words)
        } catch {
            log(LogEntry("cannot record that notification \(id) was \(words): \(error)", priority: 3))
        }
        log(LogEntry("\(words): \(row.key) (notification \(id))", fields: RunnerCore.fields(row.key, row.kind, .desktop, words)))
    }
}

/// What a calendar item's notification came back with, as written back to its calendar.
enum CalendarAnswer: String {
    case acknowledged, snoozed, dismissed

    /// The action's word in the log and the journal (`done` for an acknowledgement).
    var action: String {
        switch self {
        case .acknowledged: "done"
        case .snoozed: "snooze"
        case .dismissed: "dismissed"
        }
    }
}
