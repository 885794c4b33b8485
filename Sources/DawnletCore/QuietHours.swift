/// Hours in which reminders are held (`quietHours` in the config): from one wall-clock time to
/// another — overnight when `to` is earlier than `from` — on the days it begins; a reminder
/// due inside goes out when they end, and several at once as one summary.
public struct QuietHours: Hashable, Sendable {
    public var from: WallTime
    public var to: WallTime
    /// The days on which a quiet stretch begins (one from 22:00 to 07:00 that begins on Friday
    /// ends on Saturday morning).
    public var days: WeekdaySet = .all
    /// The kinds held; the others go out as ever.
    public var kinds: Set<ReminderKind> = Set(ReminderKind.allCases)
    /// A reminder asking for critical urgency (its item's, or its kind's) goes out all the same.
    public var criticalPasses = true

    public init(from: WallTime, to: WallTime) {
        self.from = from
        self.to = to
    }

    /// When the quiet stretch that holds `instant` ends, for a reminder of `kind`; nil when it is
    /// not held. `local` is the instant's wall-clock seconds since the epoch (instant plus its
    /// UTC offset), as the planner has it.
    public func end(of instant: Instant, local: Int64, kind: ReminderKind, zone: Zone) -> Instant? {
        guard kinds.contains(kind) else { return nil }
        let day = CivilDate(dayNumber: Int(local >= 0 ? local / 86_400 : (local - 86_399) / 86_400))
        let second = Int(local - Int64(day.dayNumber) * 86_400)
        let (start, end) = (from.secondsOfDay, to.secondsOfDay)
        let began: CivilDate
        if start < end {
            guard second >= start && second < end else { return nil }
            began = day
        } else if second >= start {
            began = day
        } else if second < end {
            began = day.adding(days: -1)
        } else {
            return nil
        }
        guard days.contains(began.weekday) else { return nil }
        let ends = zone.resolve(to, on: start < end ? began : began.adding(days: 1)).instant
        return ends > instant ? ends : nil
    }
}
