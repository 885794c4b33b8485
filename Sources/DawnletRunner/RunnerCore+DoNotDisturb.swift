import DawnletCore

/// The desktop server's Do Not Disturb: held as a paused server's reminders are (nothing handed
/// over, no wake), except what `channels.desktop.criticalPassesDoNotDisturb` lets through.
extension RunnerCore {
    /// Do Not Disturb came on: desktop reminders wait. Ended: what waited goes out.
    mutating func desktopDoNotDisturb(_ isOn: Bool, now: Instant) -> [RunnerEffect] {
        guard !stopping, isOn != (doNotDisturb != nil) else { return [] }
        if isOn {
            doNotDisturb = now
            return holdBegan(Self.doNotDisturbLine, now: now)
        }
        doNotDisturb = nil
        return holdEnded("Do Not Disturb ended: desktop reminders held meanwhile go out", now: now)
    }

    static let doNotDisturbLine = LogEntry("Do Not Disturb is on: desktop reminders are held until it ends", priority: 5)

    /// Which reminders go out through Do Not Disturb: those whose desktop message asks for critical
    /// urgency, when the config lets them.
    func passesDoNotDisturb(now: Instant) -> (PlannedReminder, Bool) -> Bool {
        let config = settings.config, zone = settings.zone
        guard doNotDisturb != nil, config.desktop.criticalPassesDoNotDisturb else { return { _, _ in false } }
        return { reminder, late in
            let urgency = ReminderMessage(reminder, late: late, at: now, zone: zone, style: config.style(of: reminder.item)).urgency
            return DoNotDisturb.passes(urgency, criticalPasses: true)
        }
    }
}
