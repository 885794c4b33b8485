import DawnletApp
import DawnletCore
import DawnletStore
import DawnletSystem

/// A notification shown again in place of itself: taken over from a serve before this one (the
/// server answers only the connection that posted), or made again without the reminders of it
/// that were answered (a summary's member answered by itself, a digest's line paid).
extension Runner {
    /// Why a notification is shown again, for the journal.
    enum ShownAgain {
        /// Left on screen by a serve before this one.
        case takenOver
        /// Some of what it showed was answered.
        case lineAnswered
    }

    /// At start: the notifications a serve before this one left on screen, still waiting for an
    /// answer, each shown again replacing itself (a summary with its members still waiting), so
    /// that what is pressed on them reaches this process.
    func takeOverNotifications() {
        let rows: [Delivery]
        do {
            rows = try store.log.postedElsewhere(than: process, since: scheduler.now.adding(seconds: -Self.takeOverSince))
        } catch {
            return log(LogEntry("cannot read the notifications a serve before this one left: \(error)", priority: 4))
        }
        var shown: [UInt32: [Delivery]] = [:]
        for row in rows {
            var life = row.life
            guard case .replace(let old)? = life.handle(.restart(process: process)).first else { continue }
            shown[old, default: []].append(row)
        }
        for (old, members) in shown.sorted(by: { $0.key < $1.key }) { showAgain(members, replacing: old, .takenOver) }
    }

    /// Notes what notification `id` shows now, for a digest: a line answered elsewhere shows it
    /// again without that line.
    func noteShown(_ id: UInt32, _ message: ReminderMessage) {
        if case .reminder(let key) = message.key, key.isDigest { digestsShown[id] = message } else { digestsShown[id] = nil }
    }

    /// How far back a notification left on screen is taken over: a week of waiting reminders.
    static let takeOverSince: Int64 = 7 * 86_400

    /// Shows notification `old` again, replacing itself, with those of `rows` that still wait:
    /// one reminder's message, a digest as it is planned now (a line paid is gone from it), or a
    /// summary of several. One whose reminder is no longer planned (its item deleted) is recorded
    /// so and left out; with none left, the notification is closed.
    ///
    /// `unlessShowing`: the message on screen now; one that would show the same lines and offer
    /// the same payments is not shown again (a digest's line answered elsewhere changes them; a
    /// write that did not, does not).
    func showAgain(_ rows: [Delivery], replacing old: UInt32, _ why: ShownAgain, unlessShowing shown: ReminderMessage? = nil) {
        guard let channels, let first = rows.map(\.fireAt).min(), let last = rows.map(\.fireAt).max() else { return }
        let now = scheduler.now
        let reader = PlanReader(store: store, config: settings.config, zone: settings.zone, zones: settings.zones)
        let planned = (try? reader.plan(now: now, window: first...last, includeSuppressed: true).reminders) ?? []
        var kept: [(row: Delivery, reminder: PlannedReminder)] = []
        for row in rows where !row.life.isAnswered {
            if let reminder = planned.first(where: { $0.key == row.key }) {
                kept.append((row, reminder))
                continue
            }
            var life = row.life
            for case .record(let answer, let origin) in life.handle(.itemDeleted) {
                do {
                    try store.log.respond(row.id, answer, from: origin, words: "its item was deleted")
                } catch {
                    log(LogEntry("cannot record that \(row.key)'s item was deleted: \(error)", priority: 4))
                }
            }
        }
        let before = why == .takenOver ? " of the serve before this one" : ""
        guard !kept.isEmpty else {
            (channels as? LoopChannels)?.notifications?.close(old)
            onScreen.remove(old)
            digestsShown[old] = nil
            return log(LogEntry("closed notification \(old)\(before): \(rows.map(\.key.description).joined(separator: ", ")) no longer planned"))
        }
        var message: ReminderMessage
        if let only = kept.first, kept.count == 1 {
            message = withNote(
                ReminderMessage(only.reminder, late: only.row.late, at: now, zone: settings.zone, style: settings.config.style(of: only.reminder.item)),
                of: [only.reminder])
        } else {
            message = ReminderMessage.summary(of: kept.map(\.reminder), when: ISO8601.format(now, in: settings.zone), zone: settings.zone)
            message.title = "\(kept.count) reminders waiting"
        }
        if let shown, message.body == shown.body, message.payables == shown.payables, message.answerLines == shown.answerLines { return }
        // What is no longer shown on it is not found by its id again.
        for row in rows where !kept.contains(where: { $0.row.id == row.id }) {
            do {
                try store.log.notePosted(row.id, notificationID: nil, by: process)
            } catch {
                log(LogEntry("cannot note that notification \(old) no longer shows \(row.key): \(error)", priority: 4))
            }
        }
        let keys = kept.map(\.row.key.description).joined(separator: ", ")
        channels.deliver(message, through: .desktop, replacing: old) { [unowned self] outcome in
            guard outcome.state == .delivered, let id = outcome.notificationID else {
                return self.log(LogEntry("cannot show notification \(old) again (\(keys)): \(outcome.detail ?? "not shown")", priority: 4))
            }
            for (row, _) in kept {
                do {
                    try self.store.log.notePosted(row.id, notificationID: id, by: self.process)
                } catch {
                    self.log(LogEntry("cannot note notification \(id) of \(row.key): \(error)", priority: 4))
                }
            }
            self.onScreen.insert(id)
            self.noteShown(id, message)
            let again = id == old ? "" : " (shown again as \(id))"
            switch why {
            case .takenOver: self.log(LogEntry("notification \(old) taken over from the serve before this one: \(keys)\(again)"))
            case .lineAnswered: self.log(LogEntry("notification \(old) shown again with what still waits: \(keys)\(again)"))
            }
        }
    }
}
