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
        for (alarm, marks) in valarms(item) where !marks.placeholder {
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
        let marks = ICalendar.OccurrenceMarks(
            item: self.marks[item] ?? ICalendar.AlarmMarks(), series: master.map { self.marks[$0] ?? ICalendar.AlarmMarks() }, instance: instance,
            single: absoluteAlarms)
        let alarms = alarms(item, start: from, end: end, like: base, absolute: absoluteAlarms, skipping: skippingAbsolute, marks: marks)
        let shown = at ?? from
        let inWindow = shown >= window.lowerBound.adding(seconds: -timing.after) && shown <= window.upperBound.adding(seconds: timing.before)
        guard inWindow || alarms?.contains(where: window.contains) == true else { return }
        occurrences.append(
            CalendarOccurrence(
                calendar: calendar, uid: uid, kind: kind, title: title, date: day, start: at, time: time,
                alarms: alarms, instance: instance, acknowledged: marks.lastAck, hasDue: kind == .todo && shape.hasDue))
    }

    /// Each VALARM's instants, its repetitions (REPEAT, DURATION) included, less those
    /// acknowledged on another device; nil when there are none. Relative triggers count from
    /// the instance's start, or (RELATED=END) its end; absolute ones are left out of all but
    /// one instance of a repeating item, and those in `skipping` (the master's, copied into an
    /// override) are left out altogether. What was acknowledged or snoozed, and what that leaves
    /// to fire, is Core's one set of rules over the file's model (`ICalendar.OccurrenceMarks`).
    func alarms(
        _ item: OpaquePointer, start: Instant, end: Instant, like t: icaltimetype, absolute: Bool, skipping: Set<Instant> = [],
        marks: ICalendar.OccurrenceMarks
    ) -> [Instant]? {
        let f = ical.f
        let valarms = valarms(item)
        var fired: [[Instant]] = []
        for (alarm, mark) in valarms {
            fired.append([])
            guard !mark.placeholder, let trigger = f.icalcomponent_get_first_property(alarm, ICAL_TRIGGER_PROPERTY) else { continue }
            let value = f.icalproperty_get_trigger(trigger)
            var first: Instant
            if f.icaltime_is_null_time(value.time) == 0 {
                guard absolute, let at = instant(value.time), !skipping.contains(at) else { continue }
                // A snooze alarm on a series that Thunderbird's X-MOZ-SNOOZE-TIME-ID names the
                // instance of (as both are written here) is that instance's, not DTSTART's.
                if marks.instanceSnoozes.contains(at), mark.snoozes != nil { continue }
                first = at
            } else {
                let related = f.icalproperty_get_first_parameter(trigger, ICAL_RELATED_PARAMETER)
                let base = related.map { f.icalparameter_get_related($0) == ICAL_RELATED_END } == true ? end : start
                first = shift(base, by: value.duration, like: t)
            }
            fired[fired.count - 1].append(first)
            let (count, every) = repetition(alarm)
            for _ in 0..<count {
                first = shift(first, by: every, like: t)
                fired[fired.count - 1].append(first)
            }
        }
        guard !valarms.isEmpty || !marks.snoozes.isEmpty else { return nil }
        return marks.due(fired)  // two alarms at one time are one reminder (one key)
    }

    /// An item's VALARMs, each with its marks in the file's model (by their order in the item).
    func valarms(_ item: OpaquePointer) -> [(OpaquePointer, ICalendar.AlarmMarks.Alarm)] {
        let model = marks[item]?.alarms ?? []
        return children(item, ICAL_VALARM_COMPONENT).enumerated().map { ($1, $0 < model.count ? model[$0] : .unmarked) }
    }
}
