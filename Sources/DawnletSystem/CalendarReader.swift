import CICal
import Glibc
import DawnletCore
import FoundationEssentials

/// libical, loaded on first use (see Sources/CICal/shim.h for why it is not linked).
final class ICal: @unchecked Sendable {
    let f: dawnlet_ical

    static let shared: Result<ICal, CalendarProblem> = {
        var table = dawnlet_ical()
        if let missing = dawnlet_ical_load(&table) {
            return .failure(CalendarProblem(file: "libical.so.3", "cannot be loaded (install libical3): \(String(cString: missing))"))
        }
        // A malformed file must be reported, never abort the process.
        table.icalerror_set_errors_are_fatal!(0)
        return .success(ICal(table))
    }()

    private init(_ f: dawnlet_ical) { self.f = f }
}

/// Reads an iCalendar file, or a vdir (a folder of them), with libical and expands its events and
/// todos for a window (DESIGN §8): DTSTART/DTEND/DURATION/DUE, all-day dates, TZID with embedded
/// VTIMEZONEs, UTC and floating times, RRULE, RDATE, EXDATE, RECURRENCE-ID overrides, cancelled
/// events and completed todos left out, VALARMs relative to start or end, or absolute. A file or
/// item that cannot be used is reported and skipped; the rest is still read.
public enum CalendarReader {
    /// Larger files are reported and skipped unread.
    public static let maximumFileBytes = 16 << 20
    /// What one plan may spend on all its calendars together: instances expanded (counted as
    /// libical makes them, before the window is applied) and time. What exceeds it is reported
    /// once and skipped; what was read before is planned.
    public final class Budget {
        public private(set) var instances: Int
        private let limit: Int
        private let deadline: UInt64
        private var reported = false
        public let seconds: Double
        /// The one report of the budget running out, once it has.
        public private(set) var spent: String?

        public init(instances: Int = 100_000, seconds: Double = 2) {
            self.instances = instances
            limit = instances
            self.seconds = seconds
            deadline = Budget.monotonicNanoseconds() + UInt64(seconds * 1e9)
        }

        /// Takes one instance; false once the budget is spent (its report made the first time).
        func take() -> Bool {
            guard spent == nil else { return false }
            instances -= 1
            if instances < 0 {
                spent = "the plan's calendar budget of \(limit) instances is spent"
            } else if instances & 1023 == 0 && Budget.monotonicNanoseconds() > deadline {
                spent = "the plan's calendar budget of \(seconds) s is spent"
            }
            return spent == nil
        }

        /// What ran out, the first time it is asked after that; nil before and after.
        func report() -> String? {
            guard let spent, !reported else { return nil }
            reported = true
            return spent
        }

        /// False once the budget is spent; checks the clock.
        var left: Bool {
            if spent == nil && Budget.monotonicNanoseconds() > deadline { spent = "the plan's calendar budget of \(seconds) s is spent" }
            return spent == nil
        }

        private static func monotonicNanoseconds() -> UInt64 {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
        }
    }

    /// A title longer than this (in characters) is shown cut, ending in "…".
    public static let longestTitle = 500

    public struct Result: Sendable {
        public var occurrences: [CalendarOccurrence] = []
        public var problems: [CalendarProblem] = []
    }

    /// Instances of `name`'s items starting inside `window`, times in `zone`; what it costs is
    /// taken from `budget` (share one across the calendars of a plan).
    public static func read(name: String, path: String, window: ClosedRange<Instant>, zone: Zone,
                            zones database: ZoneDatabase = .system, budget: Budget = Budget()) -> Result {
        var result = Result()
        let ical: ICal
        switch ICal.shared {
        case .success(let loaded): ical = loaded
        case .failure(let problem):
            result.problems.append(problem)
            return result
        }
        var isFolder = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            result.problems.append(CalendarProblem(file: path, "no such file or folder"))
            return result
        }
        var files = [path]
        if isFolder {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            files = names.filter { $0.lowercased().hasSuffix(".ics") && !$0.hasPrefix(".") }.sorted().map { "\(path)/\($0)" }
        }
        let zones = Zones(zone, database)
        for (index, file) in files.enumerated() {
            guard budget.left else {
                let skipped = files.count - index
                result.problems.append(CalendarProblem(file: path, "\(budget.spent ?? ""): \(skipped) file\(skipped == 1 ? "" : "s") not read"))
                break
            }
            var reader = FileReader(ical: ical, calendar: name, file: file, window: window, zone: zone, zones: zones, budget: budget)
            reader.read()
            result.occurrences += reader.occurrences
            result.problems += reader.problems
        }
        return result
    }

    /// `SECONDLY`, `MINUTELY`, …: a rule's FREQ as RFC 5545 spells it.
    static func frequency(_ freq: icalrecurrencetype_frequency) -> String {
        switch freq {
        case ICAL_SECONDLY_RECURRENCE: "SECONDLY"
        case ICAL_MINUTELY_RECURRENCE: "MINUTELY"
        case ICAL_HOURLY_RECURRENCE: "HOURLY"
        case ICAL_DAILY_RECURRENCE: "DAILY"
        case ICAL_WEEKLY_RECURRENCE: "WEEKLY"
        case ICAL_MONTHLY_RECURRENCE: "MONTHLY"
        case ICAL_YEARLY_RECURRENCE: "YEARLY"
        default: "with no FREQ"
        }
    }

    /// TZIDs that name an IANA zone are converted with the system's tzdata (as calendar programs
    /// do), per day through a cache: libical would expand each file's VTIMEZONE from 1970 again.
    /// Other TZIDs (custom names) go through libical and their VTIMEZONE.
    final class Zones {
        let planning: ZoneDayCache
        let database: ZoneDatabase
        private var known: [String: ZoneDayCache?] = [:]

        init(_ zone: Zone, _ database: ZoneDatabase) {
            planning = ZoneDayCache(zone: zone)
            self.database = database
        }

        func named(_ tzid: String) -> ZoneDayCache? {
            if let cached = known[tzid] { return cached }
            let zone = tzid == planning.zone.identifier ? planning : (try? database.zone(named: tzid)).map { ZoneDayCache(zone: $0) }
            known.updateValue(zone, forKey: tzid)  // nil too: a name that is no IANA zone is asked once
            return zone
        }
    }

    /// One file: parse, then each VEVENT and VTODO.
    struct FileReader {
        let ical: ICal
        let calendar: String
        let file: String
        let window: ClosedRange<Instant>
        let zone: Zone
        var occurrences: [CalendarOccurrence] = []
        var problems: [CalendarProblem] = []
        /// The VCALENDAR being read: its VTIMEZONEs resolve TZIDs.
        var calendarComponent: OpaquePointer?

        let zones: Zones
        let budget: Budget

        init(ical: ICal, calendar: String, file: String, window: ClosedRange<Instant>, zone: Zone, zones: Zones, budget: Budget) {
            self.zones = zones
            self.budget = budget
            self.ical = ical
            self.calendar = calendar
            self.file = file
            self.window = window
            self.zone = zone
        }

        mutating func problem(_ message: String) {
            problems.append(CalendarProblem(file: file, message))
        }

        /// A component's subcomponents of a kind, collected first: libical's iteration state lives
        /// in the parent, so nothing may iterate the same parent while these are used.
        func children(_ component: OpaquePointer, _ kind: icalcomponent_kind) -> [OpaquePointer] {
            var result: [OpaquePointer] = []
            var c = ical.f.icalcomponent_get_first_component!(component, kind)
            while let child = c {
                result.append(child)
                c = ical.f.icalcomponent_get_next_component!(component, kind)
            }
            return result
        }

        /// A component's properties of a kind, collected first (as for `children`).
        func properties(_ component: OpaquePointer, _ kind: icalproperty_kind) -> [OpaquePointer] {
            var result: [OpaquePointer] = []
            var p = ical.f.icalcomponent_get_first_property!(component, kind)
            while let property = p {
                result.append(property)
                p = ical.f.icalcomponent_get_next_property!(component, kind)
            }
            return result
        }

        mutating func read() {
            let f = ical.f
            // One stat, one open, one fstat, one read: a vdir is thousands of small files.
            var bytes: [UInt8]
            switch RegularFile.read(file, limit: CalendarReader.maximumFileBytes) {
            case .success(let read): bytes = read
            case .failure(let failure):
                switch failure {
                case .notRegular, .tooLarge: return problem("\(failure): skipped")
                case .cannotOpen, .changedWhileRead: return problem("\(failure)")
                }
            }
            let bounded = ContentLines.bounded(bytes)
            if !bounded.cut.isEmpty {
                let names = bounded.cut.sorted { $0.key < $1.key }.map { "\(DisplayText.escaped($0.key))\($0.value > 1 ? " ×\($0.value)" : "")" }
                problem("properties longer than \(ContentLines.longest >> 10) KiB: SUMMARY cut, others left out (\(names.joined(separator: ", ")))")
            }
            bytes = bounded.bytes
            guard var text = String(validating: bytes, as: UTF8.self) ?? String(bytes: bytes, encoding: .isoLatin1) else {
                return problem("not text")
            }
            if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
            guard let root = text.withCString({ f.icalparser_parse_string!($0) }) else {
                return problem("not an iCalendar file (libical found no calendar in it)")
            }
            defer { f.icalcomponent_free!(root) }
            reportErrors(root)
            // One VCALENDAR, several under an XROOT, or a bare VEVENT/VTODO as the root.
            var calendars = f.icalcomponent_isa!(root) == ICAL_VCALENDAR_COMPONENT ? [root] : children(root, ICAL_VCALENDAR_COMPONENT)
            if calendars.isEmpty, [ICAL_VEVENT_COMPONENT, ICAL_VTODO_COMPONENT].contains(f.icalcomponent_isa!(root)) { calendars = [root] }
            for calendar in calendars {
                calendarComponent = calendar
                dropUnusableZones(calendar)
                for kind in [ICAL_VEVENT_COMPONENT, ICAL_VTODO_COMPONENT] {
                    let items = f.icalcomponent_isa!(calendar) == kind ? [calendar] : children(calendar, kind)
                    expand(items, kind: kind == ICAL_VEVENT_COMPONENT ? .event : .todo)
                }
            }
        }

        /// A VTIMEZONE whose STANDARD or DAYLIGHT rule repeats other than yearly or monthly is no
        /// zone anyone writes, and libical would expand it (every second, say) from its DTSTART to
        /// today on first use: removed, so its TZID falls back to the IANA zone of that name, or
        /// the items in it are reported and skipped.
        mutating func dropUnusableZones(_ calendar: OpaquePointer) {
            let f = ical.f
            for zone in children(calendar, ICAL_VTIMEZONE_COMPONENT) {
                let observances = children(zone, ICAL_XSTANDARD_COMPONENT) + children(zone, ICAL_XDAYLIGHT_COMPONENT)
                let frequencies = observances.flatMap { properties($0, ICAL_RRULE_PROPERTY) }.map { f.icalproperty_get_rrule!($0).freq }
                guard let bad = frequencies.first(where: { $0 != ICAL_YEARLY_RECURRENCE && $0 != ICAL_MONTHLY_RECURRENCE }) else { continue }
                let tzid = f.icalcomponent_get_first_property!(zone, ICAL_TZID_PROPERTY).flatMap { f.icalproperty_get_tzid!($0) }
                    .map { String(cString: $0) } ?? "(no TZID)"
                problem("VTIMEZONE \"\(DisplayText.escaped(tzid))\": a rule repeating \(CalendarReader.frequency(bad)) is no time zone rule: that VTIMEZONE is not used")
                f.icalcomponent_remove_component!(calendar, zone)
                f.icalcomponent_free!(zone)
            }
        }

        /// libical keeps going past what it cannot parse and leaves an X-LIC-ERROR behind: say so.
        mutating func reportErrors(_ component: OpaquePointer) {
            let f = ical.f
            guard f.icalcomponent_count_errors!(component) > 0 else { return }
            var reported = 0
            func walk(_ c: OpaquePointer, _ reader: inout FileReader) {
                for property in reader.properties(c, ICAL_XLICERROR_PROPERTY) where reported < 5 {
                    let text = f.icalproperty_get_xlicerror!(property).map { String(cString: $0) } ?? "unreadable property"
                    reader.problem("libical: \(text) (that property is ignored)")
                    reported += 1
                }
                for sub in reader.children(c, ICAL_ANY_COMPONENT) { walk(sub, &reader) }
            }
            walk(component, &self)
        }

        /// The items of one kind: masters expanded, overrides (RECURRENCE-ID) put in place.
        mutating func expand(_ items: [OpaquePointer], kind: CalendarOccurrence.Kind) {
            let f = ical.f
            var overrides: [String: [String: OpaquePointer]] = [:]
            var masters: [(String, OpaquePointer)] = []
            for (index, item) in items.enumerated() {
                let uid = f.icalcomponent_get_uid!(item).map { String(cString: $0) } ?? "\(file.split(separator: "/").last ?? "")#\(index)"
                if let property = f.icalcomponent_get_first_property!(item, ICAL_RECURRENCEID_PROPERTY) {
                    let rid = zoned(f.icalproperty_get_recurrenceid!(property), property)
                    overrides[uid, default: [:]][instanceName(rid)] = item
                } else {
                    masters.append((uid, item))
                }
            }
            for (uid, master) in masters {
                var replaced = overrides[uid] ?? [:]
                for (start, instance) in instances(of: master, uid: uid) {
                    if let instance, let override = replaced.removeValue(forKey: instance) {
                        add(override, uid: uid, kind: kind, start: nil, instance: instance)
                    } else {
                        add(master, uid: uid, kind: kind, start: start, instance: instance)
                    }
                }
                // An override that moved an instance into the window from outside it.
                for (instance, override) in replaced { add(override, uid: uid, kind: kind, start: nil, instance: instance) }
                overrides[uid] = nil
            }
            // Overrides whose master is elsewhere (another file of the vdir, or missing).
            for (uid, list) in overrides { for (instance, item) in list { add(item, uid: uid, kind: kind, start: nil, instance: instance) } }
        }

        /// The start of each instance of a master that can matter for the window, with its name
        /// (nil for a single item). A rule is followed from DTSTART; EXDATEs removed; RDATEs added.
        mutating func instances(of item: OpaquePointer, uid: String) -> [(icaltimetype, String?)] {
            let f = ical.f
            let start = startTime(item)
            guard f.icaltime_is_null_time!(start) == 0 else {
                problem("\(uid): no DTSTART or DUE: skipped")
                return []
            }
            if let tzid = unknownZone(item, start) {
                problem("\(uid): unknown time zone \"\(tzid)\" (no VTIMEZONE of that name, not an IANA name): skipped")
                return []
            }
            let rules = properties(item, ICAL_RRULE_PROPERTY).map { f.icalproperty_get_rrule!($0) }
            let extra = properties(item, ICAL_RDATE_PROPERTY).map { property in
                let rdate = f.icalproperty_get_rdate!(property)
                return zoned(f.icaltime_is_null_time!(rdate.time) == 0 ? rdate.time : rdate.period.start, property)
            }
            if rules.isEmpty && extra.isEmpty { return [(start, nil)] }
            let excluded = Set(properties(item, ICAL_EXDATE_PROPERTY).map { instanceName(zoned(f.icalproperty_get_exdate!($0), $0)) })
            // Instances up to a week past the window can have reminders inside it.
            let end = window.upperBound.adding(seconds: 8 * 86_400)
            var result: [(icaltimetype, String?)] = []
            var seen = Set<String>()
            let begin = window.lowerBound.adding(seconds: -8 * 86_400)
            func consider(_ t: icaltimetype, at: Instant?) {
                guard let at, at >= begin, at <= end else { return }
                let name = instanceName(t, at: at)
                guard !excluded.contains(name), seen.insert(name).inserted else { return }
                result.append((t, name))
            }
            // Iterated on wall times (libical shifts every instance after a zoned DTSTART that
            // falls in a DST gap), the zone put back on each; UNTIL compared here, as instants.
            var floating = start
            floating.zone = nil
            for rule in rules {
                if rule.freq == ICAL_SECONDLY_RECURRENCE || rule.freq == ICAL_MINUTELY_RECURRENCE {
                    problem("\(uid): an RRULE repeating \(CalendarReader.frequency(rule.freq)) is finer than reminders can follow: only its DTSTART is kept")
                    consider(start, at: instant(start))
                    continue
                }
                guard rule.freq != ICAL_NO_RECURRENCE, let iterator = f.icalrecur_iterator_new!(rule, floating) else {
                    problem("\(uid): an RRULE libical cannot use: only its DTSTART is kept")
                    consider(start, at: instant(start))
                    continue
                }
                defer { f.icalrecur_iterator_free!(iterator) }
                let until = f.icaltime_is_null_time!(rule.until) == 0 ? instant(rule.until) : nil
                // Without COUNT, skip straight to (a margin before) the window.
                if rule.count == 0 {
                    let from = ISO8601.split(local: window.lowerBound.adding(seconds: -9 * 86_400).secondsSinceEpoch)
                    if from.date > CivilDate(year: Int(start.year), month: Int(start.month), day: Int(start.day)) ?? from.date {
                        var jump = floating
                        jump.year = Int32(from.date.year)
                        jump.month = Int32(from.date.month)
                        jump.day = Int32(from.date.day)
                        _ = f.icalrecur_iterator_set_start!(iterator, jump)
                    }
                }
                while true {
                    var t = f.icalrecur_iterator_next!(iterator)
                    if f.icaltime_is_null_time!(t) != 0 { break }
                    t.zone = start.zone
                    let at = instant(t)
                    if let at, at > end || until.map({ at > $0 }) == true { break }
                    guard budget.take() else {
                        if let spent = budget.report() {
                            problem("\(uid): \(spent): the rest of this rule, and of the calendars after it, is skipped")
                        }
                        break
                    }
                    consider(t, at: at)
                }
            }
            for t in [start] + extra { consider(t, at: instant(t)) }
            return result
        }

        /// The TZID of a start that names no zone libical or the system knows (libical would
        /// silently read it as floating).
        func unknownZone(_ item: OpaquePointer, _ start: icaltimetype) -> String? {
            let f = ical.f
            guard start.is_date == 0, start.zone == nil else { return nil }
            for kind in [ICAL_DUE_PROPERTY, ICAL_DTSTART_PROPERTY] {
                if let property = f.icalcomponent_get_first_property!(item, kind),
                   let parameter = f.icalproperty_get_first_parameter!(property, ICAL_TZID_PARAMETER),
                   let tzid = f.icalparameter_get_tzid!(parameter) {
                    let name = String(cString: tzid)
                    return zones.named(name) == nil ? name : nil
                }
            }
            return nil
        }

        /// A todo is reminded at its DUE, else its DTSTART; an event at its DTSTART.
        func startTime(_ item: OpaquePointer) -> icaltimetype {
            let f = ical.f
            if f.icalcomponent_isa!(item) == ICAL_VTODO_COMPONENT {
                let due = f.icalcomponent_get_due!(item)
                if f.icaltime_is_null_time!(due) == 0 { return due }
            }
            return f.icalcomponent_get_dtstart!(item)
        }

        /// One instance, unless cancelled or completed. `start` is the master's instance start
        /// (nil: the item's own, for an override).
        mutating func add(_ item: OpaquePointer, uid: String, kind: CalendarOccurrence.Kind, start: icaltimetype?, instance: String?) {
            let f = ical.f
            let status = f.icalcomponent_get_status!(item)
            if status == ICAL_STATUS_CANCELLED || status == ICAL_STATUS_COMPLETED { return }
            if kind == .todo, f.icalcomponent_get_first_property!(item, ICAL_COMPLETED_PROPERTY) != nil { return }
            let own = startTime(item)
            let begin = start ?? own
            guard f.icaltime_is_null_time!(begin) == 0, let date = CivilDate(year: Int(begin.year), month: Int(begin.month), day: Int(begin.day))
            else { return }
            let title = f.icalcomponent_get_summary!(item).map { DisplayText.bounded(String(cString: $0), to: CalendarReader.longestTitle) } ?? "(untitled)"
            var at: Instant?
            var time: WallTime?
            var day = date
            if begin.is_date == 0, let instant = instant(begin) {
                at = instant
                let local = ISO8601.localDate(of: instant, in: zone)
                day = local.date
                time = WallTime(hour: local.secondsOfDay / 3600, minute: local.secondsOfDay / 60 % 60)
            }
            guard (at ?? dayStart(day)) >= window.lowerBound.adding(seconds: -8 * 86_400),
                  (at ?? dayStart(day)) <= window.upperBound.adding(seconds: 8 * 86_400) else { return }
            occurrences.append(CalendarOccurrence(calendar: calendar, uid: uid, kind: kind, title: title, date: day, start: at, time: time,
                                                  alarms: alarms(item, start: at ?? dayStart(day), end: end(item, start: at ?? dayStart(day))),
                                                  instance: instance))
        }

        /// The end an alarm RELATED=END counts from: DTEND, else start + DURATION, else the start.
        func end(_ item: OpaquePointer, start: Instant) -> Instant {
            let f = ical.f
            let dtend = f.icalcomponent_get_dtend!(item)
            let dtstart = f.icalcomponent_get_dtstart!(item)
            if f.icaltime_is_null_time!(dtend) == 0, let e = instant(dtend), let s = instant(dtstart) {
                return start.adding(seconds: e.secondsSinceEpoch - s.secondsSinceEpoch)
            }
            return start.adding(seconds: Int64(f.icaldurationtype_as_int!(f.icalcomponent_get_duration!(item))))
        }

        /// Each VALARM's instant; nil when there are none.
        func alarms(_ item: OpaquePointer, start: Instant, end: Instant) -> [Instant]? {
            let f = ical.f
            let valarms = children(item, ICAL_VALARM_COMPONENT)
            var result: [Instant] = []
            for alarm in valarms {
                guard let trigger = f.icalcomponent_get_first_property!(alarm, ICAL_TRIGGER_PROPERTY) else { continue }
                let value = f.icalproperty_get_trigger!(trigger)
                if f.icaltime_is_null_time!(value.time) == 0 {
                    if let at = instant(value.time) { result.append(at) }
                } else {
                    let related = f.icalproperty_get_first_parameter!(trigger, ICAL_RELATED_PARAMETER)
                    let base = related.map { f.icalparameter_get_related!($0) == ICAL_RELATED_END } == true ? end : start
                    result.append(base.adding(seconds: Int64(f.icaldurationtype_as_int!(value.duration))))
                }
            }
            return valarms.isEmpty ? nil : result.sorted()
        }

        /// A property's date-time with the zone its TZID names (libical attaches it for DTSTART,
        /// DTEND and DUE, not for RECURRENCE-ID, RDATE and EXDATE): the calendar's VTIMEZONE of
        /// that name, else libical's built-in zone. An unknown TZID leaves it floating.
        func zoned(_ t: icaltimetype, _ property: OpaquePointer) -> icaltimetype {
            let f = ical.f
            guard t.is_date == 0, t.zone == nil, let parameter = f.icalproperty_get_first_parameter!(property, ICAL_TZID_PARAMETER),
                  let tzid = f.icalparameter_get_tzid!(parameter) else { return t }
            var zoned = t
            zoned.zone = calendarComponent.flatMap { f.icalcomponent_get_timezone!($0, tzid) } ?? f.icaltimezone_get_builtin_timezone!(tzid)
            return zoned
        }

        /// The instant of a date-time: through its zone (TZID, VTIMEZONE or UTC), or, floating,
        /// as a wall time in the planning zone. Nil for a date.
        func instant(_ t: icaltimetype) -> Instant? {
            if t.is_date != 0 {
                return CivilDate(year: Int(t.year), month: Int(t.month), day: Int(t.day)).map(dayStart)
            }
            guard let date = CivilDate(year: Int(t.year), month: Int(t.month), day: Int(t.day)),
                  let wall = WallTime(hour: Int(t.hour), minute: Int(t.minute)) else { return nil }
            guard let zone = t.zone else { return zones.planning.resolve(wall, on: date).instant.adding(seconds: Int64(t.second)) }
            // A VTIMEZONE's TZID, or a built-in zone's location (its TZID carries a libical prefix).
            for name in [ical.f.icaltimezone_get_tzid!(zone), ical.f.icaltimezone_get_location!(zone)] {
                if let name, let named = zones.named(String(cString: name)) {
                    return named.resolve(wall, on: date).instant.adding(seconds: Int64(t.second))
                }
            }
            return Instant(secondsSinceEpoch: Int64(ical.f.icaltime_as_timet_with_zone!(t, zone)))
        }

        func dayStart(_ date: CivilDate) -> Instant {
            zones.planning.resolve(WallTime(hour: 0, minute: 0)!, on: date).instant
        }

        /// `20261201T090000Z` (UTC) for a date-time, `20261201` for a date: the instance's name in keys.
        func instanceName(_ t: icaltimetype, at: Instant? = nil) -> String {
            if t.is_date != 0 {
                return CivilDate(year: Int(t.year), month: Int(t.month), day: Int(t.day)).map(CalendarExport.basic) ?? "invalid"
            }
            return (at ?? instant(t)).map(CalendarExport.basic) ?? "invalid"
        }
    }
}
