/// Escalation: a reminder left unanswered goes on to other channels, rung by rung.
extension Planner.Context {
    /// A reminder of `item` that went out on some of `channels` and waits for an answer on
    /// every one, on to the next channels of its ladder when each rung's wait is over (inside
    /// `window`); an answer anywhere stops it, and a rung that went out is not planned again.
    func escalations(
        _ key: ReminderKey, _ item: PlanItem, offset: ReminderOffset, channels: [Channel], notes: [String], window: ClosedRange<Instant>,
        into made: inout Planner.Made
    ) {
        guard mayRepeat else { return }
        let ladder = rules.ladder(item)
        guard !ladder.isEmpty else { return }
        var first: Instant?
        for channel in channels {
            guard let settled = log[DeliveryID(key, channel)] else { continue }
            // Answered here: answered everywhere.
            if settled.outcome == .delivered && !settled.waiting { return }
            if settled.waiting, let at = settled.firstDelivered { first = min(first ?? at, at) }
        }
        guard let first else { return }
        for step in ladder {
            let due = first.adding(step.after)
            for channel in step.to where !channels.contains(channel) && log[DeliveryID(key, channel)] == nil {
                let held = rules.heldUntil(due, local: due.secondsSinceEpoch + Int64(zone.utcOffset(at: due)), item, zone: zone)
                let at = held ?? due
                guard window.contains(at) else { continue }
                var note = "on to \(channel): unanswered \(DurationText.format(step.after)) after it went out"
                if held != nil { note += "; held for quiet hours" }
                var reminder = PlannedReminder(
                    key: key, fireAt: at, utcOffset: zone.utcOffset(at: at), channels: [channel], status: timing(at), settled: [:], snoozed: false,
                    item: item, offset: offset, notes: notes + [note], items: [], overdueCount: 0, occurrenceDate: item.date)
                reminder.heldFrom = held.map { _ in due }
                made.append(reminder)
            }
        }
    }
}
