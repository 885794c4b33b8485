/// How far an item's own time is from the moment its message goes out, in the words a message
/// gives after its time (`Todo due at 09:00 (in 10m)`): worked out when it is shown, so a late
/// delivery, a snooze's or a nag's return and the end of quiet hours say how far it is then, not
/// when it was planned.
public enum DueWords {
    /// `in 10m`, `in 1h30m`, `in 1w`, `5m ago`, `1d2h ago`: ahead, rounded up to the minute (so a
    /// reminder 10m ahead that goes out on time still says `in 10m`); past, down. Nil from its
    /// time to a minute after (it is due now).
    public static func relative(_ start: Instant, from sentAt: Instant) -> String? {
        let seconds = start.secondsSinceEpoch - sentAt.secondsSinceEpoch
        if seconds > 0 { return "in " + span(minutes: (seconds + 59) / 60) }
        guard seconds <= -60 else { return nil }
        return span(minutes: -seconds / 60) + " ago"
    }

    /// The same for an item of a day, not a time, from the day it goes out on: `in 1d`, `in 1w`,
    /// `2d ago`; nil on its day.
    public static func relative(_ date: CivilDate, from today: CivilDate) -> String? {
        let days = date.dayNumber - today.dayNumber
        if days == 0 { return nil }
        let words = span(minutes: Int64(abs(days)) * 1_440)
        return days > 0 ? "in " + words : words + " ago"
    }

    /// Whole weeks as weeks (`1w`, as an offset is written), else days, hours and minutes (`1d2h`).
    static func span(minutes: Int64) -> String {
        if minutes > 0 && minutes % (7 * 1_440) == 0 { return "\(minutes / (7 * 1_440))w" }
        return DurationText.format(.seconds(minutes * 60))
    }
}
