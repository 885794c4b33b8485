/// The reminder of an external calendar's item a key names, in parts: the calendar (its name in
/// the config, which holds no colon), the item's UID (any text, colons too), the instance of a
/// repeating item (its start as iCalendar writes it, `20261201T090000Z` or `20261201`), and what
/// reminds: an offset from its start, or one of its own alarms at an instant.
///
/// One encoder and one decoder of the text form, `ics:NAME:UID[:INSTANCE]:OFFSET` or
/// `ics:NAME:UID[:INSTANCE]:alarm:YYYY-MM-DDTHH:MM:SS` (UTC): the name ends at the first colon,
/// the trigger and an instance are taken off the end, and the UID is what is left. Two keys are
/// the same reminder when their text is the same.
public struct CalendarReference: Hashable, Sendable, CustomStringConvertible {
    public enum Trigger: Hashable, Sendable {
        /// The calendar's default offsets, counted from the item's start.
        case offset(ReminderOffset)
        /// One of the item's own VALARMs, at that instant.
        case alarm(Instant)
    }

    public let calendar: String
    public let uid: String
    public let instance: String?
    public let trigger: Trigger
    /// The text form, made once: the delivery log, `{key}` and `preview` show it.
    public let description: String

    public init(calendar: String, uid: String, instance: String?, trigger: Trigger) {
        self.calendar = calendar
        self.uid = uid
        self.instance = instance
        self.trigger = trigger
        let item = "ics:\(calendar):\(uid)" + (instance.map { ":\($0)" } ?? "")
        switch trigger {
        case .offset(let offset): description = "\(item):\(offset)"
        case .alarm(let at): description = "\(item):alarm:\(Self.alarmText(at))"
        }
    }

    /// Reads the text form back; nil for text that is not one (no calendar name, no trigger, an
    /// offset or instant not as this encoder writes it).
    public init?(_ text: String) {
        guard text.hasPrefix("ics:") else { return nil }
        let rest = text.dropFirst(4)
        guard let colon = rest.firstIndex(of: ":"), colon > rest.startIndex else { return nil }
        var item = rest[rest.index(after: colon)...]
        let trigger: Trigger
        // `:alarm:` and a UTC time (19 characters), or `:` and an offset (a UID may end in
        // `:alarm:` before an instance and an offset of 19 characters together).
        if item.count > 26, item.dropLast(19).hasSuffix(":alarm:"), let at = ISO8601.parse(String(item.suffix(19)) + "Z", zone: .utc),
            Self.alarmText(at) == item.suffix(19)
        {
            trigger = .alarm(at)
            item = item.dropLast(26)
        } else if let last = item.lastIndex(of: ":"), let offset = ReminderOffset(String(item[item.index(after: last)...])),
            offset.description == item[item.index(after: last)...]
        {
            trigger = .offset(offset)
            item = item[..<last]
        } else {
            return nil
        }
        // An instance: its start as a date or a UTC date-time, the last part.
        var instance: String?
        if let last = item.lastIndex(of: ":") {
            let part = String(item[item.index(after: last)...])
            if let until = RecurrenceRule.until(part), Self.isInstance(until) {
                instance = part
                item = item[..<last]
            }
        }
        guard !item.isEmpty else { return nil }
        self.calendar = String(rest[..<colon])
        self.uid = String(item)
        self.instance = instance
        self.trigger = trigger
        self.description = text
    }

    /// A repeating item's instance is named by a date or a UTC time, never a floating one.
    private static func isInstance(_ until: RecurrenceRule.Until) -> Bool {
        if case .local = until { return false }
        return true
    }

    /// An alarm's instant as its key writes it: UTC, to the second, without the `Z`.
    static func alarmText(_ at: Instant) -> Substring { ISO8601.format(at, utcOffset: 0).prefix(19) }

    /// The instant that names a repeating item's instance in Thunderbird's
    /// X-MOZ-SNOOZE-TIME-µs: its UTC time, or a date's midnight in UTC; nil for none.
    public var instanceStart: Instant? {
        switch instance.flatMap(RecurrenceRule.until) {
        case .utc(let at)?: at
        case .date(let date)?: Zone.utc.resolve(WallTime.midnight, on: date).instant
        default: nil
        }
    }

    public static func == (a: CalendarReference, b: CalendarReference) -> Bool { a.description == b.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}
