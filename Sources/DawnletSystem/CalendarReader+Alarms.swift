internal import CICal
import DawnletCore
import FoundationEssentials
import Glibc

/// An instance made an occurrence, with its alarms and what acknowledged or snoozed them.
extension CalendarReader.FileReader {
    func hasAbsoluteAlarm(_ item: OpaquePointer) -> Bool { !absoluteTriggers(item).isEmpty }

    /// The instants of an item's absolute TRIGGERs (VALUE=DATE-TIME).
    func absoluteTriggers(_ item: OpaquePointer) -> Set<Instant> {
        let f = ical.f
        var found = Set<Instant>()
        for alarm in children(item, ICAL_VALARM_COMPONENT) where !isPlaceholder(alarm) {
            guard let trigger = f.icalcomponent_get_first_property(alarm, ICAL_TRIGGER_PROPERTY) else { continue }
            let time = f.icalproperty_get_trigger(trigger).time
            if f.icaltime_is_null_time(time) == 0, let at = instant(time) { found.insert(at) }
        }
        return found
    }

    /// An alarm's REPEAT and DURATION: how many more times it fires, and how far apart.
    func repetition(_ alarm: OpaquePointer) -> (count: Int, every: icaldurationtype) {
        let f = ical.f
        guard let repeatProperty = f.icalcomponent_get_first_property(alarm, ICAL_REPEAT_PROPERTY),
            let durationProperty = f.icalcomponent_get_first_property(alarm, ICAL_DURATION_PROPERTY)
        else { return (0, icaldurationtype()) }
        let every = f.icalproperty_get_duration(durationProperty)
        let count = Int(f.icalproperty_get_repeat(repeatProperty))
        // At most a hundred repetitions, and none of no length.
        return f.icaldurationtype_as_int(every) > 0 ? (min(max(count, 0), 100), every) : (0, every)
    }

    /// One instance, unless cancelled or completed. `start` is the instance's own start as
    /// its master's rule gives it (nil: the item's own, for an override, whose `master` is its
    /// series, where Thunderbird keeps an instance's acknowledgement and snooze); a todo's
    /// reminder time is its due, that far after. Absolute alarms of a repeating item go with the
    /// instance of DTSTART only: RFC 5545 gives them one time, not one per instance.
    mutating func add(
        _ item: OpaquePointer, uid: String, kind: CalendarOccurrence.Kind, start: Instant?, date: CivilDate? = nil,
        instance: String?, absoluteAlarms: Bool = true, skippingAbsolute: Set<Instant> = [], timing: Timing? = nil,
        master: OpaquePointer? = nil
    ) {
        let f = ical.f
        let status = f.icalcomponent_get_status(item)
        if status == ICAL_STATUS_CANCELLED || status == ICAL_STATUS_COMPLETED { return }
        if kind == .todo, f.icalcomponent_get_first_property(item, ICAL_COMPLETED_PROPERTY) != nil { return }
        let base = baseTime(item)
        guard f.icaltime_is_null_time(base) == 0,
            let ownDate = CivilDate(year: Int(base.year), month: Int(base.month), day: Int(base.day))
        else { return }
        let timing = timing ?? self.timing(item)
        let shape = timing.shape
        let title = f.icalcomponent_get_summary(item).map { DisplayText.bounded(String(cString: $0), to: CalendarReader.longestTitle) } ?? "(untitled)"
        let isDate = base.is_date != 0
        let from = isDate ? dayStart(date ?? ownDate) : (start ?? instant(base))
        guard let from else { return }
        let end = shape.nominalLength.map { shift(from, by: $0, like: base) } ?? from.adding(seconds: shape.lengthSeconds)
        var at: Instant?
        var time: WallTime?
        var day = date ?? ownDate
        // A todo is about its DUE, all-day as timed: on DUE's date (as many days after DTSTART).
        if isDate, kind == .todo, shape.dueSeconds != 0 { day = day.adding(days: Int((Double(shape.dueSeconds) / 86_400).rounded())) }
        if !isDate {
            let due = from.adding(seconds: shape.dueSeconds)
            at = due
            let local = ISO8601.localDate(of: due, in: zone)
            day = local.date
            time = WallTime(hour: local.secondsOfDay / 3600, minute: local.secondsOfDay / 60 % 60)
        }
        let mozilla = mozilla(item, master: master, instance: instance, absolute: absoluteAlarms)
        let alarms = alarms(item, start: from, end: end, like: base, absolute: absoluteAlarms, skipping: skippingAbsolute, mozilla: mozilla)
        let shown = at ?? from
        let inWindow = shown >= window.lowerBound.adding(seconds: -timing.after) && shown <= window.upperBound.adding(seconds: timing.before)
        guard inWindow || alarms?.contains(where: window.contains) == true else { return }
        occurrences.append(
            CalendarOccurrence(
                calendar: calendar, uid: uid, kind: kind, title: title, date: day, start: at, time: time,
                alarms: alarms, instance: instance, acknowledged: mozilla.lastAck, hasDue: kind == .todo && shape.hasDue))
    }

    /// Each VALARM's instants, its repetitions (REPEAT, DURATION) included, less those
    /// acknowledged on another device; nil when there are none. Relative triggers count from
    /// the instance's start, or (RELATED=END) its end; absolute ones are left out of all but
    /// one instance of a repeating item, and those in `skipping` (the master's, copied into an
    /// override) are left out altogether.
    ///
    /// Acknowledged (RFC 9074 and Thunderbird): an instant at or before its VALARM's
    /// ACKNOWLEDGED, or the item's X-MOZ-LASTACK, does not fire. A snooze fires at its time and
    /// acknowledges what it snoozed: an RFC 9074 snooze alarm (RELATED-TO;RELTYPE=SNOOZE naming
    /// its parent VALARM's UID) acknowledges its parent up to it; Thunderbird's
    /// X-MOZ-SNOOZE-TIME (X-MOZ-SNOOZE-TIME-µs for one instance of a repeating item) comes with
    /// an X-MOZ-LASTACK.
    func alarms(
        _ item: OpaquePointer, start: Instant, end: Instant, like t: icaltimetype, absolute: Bool, skipping: Set<Instant> = [],
        mozilla: Mozilla
    ) -> [Instant]? {
        let f = ical.f
        let valarms = children(item, ICAL_VALARM_COMPONENT)
        let (lastAck, snoozes) = (mozilla.lastAck, mozilla.snoozes)
        var fired: [(instant: Instant, acknowledged: Instant?, uid: String?)] = []
        var snoozedParents: [String: Instant] = [:]
        for alarm in valarms where !isPlaceholder(alarm) {
            guard let trigger = f.icalcomponent_get_first_property(alarm, ICAL_TRIGGER_PROPERTY) else { continue }
            let value = f.icalproperty_get_trigger(trigger)
            var first: Instant
            if f.icaltime_is_null_time(value.time) == 0 {
                guard absolute, let at = instant(value.time), !skipping.contains(at) else { continue }
                // A snooze alarm on a series that Thunderbird's X-MOZ-SNOOZE-TIME-ID names the
                // instance of (as both are written here) is that instance's, not DTSTART's.
                if mozilla.instanceSnoozes.contains(at), snoozedParent(alarm) != nil { continue }
                first = at
            } else {
                let related = f.icalproperty_get_first_parameter(trigger, ICAL_RELATED_PARAMETER)
                let base = related.map { f.icalparameter_get_related($0) == ICAL_RELATED_END } == true ? end : start
                first = shift(base, by: value.duration, like: t)
            }
            let acknowledged = f.icalcomponent_get_first_property(alarm, ICAL_ACKNOWLEDGED_PROPERTY).flatMap {
                instant(f.icalproperty_get_acknowledged($0))
            }
            if let parent = snoozedParent(alarm) { snoozedParents[parent] = max(snoozedParents[parent] ?? first, first) }
            let uid = f.icalcomponent_get_uid(alarm).map { String(cString: $0) }
            fired.append((first, acknowledged, uid))
            let (count, every) = repetition(alarm)
            for _ in 0..<count {
                first = shift(first, by: every, like: t)
                fired.append((first, acknowledged, uid))
            }
        }
        guard !valarms.isEmpty || !snoozes.isEmpty else { return nil }
        var result = snoozes.filter { snooze in lastAck.map { snooze > $0 } ?? true }
        for alarm in fired {
            let until = [alarm.acknowledged, lastAck, alarm.uid.flatMap { snoozedParents[$0] }].compactMap { $0 }.max()
            if until.map({ alarm.instant > $0 }) ?? true { result.append(alarm.instant) }
        }
        return Array(Set(result)).sorted()  // two alarms at one time are one reminder (one key)
    }

    /// Thunderbird's marks on an instance: X-MOZ-LASTACK, the item's or (an override) its
    /// `master`'s, where Thunderbird acknowledges every instance; and the X-MOZ-SNOOZE-TIME that
    /// applies to the instance: the plain one on a single item (`absolute`: DTSTART's instance),
    /// or X-MOZ-SNOOZE-TIME-ID on the series or the override, ID naming the instance named
    /// `instance` (`snoozeNames`).
    func mozilla(_ item: OpaquePointer, master: OpaquePointer?, instance: String?, absolute: Bool) -> Mozilla {
        let f = ical.f
        let names = instance.map(Self.snoozeNames) ?? []
        var lastAck: Instant?
        var snoozes: [Instant] = []
        var instanceSnoozes: Set<Instant> = []
        for component in [item] + (master.map { [$0] } ?? []) {
            for property in properties(component, ICAL_X_PROPERTY) {
                guard let name = f.icalproperty_get_x_name(property).map({ String(cString: $0).uppercased() }),
                    let value = f.icalproperty_get_x(property).map({ String(cString: $0) }),
                    case .utc(let at)? = RecurrenceRule.until(value)
                else { continue }
                if name == "X-MOZ-LASTACK" {
                    lastAck = max(lastAck ?? at, at)
                } else if name == "X-MOZ-SNOOZE-TIME" ? absolute && component == item : names.contains(name) {
                    snoozes.append(at)
                }
                if name.hasPrefix("X-MOZ-SNOOZE-TIME-") { instanceSnoozes.insert(at) }
            }
        }
        return Mozilla(lastAck: lastAck, snoozes: snoozes, instanceSnoozes: instanceSnoozes)
    }

    /// Thunderbird's marks on one instance: its acknowledgement, its snoozes, and the times of
    /// every instance's snooze (X-MOZ-SNOOZE-TIME-ID, whichever instance ID names).
    struct Mozilla {
        let lastAck: Instant?
        let snoozes: [Instant]
        let instanceSnoozes: Set<Instant>
    }

    /// The names an X-MOZ-SNOOZE-TIME for the instance named `instance` (`20261201T090000Z`,
    /// `20261201`) may have: its RECURRENCE-ID in microseconds since 1970, as Thunderbird writes
    /// it (a date's at its midnight in UTC), in milliseconds or seconds, or as the value itself.
    static func snoozeNames(_ instance: String) -> Set<String> {
        var ids: Set<String> = [instance]
        let seconds: Int64? =
            switch RecurrenceRule.until(instance) {
            case .utc(let at)?: at.secondsSinceEpoch
            case .date(let date)?: Zone.utc.resolve(WallTime.midnight, on: date).instant.secondsSinceEpoch
            default: nil
            }
        if let seconds { ids.formUnion(["\(seconds * 1_000_000)", "\(seconds * 1000)", "\(seconds)"]) }
        return Set(ids.map { "X-MOZ-SNOOZE-TIME-\($0)" })
    }

    /// An alarm that never fires: `ACTION:NONE` (RFC 9074), as Apple's Calendar writes for
    /// "no default alarm". It still counts as the item's alarm: the item gets no default reminder.
    func isPlaceholder(_ alarm: OpaquePointer) -> Bool {
        let f = ical.f
        guard let action = f.icalcomponent_get_first_property(alarm, ICAL_ACTION_PROPERTY),
            let text = f.icalproperty_get_value_as_string(action)
        else { return false }
        return String(cString: text).uppercased() == "NONE"
    }

    /// The UID of the VALARM this one snoozes (RFC 9074: RELATED-TO;RELTYPE=SNOOZE; Apple's
    /// Calendar writes RELATED-TO without RELTYPE, which in a VALARM names the same), if any.
    func snoozedParent(_ alarm: OpaquePointer) -> String? {
        let f = ical.f
        for property in properties(alarm, ICAL_RELATEDTO_PROPERTY) {
            let type = f.icalproperty_get_first_parameter(property, ICAL_RELTYPE_PARAMETER)
            if let type, f.icalparameter_as_ical_string(type).map({ String(cString: $0).uppercased().hasSuffix("=SNOOZE") }) != true { continue }
            guard let parent = f.icalproperty_get_relatedto(property) else { continue }
            return String(cString: parent)
        }
        return nil
    }
}
