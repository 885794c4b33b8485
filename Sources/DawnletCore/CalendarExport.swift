import FoundationEssentials

extension Schedule {
    /// The RFC 5545 RRULE that means exactly this schedule from `anchor`: weeks start on Monday
    /// (WKST=MO, as our intervals count); a monthly day d ≥ 29 is "the last of 28…d the month
    /// has" (BYMONTHDAY=28,…,d;BYSETPOS=-1), our clamp; yearly is every 12 months.
    public func rrule(anchor: CivilDate) -> String {
        switch rule {
        case .weekly(let interval, let days):
            let set = days ?? WeekdaySet([anchor.weekday])
            return "FREQ=WEEKLY;INTERVAL=\(interval);BYDAY=\(set.map(\.icalCode).joined(separator: ","));WKST=MO"
        case .monthlyOnDay(let interval, let day):
            let d = day ?? anchor.day
            let byDay = d <= 28 ? "BYMONTHDAY=\(d)" : "BYMONTHDAY=\((28...d).map(String.init).joined(separator: ","));BYSETPOS=-1"
            return "FREQ=MONTHLY;INTERVAL=\(interval);\(byDay)"
        case .monthlyOnWeekday(let interval, let ordinal, let weekday):
            let n: String
            switch ordinal {
            case .nth(let k): n = String(k)
            case .last: n = "-1"
            }
            return "FREQ=MONTHLY;INTERVAL=\(interval);BYDAY=\(n)\(weekday.icalCode)"
        }
    }
}

/// A Dawnlet todo or event as an iCalendar document (RFC 5545) another calendar program reads
/// (DESIGN §8): DTSTART in the zone by its IANA name (or a date), the RRULE that means our
/// schedule, skipped instances as EXDATE, edited or completed ones as RECURRENCE-ID overrides, a
/// VALARM per reminder offset. The same item always gives the same bytes.
public enum CalendarExport {
    public static let productID = "-//Dawnlet//dawnlet-remind//EN"

    /// - Parameters:
    ///   - stored: the item's stored occurrences (skips, edits, done).
    ///   - offsets: its reminders (its own, else the kind's defaults).
    public static func document(_ d: ItemDefinition, stored: [StoredOccurrence], offsets: [ReminderOffset], uid: String,
                                zone: Zone) -> String {
        let component = d.kind == .todo ? "VTODO" : "VEVENT"
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:\(productID)", "BEGIN:\(component)", "UID:\(escape(uid))"]
        let anchor = d.schedule?.anchor ?? d.date
        // Stable: the day it starts, not the moment of export, so exporting again changes nothing.
        lines.append("DTSTAMP:\(basic(anchor ?? CivilDate(dayNumber: 0)))T000000Z")
        lines.append("SUMMARY:\(escape(d.title))")
        var first: CivilDate?
        if let schedule = d.schedule, let anchor {
            first = schedule.nextOccurrence(onOrAfter: anchor, defaultAnchor: anchor)
        } else {
            first = d.date
        }
        if let first {
            let property = d.kind == .todo && d.schedule == nil ? "DUE" : "DTSTART"
            lines.append(property + value(first, d.time, zone))
            if let minutes = d.durationMinutes, d.kind == .event { lines.append("DURATION:PT\(minutes)M") }
            if let schedule = d.schedule, let anchor { lines.append("RRULE:" + schedule.rrule(anchor: anchor)) }
        }
        let rows = stored.filter { $0.definitionID == d.id && $0.kind == d.kind }.sorted { $0.date < $1.date }
        if d.schedule != nil {
            for row in rows where row.status == .skipped { lines.append("EXDATE" + value(row.date, d.time, zone)) }
        } else if rows.contains(where: { $0.status == .done }) {
            lines.append("STATUS:COMPLETED")
        }
        lines += alarms(offsets, title: d.title)
        lines.append("END:\(component)")
        // Instances that differ from the series: an edited title or time, a repeating todo done.
        if d.schedule != nil {
            for row in rows where row.status != .skipped && (row.title != nil || row.time != nil || row.status == .done) {
                lines += ["BEGIN:\(component)", "UID:\(escape(uid))", "DTSTAMP:\(basic(row.date))T000000Z",
                          "RECURRENCE-ID" + value(row.date, d.time, zone), "DTSTART" + value(row.date, row.time ?? d.time, zone),
                          "SUMMARY:\(escape(row.title ?? d.title))"]
                if row.status == .done { lines.append("STATUS:COMPLETED") }
                lines += alarms(offsets, title: row.title ?? d.title)
                lines.append("END:\(component)")
            }
        }
        lines.append("END:VCALENDAR")
        return lines.flatMap(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// `;VALUE=DATE:20261201`, `;TZID=Europe/Berlin:20261201T090000`, or `:20261201T090000Z` in UTC.
    static func value(_ date: CivilDate, _ time: WallTime?, _ zone: Zone) -> String {
        guard let time else { return ";VALUE=DATE:\(basic(date))" }
        let local = "\(basic(date))T\(two(time.hour))\(two(time.minute))00"
        if zone.identifier == "UTC" || zone.identifier == "GMT" { return ":\(local)Z" }
        return ";TZID=\(zone.identifier):\(local)"
    }

    static func alarms(_ offsets: [ReminderOffset], title: String) -> [String] {
        offsets.flatMap { offset -> [String] in
            let seconds = offset.exactSeconds
            let trigger = seconds == 0 ? "PT0S" : seconds % 86_400 == 0 ? "-P\(seconds / 86_400)D" : "-PT\(seconds / 60)M"
            return ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:\(escape(title))", "TRIGGER:\(trigger)", "END:VALARM"]
        }
    }

    /// `20261201`: a DATE value.
    public static func basic(_ date: CivilDate) -> String {
        let year = String(date.year)
        return String(repeating: "0", count: max(0, 4 - year.count)) + year + two(date.month) + two(date.day)
    }

    /// `20261201T080000Z`: a UTC DATE-TIME value.
    public static func basic(_ instant: Instant) -> String {
        let (date, s) = ISO8601.split(local: instant.secondsSinceEpoch)
        return "\(basic(date))T\(two(s / 3600))\(two(s / 60 % 60))\(two(s % 60))Z"
    }

    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// TEXT values (RFC 5545 §3.3.11): backslash, semicolon, comma and line breaks escaped.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            case "\r": break
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { out += " " } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    /// Lines longer than 75 octets folded (RFC 5545 §3.1), never inside a UTF-8 sequence.
    static func fold(_ line: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var octets = 0
        for character in line {
            let size = character.utf8.count
            if octets + size > 75 {
                parts.append(current)
                current = " "
                octets = 1
            }
            current.append(character)
            octets += size
        }
        parts.append(current)
        return parts
    }
}
