internal import CICal
import DawnletCore
import FoundationEssentials
import Glibc

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
/// todos for a window (docs/calendars.md): DTSTART/DTEND/DURATION/DUE, all-day dates, TZID with
/// embedded VTIMEZONEs, UTC and floating times, RRULE, RDATE, EXDATE, RECURRENCE-ID overrides,
/// cancelled events and completed todos left out, VALARMs relative to start or end, or absolute.
/// A file or item that cannot be used is reported and skipped; the rest is still read.
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
    public static func read(
        name: String, path: String, window: ClosedRange<Instant>, zone: Zone,
        zones database: ZoneDatabase = .system, budget: Budget = Budget()
    ) -> Result {
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
            if let trailing = Self.afterCalendarEnd(bytes) {
                problem("\(trailing) after END:VCALENDAR is outside the calendar: not read")
            }
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

        /// The first `BEGIN:NAME` (with its line) after the last END:VCALENDAR, if any: libical
        /// drops what follows the calendar without a word. Only line starts are looked at.
        static func afterCalendarEnd(_ bytes: [UInt8]) -> String? {
            func starts(_ word: StaticString, at i: Int) -> Bool {
                let count = word.utf8CodeUnitCount
                guard i + count <= bytes.count else { return false }
                for k in 0..<count where bytes[i + k] | 0x20 != word.utf8Start[k] | 0x20 { return false }
                return true
            }
            var (line, start, ended) = (1, 0, false)
            var found: (line: Int, start: Int)?
            while start < bytes.count {
                if starts("END:VCALENDAR", at: start) {
                    (ended, found) = (true, nil)
                } else if ended, found == nil, starts("BEGIN:", at: start) {
                    found = (line, start)
                }
                guard let newline = bytes[start...].firstIndex(of: 10) else { break }
                (line, start) = (line + 1, newline + 1)
            }
            guard let found else { return nil }
            let end = bytes[found.start...].prefix(40).firstIndex { $0 == 10 || $0 == 13 } ?? min(bytes.count, found.start + 40)
            return "\(DisplayText.escaped(String(decoding: bytes[found.start..<end], as: UTF8.self))) at line \(found.line)"
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
                let tzid =
                    f.icalcomponent_get_first_property!(zone, ICAL_TZID_PROPERTY).flatMap { f.icalproperty_get_tzid!($0) }
                    .map { String(cString: $0) } ?? "(no TZID)"
                problem(
                    "VTIMEZONE \"\(DisplayText.escaped(tzid))\": a rule repeating \(CalendarReader.frequency(bad)) is no time zone rule: that VTIMEZONE is not used"
                )
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

        /// The items of one kind: masters expanded, overrides (RECURRENCE-ID) put in place, a
        /// RANGE=THISANDFUTURE override on its instance and every later one (RFC 5545 §3.8.4.4).
        /// The same UID twice without RECURRENCE-ID (an iTIP-style file): the higher SEQUENCE.
        mutating func expand(_ items: [OpaquePointer], kind: CalendarOccurrence.Kind) {
            let f = ical.f
            var overrides: [String: [String: OpaquePointer]] = [:]
            var ranges: [String: [(Instant, OpaquePointer)]] = [:]
            var masters: [(String, OpaquePointer)] = []
            var masterIndex: [String: Int] = [:]
            for (index, item) in items.enumerated() {
                let uid = f.icalcomponent_get_uid!(item).map { String(cString: $0) } ?? "\(file.split(separator: "/").last ?? "")#\(index)"
                if let property = f.icalcomponent_get_first_property!(item, ICAL_RECURRENCEID_PROPERTY) {
                    let rid = zoned(f.icalproperty_get_recurrenceid!(property), property)
                    if let range = f.icalproperty_get_first_parameter!(property, ICAL_RANGE_PARAMETER),
                        f.icalparameter_get_range!(range) == ICAL_RANGE_THISANDFUTURE, let at = instant(rid)
                    {
                        ranges[uid, default: []].append((at, item))
                    }
                    overrides[uid, default: [:]][instanceName(rid)] = item
                } else if let earlier = masterIndex[uid] {
                    let (kept, other) = (f.icalcomponent_get_sequence!(masters[earlier].1), f.icalcomponent_get_sequence!(item))
                    problem("\(uid): the same UID twice without RECURRENCE-ID: the one of SEQUENCE \(max(kept, other)) is used")
                    if other >= kept { masters[earlier].1 = item }
                } else {
                    masterIndex[uid] = masters.count
                    masters.append((uid, item))
                }
            }
            for (uid, master) in masters {
                var replaced = overrides[uid] ?? [:]
                let thisAndFuture = (ranges[uid] ?? []).sorted { $0.0 < $1.0 }
                // What every instance of the master shares, worked out once.
                let timing = timing(master)
                for instance in instances(of: master, uid: uid, timing: timing) {
                    if let name = instance.name, let override = replaced.removeValue(forKey: name) {
                        add(override, uid: uid, kind: kind, start: nil, instance: name)
                    } else if let at = instance.at, let (rid, override) = thisAndFuture.last(where: { $0.0 <= at }) {
                        // Later instances move as the override moved its own, and take its properties.
                        let moved = instant(baseTime(override)).map { $0.secondsSinceEpoch - rid.secondsSinceEpoch } ?? 0
                        add(override, uid: uid, kind: kind, start: at.adding(seconds: moved), instance: instance.name)
                    } else {
                        add(
                            master, uid: uid, kind: kind, start: instance.at, date: instance.date, instance: instance.name,
                            absoluteAlarms: instance.name == nil || instance.isFirst, timing: timing)
                    }
                }
                // An override that moved an instance into the window from outside it.
                for (instance, override) in replaced { add(override, uid: uid, kind: kind, start: nil, instance: instance) }
                overrides[uid] = nil
            }
            // Overrides whose master is elsewhere (another file of the vdir, or missing).
            for (uid, list) in overrides { for (instance, item) in list { add(item, uid: uid, kind: kind, start: nil, instance: instance) } }
        }

        /// One instance of a master: its start (nil for a date), its date, its name in keys (nil
        /// for a single item), and whether it is DTSTART's (where absolute alarms belong).
        struct Instance {
            let at: Instant?
            let date: CivilDate
            let name: String?
            let isFirst: Bool
        }

        /// The instances of a master that can matter for the window: started from DTSTART (a
        /// todo's DUE when it has none), expanded by RecurrenceRule on wall times, each put in
        /// DTSTART's zone; UNTIL compared as an instant; EXDATEs removed; RDATEs added. How far
        /// outside the window an instance can remind inside it comes from its VALARMs.
        mutating func instances(of item: OpaquePointer, uid: String, timing: Timing) -> [Instance] {
            let f = ical.f
            let start = baseTime(item)
            guard f.icaltime_is_null_time!(start) == 0 else {
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
                let rdate = f.icalproperty_get_rdate!(property)
                return zoned(f.icaltime_is_null_time!(rdate.time) == 0 ? rdate.time : rdate.period.start, property)
            }
            let exdates = properties(item, ICAL_EXDATE_PROPERTY).map { zoned(f.icalproperty_get_exdate!($0), $0) }
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
                result.append(Instance(at: at, date: date(t), name: name, isFirst: first))
            }
            let local = LocalDateTime(
                date: date(start), secondsOfDay: start.is_date != 0 ? 0 : Int(start.hour) * 3600 + Int(start.minute) * 60 + Int(start.second))
            // Wall times a day either side of the instants: no zone is further than that from UTC.
            let from = LocalDateTime(localSeconds: begin.secondsSinceEpoch - 2 * 86_400)
            let through = LocalDateTime(localSeconds: end.secondsSinceEpoch + 2 * 86_400)
            for property in rules {
                let text = f.icalproperty_get_value_as_string!(property).map { String(cString: $0) } ?? ""
                let rule: RecurrenceRule
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
                var spent = false
                rule.forEach(start: local, from: from, through: through) { wall in
                    var t = start
                    let c = wall.date.components
                    (t.year, t.month, t.day) = (Int32(c.year), Int32(c.month), Int32(c.day))
                    if start.is_date == 0 { (t.hour, t.minute, t.second) = (Int32(wall.hour), Int32(wall.minute), Int32(wall.second)) }
                    let at = instant(t)
                    switch rule.until {
                    case .utc(let until)?: if let at, at > until { return false }
                    case .local(let until)?: if wall > until { return false }
                    case .date(let until)?: if wall.date > until { return false }
                    case nil: break
                    }
                    guard budget.take() else {
                        spent = true
                        return false
                    }
                    consider(t, at: at)
                    return true
                }
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
                guard let trigger = f.icalcomponent_get_first_property!(alarm, ICAL_TRIGGER_PROPERTY) else { continue }
                let value = f.icalproperty_get_trigger!(trigger)
                guard f.icaltime_is_null_time!(value.time) != 0 else { continue }
                let related =
                    f.icalproperty_get_first_parameter!(trigger, ICAL_RELATED_PARAMETER).map { f.icalparameter_get_related!($0) == ICAL_RELATED_END } == true
                let offset = Int64(f.icaldurationtype_as_int!(value.duration)) + (related ? length : 0)
                let repeats = repetition(alarm)
                let last = offset + Int64(repeats.count) * Int64(f.icaldurationtype_as_int!(repeats.every))
                before = max(before, -min(offset, last) + 86_400)
                after = max(after, max(offset, last) + 86_400)
            }
            return Timing(shape: shape, before: before, after: after)
        }

        func hasAbsoluteAlarm(_ item: OpaquePointer) -> Bool {
            let f = ical.f
            return children(item, ICAL_VALARM_COMPONENT).contains { alarm in
                f.icalcomponent_get_first_property!(alarm, ICAL_TRIGGER_PROPERTY).map { f.icaltime_is_null_time!(f.icalproperty_get_trigger!($0).time) == 0 }
                    == true
            }
        }

        /// An alarm's REPEAT and DURATION: how many more times it fires, and how far apart.
        func repetition(_ alarm: OpaquePointer) -> (count: Int, every: icaldurationtype) {
            let f = ical.f
            guard let repeatProperty = f.icalcomponent_get_first_property!(alarm, ICAL_REPEAT_PROPERTY),
                let durationProperty = f.icalcomponent_get_first_property!(alarm, ICAL_DURATION_PROPERTY)
            else { return (0, icaldurationtype()) }
            let every = f.icalproperty_get_duration!(durationProperty)
            let count = Int(f.icalproperty_get_repeat!(repeatProperty))
            // At most a hundred repetitions, and none of no length.
            return f.icaldurationtype_as_int!(every) > 0 ? (min(max(count, 0), 100), every) : (0, every)
        }

        /// The times an item's instance runs by: what it starts from (DTSTART, or a todo's DUE
        /// without one), when a todo is due (`dueSeconds` after it), and its end (DTEND or DUE:
        /// the same exact length for every instance; DURATION: nominal days on the calendar).
        struct Shape {
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
            if f.icalcomponent_isa!(item) == ICAL_VTODO_COMPONENT {
                let due = f.icalcomponent_get_due!(item)
                if f.icaltime_is_null_time!(due) == 0, let at = instant(due) {
                    shape.dueSeconds = at.secondsSinceEpoch - from.secondsSinceEpoch
                    shape.exactLength = shape.dueSeconds
                    return shape
                }
            } else if f.icalcomponent_get_first_property!(item, ICAL_DTEND_PROPERTY) != nil,
                let end = instant(f.icalcomponent_get_dtend!(item))
            {
                shape.exactLength = end.secondsSinceEpoch - from.secondsSinceEpoch
                return shape
            }
            if let property = f.icalcomponent_get_first_property!(item, ICAL_DURATION_PROPERTY) {
                let duration = f.icalproperty_get_duration!(property)
                shape.nominalLength = duration
                shape.exactLength = Int64(f.icaldurationtype_as_int!(duration))
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

        /// The system's zone a date-time is in (its wall times resolve there, its nominal days
        /// follow its calendar): its TZID's IANA zone, or the planning zone for a floating time or
        /// a date; nil for a custom VTIMEZONE, which only libical can read.
        func dayZone(_ t: icaltimetype) -> ZoneDayCache? {
            guard t.is_date == 0, let zone = t.zone else { return zones.planning }
            // A VTIMEZONE's TZID, or a built-in zone's location (its TZID carries a libical prefix).
            for name in [ical.f.icaltimezone_get_tzid!(zone), ical.f.icaltimezone_get_location!(zone)] {
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
                if let property = f.icalcomponent_get_first_property!(item, kind),
                    let parameter = f.icalproperty_get_first_parameter!(property, ICAL_TZID_PARAMETER),
                    let tzid = f.icalparameter_get_tzid!(parameter)
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
            let start = f.icalcomponent_get_dtstart!(item)
            if f.icaltime_is_null_time!(start) == 0 || f.icalcomponent_isa!(item) != ICAL_VTODO_COMPONENT { return start }
            return f.icalcomponent_get_due!(item)
        }

        /// One instance, unless cancelled or completed. `start` is the instance's own start as
        /// its master's rule gives it (nil: the item's own, for an override); a todo's reminder
        /// time is its due, that far after. Absolute alarms of a repeating item go with the
        /// instance of DTSTART only: RFC 5545 gives them one time, not one per instance.
        mutating func add(
            _ item: OpaquePointer, uid: String, kind: CalendarOccurrence.Kind, start: Instant?, date: CivilDate? = nil,
            instance: String?, absoluteAlarms: Bool = true, timing: Timing? = nil
        ) {
            let f = ical.f
            let status = f.icalcomponent_get_status!(item)
            if status == ICAL_STATUS_CANCELLED || status == ICAL_STATUS_COMPLETED { return }
            if kind == .todo, f.icalcomponent_get_first_property!(item, ICAL_COMPLETED_PROPERTY) != nil { return }
            let base = baseTime(item)
            guard f.icaltime_is_null_time!(base) == 0,
                let ownDate = CivilDate(year: Int(base.year), month: Int(base.month), day: Int(base.day))
            else { return }
            let timing = timing ?? self.timing(item)
            let shape = timing.shape
            let title = f.icalcomponent_get_summary!(item).map { DisplayText.bounded(String(cString: $0), to: CalendarReader.longestTitle) } ?? "(untitled)"
            let isDate = base.is_date != 0
            let from = isDate ? dayStart(date ?? ownDate) : (start ?? instant(base))
            guard let from else { return }
            let end = shape.nominalLength.map { shift(from, by: $0, like: base) } ?? from.adding(seconds: shape.lengthSeconds)
            var at: Instant?
            var time: WallTime?
            var day = date ?? ownDate
            if !isDate {
                let due = from.adding(seconds: shape.dueSeconds)
                at = due
                let local = ISO8601.localDate(of: due, in: zone)
                day = local.date
                time = WallTime(hour: local.secondsOfDay / 3600, minute: local.secondsOfDay / 60 % 60)
            }
            let mozilla = mozilla(item, start: from, absolute: absoluteAlarms)
            let alarms = alarms(item, start: from, end: end, like: base, absolute: absoluteAlarms, mozilla: mozilla)
            let shown = at ?? from
            let inWindow = shown >= window.lowerBound.adding(seconds: -timing.after) && shown <= window.upperBound.adding(seconds: timing.before)
            guard inWindow || alarms?.contains(where: window.contains) == true else { return }
            occurrences.append(
                CalendarOccurrence(
                    calendar: calendar, uid: uid, kind: kind, title: title, date: day, start: at, time: time,
                    alarms: alarms, instance: instance, acknowledged: mozilla.lastAck))
        }

        /// Each VALARM's instants, its repetitions (REPEAT, DURATION) included, less those
        /// acknowledged on another device; nil when there are none. Relative triggers count from
        /// the instance's start, or (RELATED=END) its end; absolute ones are left out of all but
        /// one instance of a repeating item.
        ///
        /// Acknowledged (RFC 9074 and Thunderbird): an instant at or before its VALARM's
        /// ACKNOWLEDGED, or the item's X-MOZ-LASTACK, does not fire. A snooze fires at its time and
        /// acknowledges what it snoozed: an RFC 9074 snooze alarm (RELATED-TO;RELTYPE=SNOOZE naming
        /// its parent VALARM's UID) acknowledges its parent up to it; Thunderbird's
        /// X-MOZ-SNOOZE-TIME (X-MOZ-SNOOZE-TIME-µs for one instance of a repeating item) comes with
        /// an X-MOZ-LASTACK.
        func alarms(
            _ item: OpaquePointer, start: Instant, end: Instant, like t: icaltimetype, absolute: Bool,
            mozilla: (lastAck: Instant?, snoozes: [Instant])
        ) -> [Instant]? {
            let f = ical.f
            let valarms = children(item, ICAL_VALARM_COMPONENT)
            let (lastAck, snoozes) = mozilla
            var fired: [(instant: Instant, acknowledged: Instant?, uid: String?)] = []
            var snoozedParents: [String: Instant] = [:]
            for alarm in valarms {
                guard let trigger = f.icalcomponent_get_first_property!(alarm, ICAL_TRIGGER_PROPERTY) else { continue }
                let value = f.icalproperty_get_trigger!(trigger)
                var first: Instant
                if f.icaltime_is_null_time!(value.time) == 0 {
                    guard absolute, let at = instant(value.time) else { continue }
                    first = at
                } else {
                    let related = f.icalproperty_get_first_parameter!(trigger, ICAL_RELATED_PARAMETER)
                    let base = related.map { f.icalparameter_get_related!($0) == ICAL_RELATED_END } == true ? end : start
                    first = shift(base, by: value.duration, like: t)
                }
                let acknowledged = f.icalcomponent_get_first_property!(alarm, ICAL_ACKNOWLEDGED_PROPERTY).flatMap {
                    instant(f.icalproperty_get_acknowledged!($0))
                }
                if let parent = snoozedParent(alarm) { snoozedParents[parent] = max(snoozedParents[parent] ?? first, first) }
                let uid = f.icalcomponent_get_uid!(alarm).map { String(cString: $0) }
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

        /// Thunderbird's marks on an item: X-MOZ-LASTACK, and the X-MOZ-SNOOZE-TIME that applies to
        /// the instance starting at `start` (its -µs form; the plain one for a single item).
        func mozilla(_ item: OpaquePointer, start: Instant, absolute: Bool) -> (lastAck: Instant?, snoozes: [Instant]) {
            let f = ical.f
            var lastAck: Instant?
            var snoozes: [Instant] = []
            for property in properties(item, ICAL_X_PROPERTY) {
                guard let name = f.icalproperty_get_x_name!(property).map({ String(cString: $0).uppercased() }),
                    let value = f.icalproperty_get_x!(property).map({ String(cString: $0) }),
                    case .utc(let at)? = RecurrenceRule.until(value)
                else { continue }
                if name == "X-MOZ-LASTACK" {
                    lastAck = max(lastAck ?? at, at)
                } else if name == "X-MOZ-SNOOZE-TIME" ? absolute : name == "X-MOZ-SNOOZE-TIME-\(start.secondsSinceEpoch * 1_000_000)" {
                    snoozes.append(at)
                }
            }
            return (lastAck, snoozes)
        }

        /// The UID of the VALARM this one snoozes (RFC 9074: RELATED-TO;RELTYPE=SNOOZE), if any.
        func snoozedParent(_ alarm: OpaquePointer) -> String? {
            let f = ical.f
            for property in properties(alarm, ICAL_RELATEDTO_PROPERTY) {
                guard let type = f.icalproperty_get_first_parameter!(property, ICAL_RELTYPE_PARAMETER),
                    let text = f.icalparameter_as_ical_string!(type).map({ String(cString: $0).uppercased() }), text.hasSuffix("=SNOOZE"),
                    let parent = f.icalproperty_get_relatedto!(property)
                else { continue }
                return String(cString: parent)
            }
            return nil
        }

        /// A property's date-time with the zone its TZID names (libical attaches it for DTSTART,
        /// DTEND and DUE, not for RECURRENCE-ID, RDATE and EXDATE): the calendar's VTIMEZONE of
        /// that name, else libical's built-in zone. An unknown TZID leaves it floating.
        func zoned(_ t: icaltimetype, _ property: OpaquePointer) -> icaltimetype {
            let f = ical.f
            guard t.is_date == 0, t.zone == nil, let parameter = f.icalproperty_get_first_parameter!(property, ICAL_TZID_PARAMETER),
                let tzid = f.icalparameter_get_tzid!(parameter)
            else { return t }
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
                let wall = WallTime(hour: Int(t.hour), minute: Int(t.minute))
            else { return nil }
            if let named = dayZone(t) { return named.resolve(wall, on: date).instant.adding(seconds: Int64(t.second)) }
            return t.zone.map { Instant(secondsSinceEpoch: Int64(ical.f.icaltime_as_timet_with_zone!(t, $0))) }
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
}
