import FoundationEssentials

extension Schedule {
    /// The RFC 5545 RRULE that means exactly this schedule from `anchor`: weeks start on Monday
    /// (WKST=MO, as our intervals count); a monthly day d ≥ 29 is "the last of 28…d the month
    /// has" (BYMONTHDAY=28,…,d;BYSETPOS=-1), our clamp; every 12 months is FREQ=YEARLY in the
    /// anchor's month.
    public func rrule(anchor: CivilDate) -> String {
        switch rule {
        case .monthlyOnDay(let interval, let day) where interval % 12 == 0:
            let d = day ?? anchor.day
            let byDay = d <= 28 ? "BYMONTHDAY=\(d)" : "BYMONTHDAY=\((28...d).map(String.init).joined(separator: ","));BYSETPOS=-1"
            return "FREQ=YEARLY;INTERVAL=\(interval / 12);BYMONTH=\(anchor.month);\(byDay)"
        case .monthlyOnWeekday(let interval, let ordinal, let weekday) where interval % 12 == 0:
            return "FREQ=YEARLY;INTERVAL=\(interval / 12);BYMONTH=\(anchor.month);BYDAY=\(ordinal.icalNumber)\(weekday.icalCode)"
        case .weekly(let interval, let days):
            let set = days ?? WeekdaySet([anchor.weekday])
            return "FREQ=WEEKLY;INTERVAL=\(interval);BYDAY=\(set.map(\.icalCode).joined(separator: ","));WKST=MO"
        case .monthlyOnDay(let interval, let day):
            let d = day ?? anchor.day
            let byDay = d <= 28 ? "BYMONTHDAY=\(d)" : "BYMONTHDAY=\((28...d).map(String.init).joined(separator: ","));BYSETPOS=-1"
            return "FREQ=MONTHLY;INTERVAL=\(interval);\(byDay)"
        case .monthlyOnWeekday(let interval, let ordinal, let weekday):
            return "FREQ=MONTHLY;INTERVAL=\(interval);BYDAY=\(ordinal.icalNumber)\(weekday.icalCode)"
        }
    }
}

extension Schedule.Ordinal {
    /// `2` for the second, `-1` for the last: a BYDAY ordinal.
    var icalNumber: String {
        switch self {
        case .nth(let k): String(k)
        case .last: "-1"
        }
    }
}

/// A Dawnlet todo or event as an iCalendar document (RFC 5545) another calendar program reads:
/// DTSTART in the zone by its IANA name (or a date), the RRULE that means our
/// schedule, skipped instances as EXDATE, edited or completed ones as RECURRENCE-ID overrides, a
/// VALARM per reminder offset, and the VTIMEZONE its TZID names. The same item gives the same
/// bytes but for DTSTAMP, the time of export (`sameButStamps` tells the two apart). Built as
/// the model (`calendar`), rendered once to be written.
public enum CalendarExport {
    public static let productID = "-//Dawnlet//dawnlet-remind//EN"

    /// - Parameters:
    ///   - stored: the item's stored occurrences (skips, edits, done).
    ///   - offsets: its reminders (its own, else the kind's defaults).
    ///   - stamp: the moment of export, its DTSTAMP.
    public static func document(
        _ d: ItemDefinition, stored: [StoredOccurrence], offsets: [ReminderOffset], uid: String,
        zone: Zone, stamp: Instant
    ) -> String {
        calendar(d, stored: stored, offsets: offsets, uid: uid, zone: zone, stamp: stamp).rendered
    }

    /// The item as a document of the model (`ICalendar`), which `document` renders: what the
    /// round trip compares a file with.
    public static func calendar(
        _ d: ItemDefinition, stored: [StoredOccurrence], offsets: [ReminderOffset], uid: String,
        zone: Zone, stamp: Instant
    ) -> ICalendar.Document {
        let component = d.kind == .todo ? "VTODO" : "VEVENT"
        var lines = ["UID:\(escape(uid))"]
        let anchor = d.schedule?.anchor ?? d.date
        lines.append("DTSTAMP:\(basic(stamp))")
        lines.append("SUMMARY:\(escape(d.title))")
        lines += detailLines(d.details)
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
            if let schedule = d.schedule, let anchor {
                lines.append("RRULE:" + schedule.rrule(anchor: anchor) + (schedule.until.map { ";UNTIL=" + until($0, d.time, zone) } ?? ""))
            }
        }
        let rows = stored.filter { $0.definitionID == d.id && $0.kind == d.kind }.sorted { $0.date < $1.date }
        if d.schedule != nil {
            for row in rows where row.status == .skipped { lines.append("EXDATE" + value(row.date, d.time, zone)) }
        } else if rows.contains(where: { $0.status == .done }) {
            lines.append("STATUS:COMPLETED")
        }
        var members: [ICalendar.Item] = []
        // RFC 5545 §3.2.19: a TZID names a VTIMEZONE of the same document.
        if let first, d.time != nil, !isUTC(zone) { members.append(.component(timeZone(zone, from: first))) }
        members.append(.component(ICalendar.Component(component, properties(lines) + alarms(offsets, title: d.title, uid: uid))))
        // Instances that differ from the series: an edited title or time, a repeating todo done.
        if d.schedule != nil {
            for row in rows where row.status != .skipped && (row.title != nil || row.time != nil || row.status == .done) {
                var lines = [
                    "UID:\(escape(uid))", "DTSTAMP:\(basic(stamp))",
                    "RECURRENCE-ID" + value(row.date, d.time, zone), "DTSTART" + value(row.date, row.time ?? d.time, zone),
                    "SUMMARY:\(escape(row.title ?? d.title))",
                ]
                if row.status == .done { lines.append("STATUS:COMPLETED") }
                let alarms = alarms(offsets, title: row.title ?? d.title, uid: "\(uid)-\(basic(row.date))")
                members.append(.component(ICalendar.Component(component, properties(lines) + alarms)))
            }
        }
        let calendar = ICalendar.Component("VCALENDAR", properties(["VERSION:2.0", "PRODID:\(productID)"]) + members)
        return ICalendar.Document([.component(calendar)], lineEnd: "\r\n")
    }

    /// Content lines as new properties of the model.
    static func properties(_ lines: [String]) -> [ICalendar.Item] { lines.map { .property(ICalendar.Property($0)) } }

    /// Whether two documents differ in nothing but their DTSTAMPs: an unchanged item, exported again.
    public static func sameButStamps(_ a: String, _ b: String) -> Bool {
        sameButStamps(ICalendar.Document(parsing: a), ICalendar.Document(parsing: b))
    }

    /// The same for two documents as this export renders them (lines ended by CRLF, DTSTAMP
    /// never folded): compared byte by byte, nothing parsed.
    public static func sameButStamps(rendered a: String, _ b: String) -> Bool {
        func content(_ text: String) -> [ArraySlice<UInt8>] {
            let bytes = Array(text.utf8)
            let stamp = Array("DTSTAMP:".utf8)
            return bytes.split(separator: 0x0A).filter { !$0.starts(with: stamp) }
        }
        return content(a) == content(b)
    }

    public static func sameButStamps(_ a: ICalendar.Document, _ b: ICalendar.Document) -> Bool {
        func content(_ d: ICalendar.Document) -> [String] {
            d.components.flatMap(\.lines).filter { $0.name != "DTSTAMP" }.map { $0.name + $0.content }
        }
        return content(a) == content(b)
    }

    /// The VTIMEZONE of `zone` from a year before `from` on, from the system's rules:
    /// each change in the zone's table as its own STANDARD or DAYLIGHT onset, then the yearly rule
    /// that follows the table (its POSIX TZ footer) as RRULEs; changes worked out one by one for 40
    /// years where that rule has no RRULE form. TZOFFSETFROM is the offset before each onset, the
    /// onset's DTSTART its wall time in that offset.
    static func timeZone(_ zone: Zone, from: CivilDate) -> ICalendar.Component {
        let rules = zone.rules
        let begin = Int64(from.dayNumber - 366) * 86_400
        var items = properties(["TZID:\(zone.identifier)"])
        func offset(_ seconds: Int) -> String {
            let a = abs(seconds)
            return (seconds < 0 ? "-" : "+") + two(a / 3600) + two(a / 60 % 60) + (a % 60 == 0 ? "" : two(a % 60))
        }
        func onset(at t: Int64, from before: Int, to after: Int, daylight: Bool, rule: String? = nil) {
            let (date, s) = ISO8601.split(local: t + Int64(before))
            var lines = ["DTSTART:\(basic(date))T\(two(s / 3600))\(two(s / 60 % 60))\(two(s % 60))"]
            if let rule { lines.append("RRULE:\(rule)") }
            lines += ["TZOFFSETFROM:\(offset(before))", "TZOFFSETTO:\(offset(after))"]
            items.append(.component(ICalendar.Component(daylight ? "DAYLIGHT" : "STANDARD", properties(lines))))
        }
        // The onset in force at `begin` (the last change before it, else the zone's first offset).
        var standard = rules.footer?.standard ?? Int(rules.initial)
        var changes: [(at: Int64, before: Int, after: Int)] = []
        var previous = Int(rules.initial)
        for (i, t) in rules.transitions.enumerated() {
            let after = Int(rules.offsets[i])
            if after != previous { changes.append((t, previous, after)) }
            previous = after
        }
        let kept = changes.lastIndex { $0.at <= begin }.map { Array(changes[$0...]) } ?? changes
        if kept.isEmpty || kept[0].at > begin {
            let first = kept.first?.before ?? rules.utcOffset(at: Instant(secondsSinceEpoch: begin))
            onset(at: Int64(CivilDate(year: 1601, month: 1, day: 1)!.dayNumber) * 86_400 - Int64(first), from: first, to: first, daylight: false)
        }
        for change in kept {
            onset(at: change.at, from: change.before, to: change.after, daylight: change.after > standard)
        }
        let tableEnd = max(rules.transitions.last ?? begin, begin)
        guard let footer = rules.footer, let daylight = footer.daylight, let start = footer.start, let end = footer.end else {
            return ICalendar.Component("VTIMEZONE", items)
        }
        standard = footer.standard
        if let startRule = start.rrule, let endRule = end.rrule {
            // From the year after the table, each rule's first onset there.
            let year = ISO8601.split(local: tableEnd).date.year + 1
            for (rule, text, before, after) in [(start, startRule, standard, daylight), (end, endRule, daylight, standard)] {
                let day = rule.day.date(in: year)
                onset(at: Int64(day.dayNumber) * 86_400 + Int64(rule.time) - Int64(before), from: before, to: after, daylight: after == daylight, rule: text)
            }
        } else {
            var t = Instant(secondsSinceEpoch: tableEnd)
            let last = tableEnd + 40 * 366 * 86_400
            while let next = rules.nextChange(after: t, within: last - t.secondsSinceEpoch) {
                onset(at: next.secondsSinceEpoch, from: rules.utcOffset(at: t), to: rules.utcOffset(at: next), daylight: rules.utcOffset(at: next) == daylight)
                t = next
            }
        }
        return ICalendar.Component("VTIMEZONE", items)
    }

    /// `;VALUE=DATE:20261201`, `;TZID=Europe/Berlin:20261201T090000`, or `:20261201T090000Z` in UTC.
    static func value(_ date: CivilDate, _ time: WallTime?, _ zone: Zone) -> String {
        guard let time else { return ";VALUE=DATE:\(basic(date))" }
        let local = "\(basic(date))T\(two(time.hour))\(two(time.minute))00"
        if isUTC(zone) { return ":\(local)Z" }
        return ";TZID=\(zone.identifier):\(local)"
    }

    /// An RRULE's UNTIL for the last day `date` (RFC 5545 §3.3.10): a DATE for a date-only series,
    /// else the instant of that day's occurrence in UTC, as a DTSTART with a TZID requires.
    static func until(_ date: CivilDate, _ time: WallTime?, _ zone: Zone) -> String {
        guard let time else { return basic(date) }
        return basic(zone.resolve(time, on: date).instant)
    }

    /// What the item holds beside its title (RFC 5545 §3.8.1): DESCRIPTION, LOCATION, URL (a URI,
    /// not escaped), PRIORITY and CATEGORIES (its tags, each escaped).
    static func detailLines(_ details: ItemDetails) -> [String] {
        var lines: [String] = []
        if let note = details.note { lines.append("DESCRIPTION:\(escape(note))") }
        if let location = details.location { lines.append("LOCATION:\(escape(location))") }
        if let url = details.url { lines.append("URL:\(url)") }
        if let priority = details.priority { lines.append("PRIORITY:\(priority)") }
        if !details.tags.isEmpty { lines.append("CATEGORIES:" + details.tags.map(escape).joined(separator: ",")) }
        return lines
    }

    /// Times in UTC are written as such (`…Z`), with no TZID.
    static func isUTC(_ zone: Zone) -> Bool { zone.identifier == "UTC" || zone.identifier == "GMT" }

    /// A VALARM per offset, each with a UID of its own (RFC 9074), which a snooze made elsewhere
    /// names as the alarm it snoozed.
    static func alarms(_ offsets: [ReminderOffset], title: String, uid: String) -> [ICalendar.Item] {
        offsets.map { offset -> ICalendar.Item in
            let seconds = offset.exactSeconds
            let trigger = seconds == 0 ? "PT0S" : seconds % 86_400 == 0 ? "-P\(seconds / 86_400)D" : "-PT\(seconds / 60)M"
            let lines = ["UID:\(escape(uid))-alarm-\(offset)", "ACTION:DISPLAY", "DESCRIPTION:\(escape(title))", "TRIGGER:\(trigger)"]
            return .component(ICalendar.Component("VALARM", properties(lines)))
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
}
