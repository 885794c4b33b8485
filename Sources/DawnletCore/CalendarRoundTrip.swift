/// Our own exported items, met again after other devices had them (docs/calendars.md, "Your items
/// on other devices"): what a file says in our terms (`facts`), what another device changed since
/// we wrote it (`changes`), and the file to write next, which keeps everything they wrote
/// (`merge`). Pure: files as their model (`ICalendar`) in, values or a model out; the store and
/// the files are the caller's.
public enum CalendarRoundTrip {
    typealias Line = ICalendar.Property
    typealias Component = ICalendar.Component

    /// One instance of a repeating item, as a file says it.
    public struct Instance: Hashable, Sendable {
        public var status: OccurrenceStatus = .open
        /// Its start when moved within its day; nil: the series' time.
        public var time: WallTime?
        /// The day it was moved to, when another than its own (which dawnlet does not keep).
        public var movedTo: CivilDate?
        /// When it was last changed: its component's LAST-MODIFIED, else DTSTAMP.
        public var changedAt: Instant?

        public init() {}

        /// The same instance, whenever it was changed.
        func same(_ other: Instance) -> Bool { status == other.status && time == other.time && movedTo == other.movedTo }
    }

    /// What an exported file says, in the zone's dates and times.
    public struct Facts: Sendable {
        /// Whether the file holds the item itself (its component without RECURRENCE-ID): an
        /// empty, cut-short or instances-only file says nothing of what was done to it.
        public var hasSeries = false
        public var repeating = false
        /// A one-off's day and time (its DUE, or an event's DTSTART), and whether it is done.
        public var date: CivilDate?
        public var time: WallTime?
        public var done = false
        /// The series' time of day, which an instance moved back to takes.
        public var seriesTime: WallTime?
        /// The instances that differ from the series: skipped (EXDATE), done, or moved.
        public var instances: [CivilDate: Instance] = [:]
        /// When the item (its series) was last changed.
        public var changedAt: Instant?
        /// Its note, location, link, priority and tags.
        public var details = ItemDetails()
        /// The latest ACKNOWLEDGED of its alarms, or X-MOZ-LASTACK: alarms up to then were seen.
        public var acknowledged: Instant?
        /// The snoozes written into it (RFC 9074 snooze alarms, X-MOZ-SNOOZE-TIME) not yet seen.
        public var snoozes: Set<Instant> = []
        /// The alarm each RFC 9074 snooze names (its RELATED-TO: the UID of the VALARM it snoozed).
        public var snoozedAlarms: [Instant: String] = [:]
        /// When each snooze was made: the ACKNOWLEDGED the snooze wrote into the alarm it snoozed,
        /// else the item's X-MOZ-LASTACK, else when the item was last changed.
        public var snoozedAt: [Instant: Instant] = [:]

        public init() {}
    }

    /// What another device did to an item, and when (its LAST-MODIFIED, else DTSTAMP).
    public struct Change: Hashable, Sendable {
        public enum What: Hashable, Sendable {
            /// A one-off (date nil) or an instance marked done, skipped or open again.
            case status(CivilDate?, OccurrenceStatus)
            /// An instance moved within its day.
            case time(CivilDate, WallTime)
            /// A one-off moved (date nil), or an instance moved to another day.
            case moved(CivilDate?, to: CivilDate, WallTime?)
            /// Its alarms up to this instant acknowledged.
            case acknowledged(Instant)
            /// An alarm snoozed until this instant: the one of that UID (RFC 9074's RELATED-TO), or
            /// (nil) the item's.
            case snoozed(Instant, alarm: String?)
            /// Its note, location, link, priority or tags changed: all of them as they are now.
            case details(ItemDetails)
        }

        public let what: What
        public let at: Instant?
    }

    // MARK: Reading a file

    /// What `text` says of the item. A time in another zone than `zone` is converted by
    /// `zones` (nil: that start is not understood, and left as it was).
    public static func facts(_ text: String, zone: Zone, zones: (String) -> Zone? = { _ in nil }) -> Facts {
        facts(ICalendar.Document(parsing: text), zone: zone, zones: zones)
    }

    /// What `document` says of the item.
    public static func facts(_ document: ICalendar.Document, zone: Zone, zones: (String) -> Zone? = { _ in nil }) -> Facts {
        var facts = Facts()
        var overrides: [(id: Line, component: Component)] = []
        for component in document.calendarItems() {
            let changed = component.first("LAST-MODIFIED").flatMap(utc) ?? component.first("DTSTAMP").flatMap(utc)
            // What was acknowledged and snoozed: the rules the reader follows too.
            let marks = ICalendar.AlarmMarks(component)
            facts.acknowledged = [facts.acknowledged, marks.acknowledged].compactMap { $0 }.max()
            for snooze in marks.pending where snooze.alarm != nil || !facts.snoozes.contains(snooze.until) {
                facts.snoozes.insert(snooze.until)
                facts.snoozedAlarms[snooze.until] = snooze.alarm
                facts.snoozedAt[snooze.until] = snooze.madeAt ?? changed
            }
            if let id = component.first("RECURRENCE-ID") {
                overrides.append((id, component))
                continue
            }
            facts.changedAt = changed
            facts.hasSeries = true
            facts.repeating = component.first("RRULE") != nil
            let start = (component.first("DTSTART") ?? component.first("DUE")).flatMap { local($0, zone, zones) }
            if component.name == "VTODO", !facts.repeating, let due = component.first("DUE").flatMap({ local($0, zone, zones) }) {
                (facts.date, facts.time) = (due.date, due.time)
            } else {
                (facts.date, facts.time) = (start?.date, start?.time)
            }
            facts.seriesTime = start?.time
            facts.done = component.first("STATUS")?.value.uppercased() == "COMPLETED"
            facts.details = details(component)
            for line in component.properties where line.name == "EXDATE" {
                for value in line.value.split(separator: ",") {
                    guard let day = local(line.with(value: String(value)), zone, zones) else { continue }
                    facts.instances[day.date, default: Instance()].status = .skipped
                    facts.instances[day.date]?.changedAt = changed
                }
            }
        }
        for (id, component) in overrides {
            guard let original = local(id, zone, zones) else { continue }
            var instance = facts.instances[original.date] ?? Instance()
            let status = component.first("STATUS")?.value.uppercased()
            if status == "COMPLETED" { instance.status = .done }
            if status == "CANCELLED" { instance.status = .skipped }
            if let start = (component.first("DTSTART") ?? component.first("DUE")).flatMap({ local($0, zone, zones) }) {
                if start.date != original.date {
                    (instance.movedTo, instance.time) = (start.date, start.time)
                } else if start.time != original.time {
                    instance.time = start.time
                }
            }
            instance.changedAt = component.first("LAST-MODIFIED").flatMap(utc) ?? component.first("DTSTAMP").flatMap(utc)
            facts.instances[original.date] = instance
        }
        return facts
    }

    /// A UTC DATE-TIME value (`20261201T080000Z`) as an instant.
    static func utc(_ line: Line) -> Instant? { line.utc }

    /// A DATE or DATE-TIME value as a day and time of `zone`: a date, a UTC time, a time of its
    /// TZID (converted when that is another zone), or a floating time.
    static func local(_ line: Line, _ zone: Zone, _ zones: (String) -> Zone?) -> (date: CivilDate, time: WallTime?)? {
        switch RecurrenceRule.until(line.value) {
        case .date(let date)?:
            return (date, nil)
        case .utc(let at)?:
            let (date, seconds) = ISO8601.localDate(of: at, in: zone)
            return (date, WallTime(hour: seconds / 3600, minute: seconds / 60 % 60))
        case .local(let wall)?:
            let time = WallTime(hour: wall.hour, minute: wall.minute)
            guard let tzid = line.parameter("TZID"), tzid != zone.identifier else { return (wall.date, time) }
            guard let other = zones(tzid), let time else { return nil }
            let (date, seconds) = ISO8601.localDate(of: other.resolve(time, on: wall.date).instant, in: zone)
            return (date, WallTime(hour: seconds / 3600, minute: seconds / 60 % 60))
        case nil:
            return nil
        }
    }

    // MARK: What changed elsewhere

    /// What `file` says differently from `base` (the text last written): another device's doing.
    /// A change of the series itself (its rule, its start) is not among them.
    public static func changes(base: Facts, file: Facts) -> [Change] {
        var result: [Change] = []
        if !file.repeating && !base.repeating {
            if file.done != base.done { result.append(Change(what: .status(nil, file.done ? .done : .open), at: file.changedAt)) }
            if let date = file.date, date != base.date || file.time != base.time {
                result.append(Change(what: .moved(nil, to: date, file.time), at: file.changedAt))
            }
        } else if file.repeating && base.repeating {
            for date in Set(file.instances.keys).union(base.instances.keys).sorted() {
                let mine = base.instances[date] ?? Instance()
                var theirs = file.instances[date] ?? Instance()
                if theirs.changedAt == nil { theirs.changedAt = file.changedAt }
                if theirs.status != mine.status { result.append(Change(what: .status(date, theirs.status), at: theirs.changedAt)) }
                if let to = theirs.movedTo, to != mine.movedTo || theirs.time != mine.time {
                    result.append(Change(what: .moved(date, to: to, theirs.time), at: theirs.changedAt))
                } else if theirs.movedTo == nil, theirs.status != .skipped, theirs.time != mine.time, let time = theirs.time ?? file.seriesTime {
                    result.append(Change(what: .time(date, time), at: theirs.changedAt))
                }
            }
        }
        if file.hasSeries && base.hasSeries && file.details != base.details {
            result.append(Change(what: .details(file.details), at: file.changedAt))
        }
        if let acknowledged = file.acknowledged, acknowledged > (base.acknowledged ?? Instant(secondsSinceEpoch: .min)) {
            result.append(Change(what: .acknowledged(acknowledged), at: acknowledged))
        }
        for until in file.snoozes.subtracting(base.snoozes).sorted() {
            result.append(Change(what: .snoozed(until, alarm: file.snoozedAlarms[until]), at: file.snoozedAt[until]))
        }
        return result
    }

    /// Whether `file` is an older copy of what was written last (`written`), as a sync conflict
    /// resolved with a stale version leaves it: its latest stamp (LAST-MODIFIED or DTSTAMP of any
    /// of its components) is before the latest of what was written, and its SEQUENCE no higher.
    /// A real edit elsewhere stamps it now, or keeps the stamp it found; either is not before.
    public static func isStale(_ file: ICalendar.Document, written: ICalendar.Document) -> Bool {
        func stamps(_ document: ICalendar.Document) -> (latest: Instant?, sequence: Int) {
            var latest: Instant?, sequence = 0
            for component in document.calendarItems() {
                for name in ["LAST-MODIFIED", "DTSTAMP"] {
                    if let at = component.first(name).flatMap(utc) { latest = max(latest ?? at, at) }
                }
                sequence = max(sequence, component.first("SEQUENCE").flatMap { Int($0.value) } ?? 0)
            }
            return (latest, sequence)
        }
        let (theirs, ours) = (stamps(file), stamps(written))
        guard let there = theirs.latest, let here = ours.latest else { return false }
        return there < here && theirs.sequence <= ours.sequence
    }

    /// Whether so many of our files went from the folder at once (`gone` of the `total` this
    /// folder's records know) that it looks like the folder emptied, unmounted or half synced,
    /// not deletions: more than 3, or 2 or 3 that are more than a quarter of them, or the last
    /// of them. Those are held, not deleted here.
    public static func holdsDeletions(gone: Int, of total: Int) -> Bool {
        gone > 3 || (gone > 1 && gone * 4 > total) || (gone > 0 && gone >= total)
    }

    /// Whether `ours` (the item as it is here) changed `change`'s subject since `base` to
    /// something else than the change says: the two disagree, and the later one wins.
    public static func conflicts(_ change: Change, ours: Facts, base: Facts) -> Bool {
        switch change.what {
        case .status(nil, let status):
            return ours.done != base.done && (ours.done ? OccurrenceStatus.done : .open) != status
        case .moved(nil, let date, let time):
            return (ours.date != base.date || ours.time != base.time) && (ours.date != date || ours.time != time)
        case .status(let date?, let status):
            let mine = ours.instances[date] ?? Instance(), before = base.instances[date] ?? Instance()
            return mine.status != before.status && mine.status != status
        case .time(let date, let time):
            let mine = ours.instances[date] ?? Instance(), before = base.instances[date] ?? Instance()
            return mine.time != before.time && (mine.time ?? ours.seriesTime) != time
        case .moved(let date?, _, _):
            let mine = ours.instances[date] ?? Instance(), before = base.instances[date] ?? Instance()
            return !mine.same(before)
        case .details(let details):
            return ours.details != base.details && ours.details != details
        case .acknowledged, .snoozed:
            return false
        }
    }
}
