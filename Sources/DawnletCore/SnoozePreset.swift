/// One way to snooze a reminder, as the config lists them (`channels.desktop.snooze`) and a
/// notification offers them: for a while from the press, until a wall-clock time, or until a
/// while before the item starts.
public enum SnoozePreset: Hashable, Sendable, CustomStringConvertible {
    /// `10m`: this long from the moment it is pressed.
    case after(Duration)
    /// `tomorrow 09:00`: date words and a time, read at the press in the reminder's zone.
    case at(String)
    /// `15m before start`: that long before the item starts (an event, a calendar item with a
    /// start); offered only while that is still to come.
    case beforeStart(Duration)

    /// The shortest snooze there is.
    public static let shortest: Duration = .seconds(5)

    /// The config's words read: nil for anything else.
    public init?(_ text: String) {
        if text.hasSuffix(" before start") {
            guard let span = DurationText.parse(String(text.dropLast(" before start".count))), span >= Self.shortest else { return nil }
            self = .beforeStart(span)
        } else if let span = DurationText.parse(text) {
            guard span >= Self.shortest else { return nil }
            self = .after(span)
        } else {
            // Read against a fixed day only to check it: "tomorrow 09:00", "fri 18:30", "09:00".
            guard Self.dayAndTime(text, today: CivilDate(year: 2026, month: 1, day: 1)!) != nil else { return nil }
            self = .at(text)
        }
    }

    public var description: String {
        switch self {
        case .after(let span): DurationText.format(span)
        case .at(let words): words
        case .beforeStart(let span): "\(DurationText.format(span)) before start"
        }
    }

    /// What a notification's button says.
    public var label: String {
        switch self {
        case .after(let span): "Snooze \(DurationText.format(span))"
        case .at(let words): "Until \(words)"
        case .beforeStart(let span): "Until \(DurationText.format(span)) before start"
        }
    }

    /// When a press at `now` brings the reminder back; nil when it cannot (no start, or it is
    /// no later than `now`).
    public func until(now: Instant, zone: Zone, start: Instant?) -> Instant? {
        let until: Instant
        switch self {
        case .after(let span): until = now.adding(span)
        case .at(let words):
            let today = ISO8601.localDate(of: now, in: zone).date
            guard let (day, time) = Self.dayAndTime(words, today: today) else { return nil }
            var instant = zone.resolve(time, on: day).instant
            // A bare time already past today means tomorrow's.
            if instant <= now, DateWords.time(words) != nil { instant = zone.resolve(time, on: today.adding(days: 1)).instant }
            until = instant
        case .beforeStart(let span):
            guard let start else { return nil }
            until = start.adding(.zero - span)
        }
        return until > now ? until : nil
    }

    /// Date words with a time ("tomorrow 09:00"), or a time alone (today's).
    private static func dayAndTime(_ words: String, today: CivilDate) -> (CivilDate, WallTime)? {
        guard let (day, time) = DateWords.dateAndTime(words, today: today), let time else { return nil }
        return (day, time)
    }

    /// The presets when the config names none: ten minutes, an hour, tomorrow morning, and a
    /// quarter of an hour before an event starts.
    public static let defaults: [SnoozePreset] = [.after(.seconds(600)), .after(.seconds(3_600)), .at("tomorrow 09:00"), .beforeStart(.seconds(900))]
}
