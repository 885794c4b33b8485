/// What waited while the screen was locked goes out, once it unlocks, as one summary per channel:
/// "N reminders while you were away", each still answered on its own. One alone goes out as itself.
extension Decision {
    /// The sends whose reminders all waited while the screen was locked (`away`) gathered into
    /// one on each channel, marked `away`, in place of the first of them; the others as they were.
    /// Late or due, one by one or already in a late summary: the person was away from all of them.
    public func gatheringAway(_ away: Set<DeliveryID>) -> Decision {
        guard !away.isEmpty else { return self }
        var gathered = self
        gathered.sends = []
        var byChannel: [Channel: [Send]] = [:]
        for send in sends where send.ids.allSatisfy(away.contains) { byChannel[send.channel, default: []].append(send) }
        var placed = Set<Channel>()
        for send in sends {
            guard let group = byChannel[send.channel], group.count > 1 || group[0].isSummary, send.ids.allSatisfy(away.contains) else {
                gathered.sends.append(send)
                continue
            }
            guard placed.insert(send.channel).inserted else { continue }
            var one = Send(
                channel: send.channel, reminders: group.flatMap(\.reminders), late: group.contains { $0.late },
                failures: group.map(\.failures).max() ?? 0, deadline: group.map(\.deadline).min() ?? send.deadline)
            one.away = true
            gathered.sends.append(one)
        }
        return gathered
    }
}

extension ReminderMessage {
    /// What waited while the screen was locked, as one notification: "3 reminders while you were
    /// away", listing them as a summary of missed ones does.
    public static func awaySummary(of reminders: [PlannedReminder], when: String, zone: Zone) -> ReminderMessage {
        var message = summary(of: reminders, when: when, zone: zone)
        message.title = "\(reminders.count) reminders while you were away"
        message.late = false
        return message
    }
}
