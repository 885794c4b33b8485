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
            guard let row = try store.delivery(notificationID: id, channel: .desktop), let target = row.key.item else { return }
            let response: String
            switch (action, target.kind, target.kind.itemKind) {
            case ("done", .todo, let kind?), ("done", .habit, let kind?):
                try store.setOccurrence(kind, definitionID: target.id, date: target.date, status: .done)
                response = "done"
            case ("skip", .bill, _):
                try store.skipTransaction(definitionID: target.id, date: target.date)
                response = "skipped"
            case ("skip", _, let kind?):
                try store.setOccurrence(kind, definitionID: target.id, date: target.date, status: .skipped)
                response = "skipped"
            case ("snooze", _, _):
                let until = clock().adding(seconds: Int64(settings.config.desktop.snooze))
                response = "snoozed until \(ISO8601.format(until, in: settings.zone))"
                try store.snooze(row.id, until: until, response: response)
            default:
                return
            }
            try store.respond(row.id, response: response)
            (channels as? LoopChannels)?.notifications?.close(id)
            log(LogEntry("\(response): \(row.key) (notification \(id))", fields: Runner.fields(row.key, row.kind, .desktop, action)))
            replan(reason: "notification action")
        } catch {
            log(LogEntry("cannot apply \(action) from notification \(id): \(error)", priority: 3))
        }
    }

    /// NotificationClosed: how it ended, unless an action already said.
    func closed(_ id: UInt32, reason: UInt32) {
        guard let row = try? store.delivery(notificationID: id, channel: .desktop), row.response == nil else { return }
        let words = [1: "expired", 2: "dismissed", 3: "closed"][reason] ?? "closed"
        do {
            try store.respond(row.id, response: words)
        } catch {
            log(LogEntry("cannot record that notification \(id) was \(words): \(error)", priority: 3))
        }
        log(LogEntry("\(words): \(row.key) (notification \(id))", fields: Runner.fields(row.key, row.kind, .desktop, words)))
    }
}
