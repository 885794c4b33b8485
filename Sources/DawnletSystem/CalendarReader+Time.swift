internal import CICal
import DawnletCore
import FoundationEssentials
import Glibc

/// libical's times made ours: the zone a date-time is in, and its instant.
extension CalendarReader.FileReader {
    /// The system's zone a date-time is in (its wall times resolve there, its nominal days
    /// follow its calendar): its TZID's IANA zone, or the planning zone for a floating time or
    /// a date; nil for a custom VTIMEZONE, which only libical can read.
    func dayZone(_ t: icaltimetype) -> ZoneDayCache? {
        guard t.is_date == 0, let zone = t.zone else { return zones.planning }
        // A VTIMEZONE's TZID, or a built-in zone's location (its TZID carries a libical prefix).
        for name in [ical.f.icaltimezone_get_tzid(zone), ical.f.icaltimezone_get_location(zone)] {
            if let name, let named = zones.named(String(cString: name)) { return named }
        }
        return nil
    }

    /// The TZID of a start that names no zone libical or the system knows (libical would
    /// silently read it as floating).
    func unknownZone(_ item: OpaquePointer, _ start: icaltimetype) -> String? {
        let f = ical.f
        guard start.is_date == 0, start.zone == nil else { return nil }
        for kind in [ICAL_DUE_PROPERTY, ICAL_DTSTART_PROPERTY] {
            if let property = f.icalcomponent_get_first_property(item, kind),
                let parameter = f.icalproperty_get_first_parameter(property, ICAL_TZID_PARAMETER),
                let tzid = f.icalparameter_get_tzid(parameter)
            {
                let name = String(cString: tzid)
                return zones.named(name) == nil ? name : nil
            }
        }
        return nil
    }

    /// What an item's instances are counted from: DTSTART, else (a todo) DUE.
    func baseTime(_ item: OpaquePointer) -> icaltimetype {
        let f = ical.f
        let start = f.icalcomponent_get_dtstart(item)
        if f.icaltime_is_null_time(start) == 0 || f.icalcomponent_isa(item) != ICAL_VTODO_COMPONENT { return start }
        return f.icalcomponent_get_due(item)
    }

    /// A property's date-time with the zone its TZID names (libical attaches it for DTSTART,
    /// DTEND and DUE, not for RECURRENCE-ID, RDATE and EXDATE): the calendar's VTIMEZONE of
    /// that name, else libical's built-in zone. An unknown TZID leaves it floating.
    func zoned(_ t: icaltimetype, _ property: OpaquePointer) -> icaltimetype {
        let f = ical.f
        guard t.is_date == 0, t.zone == nil, let parameter = f.icalproperty_get_first_parameter(property, ICAL_TZID_PARAMETER),
            let tzid = f.icalparameter_get_tzid(parameter)
        else { return t }
        var zoned = t
        zoned.zone = calendarComponent.flatMap { f.icalcomponent_get_timezone($0, tzid) } ?? f.icaltimezone_get_builtin_timezone(tzid)
        return zoned
    }

    /// The instant of a date-time: through its zone (TZID, VTIMEZONE or UTC), or, floating,
    /// as a wall time in the planning zone. Nil for a date.
    func instant(_ t: icaltimetype) -> Instant? {
        if t.is_date != 0 {
            return CivilDate(year: Int(t.year), month: Int(t.month), day: Int(t.day)).map(dayStart)
        }
        guard let date = CivilDate(year: Int(t.year), month: Int(t.month), day: Int(t.day)),
            let wall = WallTime(hour: Int(t.hour), minute: Int(t.minute))
        else { return nil }
        if let named = dayZone(t) { return named.resolve(wall, on: date).instant.adding(seconds: Int64(t.second)) }
        return t.zone.map { Instant(secondsSinceEpoch: Int64(ical.f.icaltime_as_timet_with_zone(t, $0))) }
    }

    /// `at` moved as a RANGE=THISANDFUTURE override moved the instance of `from` (by `moved`
    /// seconds): by the same wall-clock time in the zone of `start`, DTSTART, so that an instance
    /// moved from 09:00 to 11:30 is followed by ones at 11:30 across a DST change too (counted
    /// from `wall`, the time the rule made, where a gap moved `at`); exactly `moved` seconds where
    /// that zone is libical's alone.
    func shifted(_ at: Instant, wall made: Int64?, from: Instant, by moved: Int64, in start: icaltimetype) -> Instant {
        guard start.is_date == 0, let zone = dayZone(start)?.zone else { return at.adding(seconds: moved) }
        func wall(_ t: Instant) -> Int64 { t.secondsSinceEpoch + Int64(zone.utcOffset(at: t)) }
        let delta = wall(from.adding(seconds: moved)) - wall(from)
        let (date, seconds) = ISO8601.split(local: (made ?? wall(at)) + delta)
        guard let time = WallTime(hour: seconds / 3600, minute: seconds / 60 % 60) else { return at.adding(seconds: moved) }
        return zone.resolve(time, on: date).instant.adding(seconds: Int64(seconds % 60))
    }

    func dayStart(_ date: CivilDate) -> Instant {
        zones.planning.resolve(WallTime.midnight, on: date).instant
    }

    /// `20261201T090000Z` (UTC) for a date-time, `20261201` for a date: the instance's name in keys.
    func instanceName(_ t: icaltimetype, at: Instant? = nil) -> String {
        if t.is_date != 0 {
            return CivilDate(year: Int(t.year), month: Int(t.month), day: Int(t.day)).map(CalendarExport.basic) ?? "invalid"
        }
        return (at ?? instant(t)).map(CalendarExport.basic) ?? "invalid"
    }
}
