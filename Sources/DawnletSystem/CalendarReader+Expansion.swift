internal import CICal
import DawnletCore
import FoundationEssentials
import Glibc

/// Items made instances: rules expanded inside the window, overrides put in place, and the
/// times each instance runs by.
extension CalendarReader.FileReader {
    /// The items of one kind: masters expanded, overrides (RECURRENCE-ID) put in place, a
    /// RANGE=THISANDFUTURE override on its instance and every later one (RFC 5545 §3.8.4.4).
    /// The same UID twice without RECURRENCE-ID (an iTIP-style file), or one instance overridden
    /// twice: the later version (see `later`).
    mutating func expand(_ items: [OpaquePointer], kind: CalendarOccurrence.Kind) {
        let f = ical.f
        var overrides: [String: [String: OpaquePointer]] = [:]
        var ranges: [String: [(Instant, OpaquePointer)]] = [:]
        var masters: [(String, OpaquePointer)] = []
        var masterIndex: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            let uid = f.icalcomponent_get_uid(item).map { String(cString: $0) } ?? "\(file.split(separator: "/").last ?? "")#\(index)"
            once(item, uid: uid)
            if let property = f.icalcomponent_get_first_property(item, ICAL_RECURRENCEID_PROPERTY) {
                let name = instanceName(zoned(f.icalproperty_get_recurrenceid(property), property))
                if let earlier = overrides[uid]?[name] {
                    let (kept, why) = later(earlier, item)
                    problem("\(uid): the instance \(name) overridden twice: \(why)")
                    overrides[uid]?[name] = kept
                } else {
                    overrides[uid, default: [:]][name] = item
                }
            } else if let earlier = masterIndex[uid] {
                let (kept, why) = later(masters[earlier].1, item)
                problem("\(uid): the same UID twice without RECURRENCE-ID: \(why)")
                masters[earlier].1 = kept
            } else {
                masterIndex[uid] = masters.count
                masters.append((uid, item))
            }
        }
        for (uid, list) in overrides {
            for item in list.values {
                guard let property = f.icalcomponent_get_first_property(item, ICAL_RECURRENCEID_PROPERTY),
                    let range = f.icalproperty_get_first_parameter(property, ICAL_RANGE_PARAMETER),
                    f.icalparameter_get_range(range) == ICAL_RANGE_THISANDFUTURE,
                    let at = instant(zoned(f.icalproperty_get_recurrenceid(property), property))
                else { continue }
                ranges[uid, default: []].append((at, item))
            }
        }
        for (uid, master) in masters {
            var replaced = overrides[uid] ?? [:]
            let thisAndFuture = (ranges[uid] ?? []).sorted { $0.0 < $1.0 }
            // What every instance of the master shares, worked out once.
            let timing = timing(master)
            // An absolute alarm fires once: the master's goes with DTSTART's instance, and the
            // same one copied into an override of another instance (as clients write them) is
            // not fired again there.
            let start = baseTime(master)
            let (firstName, masterAbsolute) = (instanceName(start, at: instant(start)), absoluteTriggers(master))
            for instance in instances(of: master, uid: uid, timing: timing) {
                if let name = instance.name, let override = replaced.removeValue(forKey: name) {
                    add(
                        override, uid: uid, kind: kind, start: nil, instance: name, skippingAbsolute: name == firstName ? [] : masterAbsolute,
                        master: master)
                } else if let at = instance.at, let (rid, override) = thisAndFuture.last(where: { $0.0 <= at }) {
                    // Later instances move as the override moved its own, and take its properties —
                    // but not its absolute alarms, which fire once, with the override's own instance.
                    let moved = instant(baseTime(override)).map { $0.secondsSinceEpoch - rid.secondsSinceEpoch } ?? 0
                    // An all-day one moves by whole days (a day across a DST change is 23 or 25 hours).
                    let days = Int((Double(moved) / 86_400).rounded())
                    add(
                        override, uid: uid, kind: kind, start: shifted(at, wall: instance.wall, from: rid, by: moved, in: start),
                        date: instance.date.adding(days: days),
                        instance: instance.name, absoluteAlarms: false, master: master)
                } else {
                    add(
                        master, uid: uid, kind: kind, start: instance.at, date: instance.date, instance: instance.name,
                        absoluteAlarms: instance.name == nil || instance.isFirst, timing: timing)
                }
            }
            // An override that moved an instance into the window from outside it.
            for (instance, override) in replaced {
                add(
                    override, uid: uid, kind: kind, start: nil, instance: instance, skippingAbsolute: instance == firstName ? [] : masterAbsolute,
                    master: master)
            }
            overrides[uid] = nil
        }
        // Overrides whose master is elsewhere (another file of the vdir, or missing).
        for (uid, list) in overrides { for (instance, item) in list { add(item, uid: uid, kind: kind, start: nil, instance: instance) } }
    }

    /// Of two versions of one item (one UID, or one UID and RECURRENCE-ID), the later, and why:
    /// the higher SEQUENCE; of equal ones, the later DTSTAMP (the revision RFC 5546 compares
    /// them by, and in a file without METHOD the same as LAST-MODIFIED), then the later
    /// LAST-MODIFIED, then the one later in the file (`other`; a stream grows at its end).
    func later(_ earlier: OpaquePointer, _ other: OpaquePointer) -> (OpaquePointer, String) {
        let f = ical.f
        let (kept, next) = (f.icalcomponent_get_sequence(earlier), f.icalcomponent_get_sequence(other))
        guard kept == next else { return (next > kept ? other : earlier, "the one of SEQUENCE \(max(kept, next)) is used") }
        let stamp = { (item: OpaquePointer) -> Instant? in
            let t = f.icalcomponent_get_dtstamp(item)
            return f.icaltime_is_null_time(t) == 0 ? self.instant(t) : nil
        }
        let modified = { (item: OpaquePointer) -> Instant? in
            f.icalcomponent_get_first_property(item, ICAL_LASTMODIFIED_PROPERTY).flatMap { self.instant(f.icalproperty_get_lastmodified($0)) }
        }
        for (name, time) in [("DTSTAMP", stamp), ("LAST-MODIFIED", modified)] {
            let (a, b) = (time(earlier), time(other))
            guard a != b else { continue }
            let otherIsLater = b.map { b in a.map { b > $0 } ?? true } ?? false
            return (otherIsLater ? other : earlier, "both of SEQUENCE \(kept), the one of the later \(name) is used")
        }
        return (other, "both of SEQUENCE \(kept) and alike in DTSTAMP and LAST-MODIFIED, the later in the file is used")
    }

    /// DTSTART, DTEND and DUE may each occur once (RFC 5545 §3.6.1, §3.6.2); libical takes the
    /// first of two: so is it here, and said.
    mutating func once(_ item: OpaquePointer, uid: String) {
        let f = ical.f
        for (kind, name) in [(ICAL_DTSTART_PROPERTY, "DTSTART"), (ICAL_DTEND_PROPERTY, "DTEND"), (ICAL_DUE_PROPERTY, "DUE")] {
            let all = properties(item, kind)
            guard all.count > 1 else { continue }
            let first = f.icalproperty_get_value_as_string(all[0]).map { String(cString: $0) } ?? ""
            problem("\(uid): \(name) \(all.count) times, where RFC 5545 allows one: the first (\(DisplayText.escaped(first))) is used")
        }
    }

    /// One instance of a master: its start (nil for a date), its date, its name in keys (nil
    /// for a single item), and whether it is DTSTART's (where absolute alarms belong).
    struct Instance {
        let at: Instant?
        let date: CivilDate
        let name: String?
        let isFirst: Bool
        /// Its wall time as the rule made it (seconds since 1970-01-01T00:00 of that clock), which
        /// a DST gap may have moved `at` from; nil for a date.
        var wall: Int64? = nil
    }

    /// The instances of a master that can matter for the window: started from DTSTART (a
    /// todo's DUE when it has none), expanded by RecurrenceRule on wall times, each put in
    /// DTSTART's zone; UNTIL compared as an instant; EXDATEs removed; RDATEs added. How far
    /// outside the window an instance can remind inside it comes from its VALARMs.
    mutating func instances(of item: OpaquePointer, uid: String, timing: Timing) -> [Instance] {
        let f = ical.f
        let start = baseTime(item)
        guard f.icaltime_is_null_time(start) == 0 else {
            problem("\(uid): no DTSTART or DUE: skipped")
            return []
        }
        if let tzid = unknownZone(item, start) {
            problem("\(uid): unknown time zone \"\(tzid)\" (no VTIMEZONE of that name, not an IANA name): skipped")
            return []
        }
        let startInstant = instant(start)
        let date = { (t: icaltimetype) in CivilDate(year: Int(t.year), month: Int(t.month), day: Int(t.day)) ?? CivilDate(dayNumber: 0) }
        let rules = properties(item, ICAL_RRULE_PROPERTY)
        let extra = properties(item, ICAL_RDATE_PROPERTY).map { property in
            let rdate = f.icalproperty_get_rdate(property)
            return zoned(f.icaltime_is_null_time(rdate.time) == 0 ? rdate.time : rdate.period.start, property)
        }
        let exdates = properties(item, ICAL_EXDATE_PROPERTY).map { zoned(f.icalproperty_get_exdate($0), $0) }
        let excluded = Set(exdates.map { instanceName($0) })
        // An EXDATE;VALUE=DATE on a rule of date-times takes out every instance of that day.
        let excludedDays = start.is_date != 0 ? [] : Set(exdates.filter { $0.is_date != 0 }.map(date))
        if rules.isEmpty && extra.isEmpty {
            // The recurrence set is DTSTART less the EXDATEs: one equal to DTSTART leaves none.
            let single = excluded.contains(instanceName(start, at: startInstant)) || excludedDays.contains(date(start))
            return single ? [] : [Instance(at: startInstant, date: date(start), name: nil, isFirst: true)]
        }
        let begin = window.lowerBound.adding(seconds: -timing.after)
        let end = window.upperBound.adding(seconds: timing.before)
        var result: [Instance] = []
        var seen = Set<String>()
        let firstName = instanceName(start, at: startInstant)
        func consider(_ t: icaltimetype, at: Instant?) {
            let name = instanceName(t, at: at)
            let first = name == firstName
            // DTSTART's instance is kept for an absolute alarm inside the window.
            guard let at, (at >= begin && at <= end) || (first && hasAbsoluteAlarm(item)) else { return }
            guard !excluded.contains(name), !excludedDays.contains(date(t)), seen.insert(name).inserted else { return }
            let wall = t.is_date != 0 ? nil : Int64(date(t).dayNumber) * 86_400 + Int64(t.hour) * 3600 + Int64(t.minute) * 60 + Int64(t.second)
            result.append(Instance(at: at, date: date(t), name: name, isFirst: first, wall: wall))
        }
        let local = LocalDateTime(
            date: date(start), secondsOfDay: start.is_date != 0 ? 0 : Int(start.hour) * 3600 + Int(start.minute) * 60 + Int(start.second))
        // Wall times a day either side of the instants: no zone is further than that from UTC.
        let from = LocalDateTime(localSeconds: begin.secondsSinceEpoch - 2 * 86_400)
        let through = LocalDateTime(localSeconds: end.secondsSinceEpoch + 2 * 86_400)
        for property in rules {
            let text = f.icalproperty_get_value_as_string(property).map { String(cString: $0) } ?? ""
            var rule: RecurrenceRule
            do {
                rule = try RecurrenceRule(parsing: text)
            } catch {
                problem("\(uid): an RRULE that cannot be used (\(error)): only its DTSTART is kept")
                continue
            }
            // MINUTELY is the RFC's own (every 15 or 20 minutes) and within the plan's budget;
            // a rule every few seconds is not something reminders can follow.
            if rule.frequency < .minutely {
                problem("\(uid): an RRULE repeating \(rule.frequency.name) is finer than reminders can follow: only its DTSTART is kept")
                continue
            }
            // A date has no hours, minutes or seconds to pick (RFC 5545 §3.3.10 forbids the parts
            // with a DATE DTSTART): they are left out, said once, and the days kept.
            if start.is_date != 0, !(rule.byHour.isEmpty && rule.byMinute.isEmpty && rule.bySecond.isEmpty) {
                problem("\(uid): BYHOUR, BYMINUTE and BYSECOND have no meaning with an all-day DTSTART: ignored")
                (rule.byHour, rule.byMinute, rule.bySecond) = ([], [], [])
            }
            // UNTIL is to have DTSTART's value type (§3.3.10); files break it both ways. A date on
            // a timed rule keeps that whole day; a time on an all-day rule, the days begun by then.
            switch (start.is_date != 0, rule.until) {
            case (false, .date?):
                problem("\(uid): UNTIL is a date while DTSTART has a time: read as the end of that day")
            case (true, .utc?), (true, .local?):
                problem("\(uid): UNTIL has a time while DTSTART is all-day: the days that begin by then are kept")
            default: break
            }
            var spent = false
            rule.forEach(start: local, from: from, through: through) { wall in
                var t = start
                let c = wall.date.components
                (t.year, t.month, t.day) = (Int32(c.year), Int32(c.month), Int32(c.day))
                if start.is_date == 0 { (t.hour, t.minute, t.second) = (Int32(wall.hour), Int32(wall.minute), Int32(wall.second)) }
                let at = instant(t)
                if rule.until?.passed(by: wall, at: at) == true { return false }
                guard budget.take() else {
                    spent = true
                    return false
                }
                consider(t, at: at)
                return true
            }
            if spent, budget.ruleCut == nil { budget.ruleCut = (calendar, uid) }
            if spent, let report = budget.report() {
                problem("\(uid): \(report): the rest of this rule, and of the calendars after it, is skipped")
            }
        }
        for t in [start] + extra { consider(t, at: instant(t)) }
        return result
    }

    /// An item's shape, and how long before and after its start an instance can remind: its
    /// VALARMs' leads (an alarm weeks ahead of its event), its length for those
    /// RELATED=END, and the eight days the kind's default reminders may reach; in seconds.
    struct Timing {
        let shape: Shape
        let before: Int64
        let after: Int64
    }

    func timing(_ item: OpaquePointer) -> Timing {
        let f = ical.f
        let shape = shape(item)
        let length = max(0, shape.lengthSeconds)
        var (before, after) = (Int64(8 * 86_400), Int64(8 * 86_400))
        for alarm in children(item, ICAL_VALARM_COMPONENT) {
            guard let trigger = f.icalcomponent_get_first_property(alarm, ICAL_TRIGGER_PROPERTY) else { continue }
            let value = f.icalproperty_get_trigger(trigger)
            guard f.icaltime_is_null_time(value.time) != 0 else { continue }
            let related =
                f.icalproperty_get_first_parameter(trigger, ICAL_RELATED_PARAMETER).map { f.icalparameter_get_related($0) == ICAL_RELATED_END } == true
            let offset = Int64(f.icaldurationtype_as_int(value.duration)) + (related ? length : 0)
            let repeats = repetition(alarm)
            let last = offset + Int64(repeats.count) * Int64(f.icaldurationtype_as_int(repeats.every))
            before = max(before, -min(offset, last) + 86_400)
            after = max(after, max(offset, last) + 86_400)
        }
        return Timing(shape: shape, before: before, after: after)
    }

    /// The times an item's instance runs by: what it starts from (DTSTART, or a todo's DUE
    /// without one), when a todo is due (`dueSeconds` after it), and its end (DTEND or DUE:
    /// the same exact length for every instance; DURATION: nominal days on the calendar).
    struct Shape {
        /// A todo's DUE is given.
        var hasDue = false
        var dueSeconds: Int64 = 0
        var exactLength: Int64?
        var nominalLength: icaldurationtype?
        var lengthSeconds: Int64 { exactLength ?? 0 }
    }

    func shape(_ item: OpaquePointer) -> Shape {
        let f = ical.f
        var shape = Shape()
        let start = baseTime(item)
        guard let from = instant(start) else { return shape }
        if f.icalcomponent_isa(item) == ICAL_VTODO_COMPONENT {
            let due = f.icalcomponent_get_due(item)
            if f.icaltime_is_null_time(due) == 0, let at = instant(due) {
                shape.hasDue = true
                shape.dueSeconds = at.secondsSinceEpoch - from.secondsSinceEpoch
                shape.exactLength = shape.dueSeconds
                return shape
            }
        } else if f.icalcomponent_get_first_property(item, ICAL_DTEND_PROPERTY) != nil,
            let end = instant(f.icalcomponent_get_dtend(item))
        {
            shape.exactLength = end.secondsSinceEpoch - from.secondsSinceEpoch
            return shape
        }
        if let property = f.icalcomponent_get_first_property(item, ICAL_DURATION_PROPERTY) {
            let duration = f.icalproperty_get_duration(property)
            shape.nominalLength = duration
            shape.exactLength = Int64(f.icaldurationtype_as_int(duration))
        }
        return shape
    }

    /// `base` moved by an iCalendar duration: its weeks and days on the calendar of `t`'s zone
    /// (the same wall time, RFC 5545 §3.3.6: a day is nominal), then its hours, minutes and
    /// seconds exactly. For a custom VTIMEZONE a day is 86,400 s.
    func shift(_ base: Instant, by duration: icaldurationtype, like t: icaltimetype) -> Instant {
        let sign: Int64 = duration.is_neg != 0 ? -1 : 1
        let days = Int(duration.weeks) * 7 + Int(duration.days)
        let exact = sign * (Int64(duration.hours) * 3600 + Int64(duration.minutes) * 60 + Int64(duration.seconds))
        var moved = base
        if days != 0 {
            if let zone = dayZone(t) {
                let local = ISO8601.localDate(of: base, in: zone.zone)
                let wall = WallTime(hour: local.secondsOfDay / 3600, minute: local.secondsOfDay / 60 % 60)!
                moved = zone.resolve(wall, on: local.date.adding(days: Int(sign) * days)).instant.adding(seconds: Int64(local.secondsOfDay % 60))
            } else {
                moved = base.adding(seconds: sign * Int64(days) * 86_400)
            }
        }
        return moved.adding(seconds: exact)
    }
}
