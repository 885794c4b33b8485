import DawnletCore
import DawnletStore
import DawnletSystem

/// What the person does with a desktop notification (DESIGN §6): Done, Skip and Snooze write
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
                let until = clock().adding(seconds: Int64(settings.config.desktop.snooze))
                response = "snoozed until \(ISO8601.format(until, in: settings.zone))"
                try store.log.snooze(row.id, until: until, response: response)
            default:
                return
            }
            try store.log.respond(row.id, response: response)
            (channels as? LoopChannels)?.notifications?.close(id)
            log(LogEntry("\(response): \(row.key) (notification \(id))", fields: Runner.fields(row.key, row.kind, .desktop, action)))
            replan(reason: "notification action")
        } catch {
            log(LogEntry("cannot apply \(action) from notification \(id): \(error)", priority: 3))
        }
    }

    /// Log payment (a subscription's renewal, a debt's month) or Paid (a bill), from the reminder
    /// or its digest: recorded as `log` or the bill's row would be. Already logged: said on a
    /// notification of its own, naming the payment.
    private func pay(_ payment: (paid: Bool, kind: ReminderKind, id: Int64, date: CivilDate), from row: Delivery, notification id: UInt32,
                     action: String) {
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
            let notice = ReminderMessage(title: "Not recorded", body: error.message, kind: "notice", key: "notice:\(action)",
                                         when: ISO8601.format(clock(), in: settings.zone), late: false)
            (channels as? LoopChannels)?.notifications?.close(id)
            channels?.deliver(notice, through: .desktop, replacing: nil) { _ in }
            return
        }
        do { try store.log.respond(row.id, response: response) } catch { log(LogEntry("cannot record the response: \(error)", priority: 3)) }
        (channels as? LoopChannels)?.notifications?.close(id)
        log(LogEntry("\(response) (notification \(id))", fields: Runner.fields(row.key, row.kind, .desktop, action)))
        replan(reason: "notification action")
    }

    /// NotificationClosed: how it ended, unless an action already said.
    func closed(_ id: UInt32, reason: UInt32) {
        guard let row = try? store.log.delivery(notificationID: id, channel: .desktop), row.response == nil else { return }
        let words = [1: "expired", 2: "dismissed", 3: "closed"][reason] ?? "closed"
        do {
            try store.log.respond(row.id, response: words)
        } catch {
            log(LogEntry("cannot record that notification \(id) was \(words): \(error)", priority: 3))
        }
        log(LogEntry("\(words): \(row.key) (notification \(id))", fields: Runner.fields(row.key, row.kind, .desktop, words)))
    }
}
