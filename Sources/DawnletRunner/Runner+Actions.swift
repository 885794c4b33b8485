import DawnletCore
import DawnletStore
import DawnletSystem

/// What the person does with a desktop notification: Done, Skip and Snooze write
/// back to the store as the CLI would; a closed notification is recorded.
extension Runner {
    /// ActionInvoked: the same store write as the CLI's `done` / `skip` (`money skip` for a bill),
    /// or a snooze recorded on the delivery; then a new plan.
    func act(on id: UInt32, _ action: String) {
        do {
            guard let row = try store.log.delivery(notificationID: id, channel: .desktop) else { return }
            if let payment = ReminderAction.payment(action) {
                return pay(payment, from: row, notification: id, action: action)
            }
            if case .calendar(let key) = row.key {
                return acknowledgeInCalendar(key, row: row, notification: id, action: action)
            }
            guard let target = row.key.item else { return }
            let response: String
            switch (action, target.kind, target.kind.itemKind) {
            case ("done", .todo, let kind?), ("done", .habit, let kind?):
                try store.items.setOccurrence(kind, definitionID: target.id, date: target.date, status: .done)
                response = "done"
            case ("skip", .bill, _):
                try store.money.skipTransaction(definitionID: target.id, date: target.date)
                response = "skipped"
            case ("skip", _, let kind?):
                try store.items.setOccurrence(kind, definitionID: target.id, date: target.date, status: .skipped)
                response = "skipped"
            case ("snooze", _, _):
                let until = scheduler.now.adding(seconds: Int64(settings.config.desktop.snooze))
                response = "snoozed until \(ISO8601.format(until, in: settings.zone))"
                try store.log.snooze(row.id, until: until, response: response)
            default:
                return
            }
            try store.log.respond(row.id, response: response)
            (channels as? LoopChannels)?.notifications?.close(id)
            log(LogEntry("\(response): \(row.key) (notification \(id))", fields: RunnerCore.fields(row.key, row.kind, .desktop, action)))
            send(.replan(reason: "notification action"))
        } catch {
            log(LogEntry("cannot apply \(action) from notification \(id): \(error)", priority: 3))
        }
    }

    /// Log payment (a subscription's renewal, a debt's month) or Paid (a bill), from the reminder
    /// or its digest: recorded as `log` or the bill's row would be. Already logged: said on a
    /// notification of its own, naming the payment.
    private func pay(
        _ payment: (paid: Bool, kind: ReminderKind, id: Int64, date: CivilDate), from row: Delivery, notification id: UInt32,
        action: String
    ) {
        let response: String
        do {
            switch (payment.paid, payment.kind) {
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
                title: "Not recorded", body: error.message, kind: "notice", key: "notice:\(action)",
                when: ISO8601.format(scheduler.now, in: settings.zone), late: false)
            (channels as? LoopChannels)?.notifications?.close(id)
            channels?.deliver(notice, through: .desktop, replacing: nil) { _ in }
            return
        }
        do { try store.log.respond(row.id, response: response) } catch { log(LogEntry("cannot record the response: \(error)", priority: 3)) }
        (channels as? LoopChannels)?.notifications?.close(id)
        log(LogEntry("\(response) (notification \(id))", fields: RunnerCore.fields(row.key, row.kind, .desktop, action)))
        send(.replan(reason: "notification action"))
    }

    /// Done, Skip, Snooze or a dismissal on a calendar item's notification: written into its
    /// calendar when that is writable (`readOnly: false`), so every other device sees it —
    /// ACKNOWLEDGED and X-MOZ-LASTACK; a snooze as an RFC 9074 snooze alarm, which the next plan
    /// reads back and fires. A read-only calendar's item is snoozed here only.
    private func acknowledgeInCalendar(_ key: String, row: Delivery, notification id: UInt32, action: String) {
        let now = scheduler.now
        let calendars = settings.config.calendars
        let until = now.adding(seconds: Int64(settings.config.desktop.snooze))
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
                    action == "snooze"
                        ? CalendarWriteBack.snooze(text, uid: target.uid, instanceStart: start, until: until, at: now)
                        : CalendarWriteBack.acknowledge(text, uid: target.uid, at: now)
                })
            {
            case .success(let file):
                response =
                    action == "snooze"
                    ? "snoozed until \(ISO8601.format(until, in: settings.zone)) in \(file)"
                    : "\(action == "dismissed" ? "dismissed" : "acknowledged") in \(file)"
            case .failure(let problem):
                log(LogEntry("cannot write \(action) back to calendar \(calendar.name): \(problem)", priority: 4))
            }
        }
        do {
            // Not written back (a read-only calendar, or the write failed): done here only.
            if response == nil && action == "snooze" {
                response = "snoozed until \(ISO8601.format(until, in: settings.zone))"
                try store.log.snooze(row.id, until: until, response: response!)
            }
            let response = response ?? action
            try store.log.respond(row.id, response: response)
            if action != "dismissed" { (channels as? LoopChannels)?.notifications?.close(id) }
            log(LogEntry("\(response): \(row.key) (notification \(id))", fields: RunnerCore.fields(row.key, row.kind, .desktop, action)))
            send(.replan(reason: "notification action"))
        } catch {
            log(LogEntry("cannot apply \(action) from notification \(id): \(error)", priority: 3))
        }
    }

    /// NotificationClosed: how it ended, unless an action already said. A calendar item's
    /// dismissal is written back to a writable calendar.
    func closed(_ id: UInt32, reason: UInt32) {
        guard let row = try? store.log.delivery(notificationID: id, channel: .desktop), row.response == nil else { return }
        if reason == 2, case .calendar(let key) = row.key {
            return acknowledgeInCalendar(key, row: row, notification: id, action: "dismissed")
        }
        let words = [1: "expired", 2: "dismissed", 3: "closed"][reason] ?? "closed"
        do {
            try store.log.respond(row.id, response: words)
        } catch {
            log(LogEntry("cannot record that notification \(id) was \(words): \(error)", priority: 3))
        }
        log(LogEntry("\(words): \(row.key) (notification \(id))", fields: RunnerCore.fields(row.key, row.kind, .desktop, words)))
    }
}
