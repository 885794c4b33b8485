internal import CICal
import DawnletCore
import FoundationEssentials
import Glibc

extension CalendarReader {
    /// One file: parse, then each VEVENT and VTODO.
    struct FileReader {
        let ical: ICal
        let calendar: String
        let file: String
        /// `.follow` for the file the config names, `.refuse` for the files of a vdir.
        let links: RegularFile.Links
        let window: ClosedRange<Instant>
        let zone: Zone
        var occurrences: [CalendarOccurrence] = []
        var problems: [CalendarProblem] = []
        /// The VCALENDAR being read: its VTIMEZONEs resolve TZIDs.
        var calendarComponent: OpaquePointer?
        /// What each item's component says of its alarms, read from the file's model (`index`).
        var marks: [OpaquePointer: ICalendar.AlarmMarks] = [:]

        let zones: Zones
        let budget: Budget
        /// Whether files of the common shapes are read without libical (`SimpleFile`).
        var useSimple = true

        init(
            ical: ICal, calendar: String, file: String, links: RegularFile.Links, window: ClosedRange<Instant>, zone: Zone, zones: Zones,
            budget: Budget
        ) {
            self.links = links
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
            var c = ical.f.icalcomponent_get_first_component(component, kind)
            while let child = c {
                result.append(child)
                c = ical.f.icalcomponent_get_next_component(component, kind)
            }
            return result
        }

        /// A component's properties of a kind, collected first (as for `children`).
        func properties(_ component: OpaquePointer, _ kind: icalproperty_kind) -> [OpaquePointer] {
            var result: [OpaquePointer] = []
            var p = ical.f.icalcomponent_get_first_property(component, kind)
            while let property = p {
                result.append(property)
                p = ical.f.icalcomponent_get_next_property(component, kind)
            }
            return result
        }

        /// What `prepare` made of the file, used in the order of the files: the budget taken,
        /// then the file expanded (and kept), or libical's.
        mutating func use(_ prepared: Prepared, cache: Cache?) {
            switch prepared {
            case .failed(let failure):
                problem(failure.isForeign ? "\(failure): skipped" : "\(failure)")
            case .kept(let simple, let size):
                budget.read(size)
                cache?.noteReused()
                expand(simple)
            case .simple(let simple, let key, let size):
                budget.read(size)
                cache?.noteParsed()
                if let cache, let key { cache.keep(file, key, simple) }
                expand(simple)
            case .other(let bytes):
                budget.read(bytes.count)
                cache?.noteParsed()
                parseWithLibical(bytes)
            }
        }

        mutating func parseWithLibical(_ bytes: [UInt8]) {
            let f = ical.f
            var bytes = bytes
            let bounded = ContentLines.bounded(bytes)
            if !bounded.cut.isEmpty {
                let names = bounded.cut.sorted { $0.key < $1.key }.map { "\(DisplayText.escaped($0.key))\($0.value > 1 ? " ×\($0.value)" : "")" }
                problem("properties longer than \(ContentLines.longest >> 10) KiB: SUMMARY cut, others left out (\(names.joined(separator: ", ")))")
            }
            let original = bytes
            let clean = ContentLines.withoutNUL(bounded.bytes)
            for dropped in clean.dropped.prefix(5) { problem(dropped) }
            if clean.dropped.count > 5 { problem("\(clean.dropped.count - 5) more components or lines holding a NUL byte left out") }
            bytes = clean.bytes
            var text: String
            if let valid = String(validating: bytes, as: UTF8.self) {
                text = valid
            } else {
                // Shown with U+FFFD where it is not UTF-8, as iCalendar text must be; said once.
                text = String(decoding: bytes, as: UTF8.self)
                problem("not valid UTF-8 at line \(Self.firstInvalidLine(original)): shown with \u{FFFD} in its place")
            }
            if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
            let outside = Self.outsideCalendars(bytes, naming: 5)
            for component in outside.named { problem("\(component) is outside the calendar: not read") }
            if outside.count > outside.named.count { problem("\(outside.count - outside.named.count) more components outside every VCALENDAR: not read") }
            guard let root = text.withCString({ f.icalparser_parse_string($0) }) else {
                return problem("not an iCalendar file (libical found no calendar in it)")
            }
            defer { f.icalcomponent_free(root) }
            reportErrors(root)
            // One VCALENDAR, several under an XROOT, or a bare VEVENT/VTODO as the root.
            var calendars = f.icalcomponent_isa(root) == ICAL_VCALENDAR_COMPONENT ? [root] : children(root, ICAL_VCALENDAR_COMPONENT)
            if calendars.isEmpty, [ICAL_VEVENT_COMPONENT, ICAL_VTODO_COMPONENT].contains(f.icalcomponent_isa(root)) { calendars = [root] }
            // Several bare ones, as libical puts them under an XROOT: read as one set, as one is.
            if calendars.isEmpty, !children(root, ICAL_VEVENT_COMPONENT).isEmpty || !children(root, ICAL_VTODO_COMPONENT).isEmpty { calendars = [root] }
            if calendars.isEmpty { return problem("no VCALENDAR, VEVENT or VTODO in it: nothing read") }
            for calendar in calendars { dropUnusableZones(calendar) }
            // One file is one set of components: the VCALENDARs of an iTIP stream, or of exports
            // run together, are read as one, so that a UID in two of them is planned once, an
            // override replaces its instance wherever its master is, and a VTIMEZONE of any of
            // them serves all.
            guard let set = calendars.first else { return }
            var tzids = Set(children(set, ICAL_VTIMEZONE_COMPONENT).compactMap(tzid))
            for other in calendars.dropFirst() { move(other, into: set, defined: &tzids) }
            calendarComponent = set
            // The same text as Core's model, for what acknowledges and snoozes alarms (read only
            // where a line may be such a mark: most files have none).
            let model = ICalendar.AlarmMarks.mayBeIn(bytes) ? ICalendar.Document(parsing: Array(text.utf8)) : nil
            let kinds = [ICAL_VEVENT_COMPONENT, ICAL_VTODO_COMPONENT].map { kind in (kind, f.icalcomponent_isa(set) == kind ? [set] : children(set, kind)) }
            if let model { index(kinds.flatMap(\.1), in: model) }
            for (kind, items) in kinds { expand(items, kind: kind == ICAL_VEVENT_COMPONENT ? .event : .todo) }
        }

        /// Each of libical's `items` given the marks of the model's component of the same UID and
        /// RECURRENCE-ID (the first such to the first, the second to the second…), read from the
        /// calendars libical reads (the VCALENDARs, else the file's bare item).
        mutating func index(_ items: [OpaquePointer], in model: ICalendar.Document) {
            let f = ical.f
            func key(_ uid: String?, _ instance: String?) -> String {
                (uid ?? "") + "\n" + (instance ?? "").uppercased().filter { !$0.isWhitespace }
            }
            let calendars = model.components.filter { $0.name == "VCALENDAR" }
            let read = calendars.isEmpty ? model : ICalendar.Document(calendars.map { .component($0) })
            var components: [String: [ICalendar.Component]] = [:]
            for component in read.calendarItems(unended: true) {
                components[key(component.first("UID")?.value, component.first("RECURRENCE-ID")?.value), default: []].append(component)
            }
            var taken: [String: Int] = [:]
            for item in items {
                let id = f.icalcomponent_get_first_property(item, ICAL_RECURRENCEID_PROPERTY).flatMap { f.icalproperty_get_value_as_string($0) }
                let name = key(f.icalcomponent_get_uid(item).map { String(cString: $0) }, id.map { String(cString: $0) })
                let index = taken[name, default: 0]
                taken[name] = index + 1
                if let list = components[name], index < list.count { marks[item] = ICalendar.AlarmMarks(list[index]) }
            }
        }

        /// A later VCALENDAR's events, todos and VTIMEZONEs moved into the first, in the order of
        /// the file; a VTIMEZONE of a TZID already `defined` is left out (the first definition in
        /// the file is used). Counted here: libical sorts its zones again after each one added.
        func move(_ other: OpaquePointer, into set: OpaquePointer, defined: inout Set<String>) {
            let f = ical.f
            for zone in children(other, ICAL_VTIMEZONE_COMPONENT) {
                f.icalcomponent_remove_component(other, zone)
                if let tzid = tzid(zone), !defined.insert(tzid).inserted {
                    f.icalcomponent_free(zone)
                } else {
                    f.icalcomponent_add_component(set, zone)
                }
            }
            for item in children(other, ICAL_VEVENT_COMPONENT) + children(other, ICAL_VTODO_COMPONENT) {
                f.icalcomponent_remove_component(other, item)
                f.icalcomponent_add_component(set, item)
            }
        }

        /// A VTIMEZONE's TZID.
        func tzid(_ zone: OpaquePointer) -> String? {
            let f = ical.f
            return f.icalcomponent_get_first_property(zone, ICAL_TZID_PROPERTY).flatMap { f.icalproperty_get_tzid($0) }.map { String(cString: $0) }
        }

        /// The number of the first line of the file that is not valid UTF-8.
        static func firstInvalidLine(_ bytes: [UInt8]) -> Int {
            var number = 1
            for line in bytes.split(separator: 10, omittingEmptySubsequences: false) {
                if String(validating: line, as: UTF8.self) == nil { return number }
                number += 1
            }
            return number
        }

        /// The components outside every VCALENDAR, which libical drops without a word: how many,
        /// and the first `naming` as `BEGIN:NAME at line 11 after END:VCALENDAR` (or before the
        /// first, or between two). None in a file with no VCALENDAR (a bare VEVENT is read as its
        /// calendar). Only line starts are looked at; what is nested in such a component is part of it.
        static func outsideCalendars(_ bytes: [UInt8], naming: Int) -> (named: [String], count: Int) {
            func starts(_ word: StaticString, at i: Int) -> Bool {
                let count = word.utf8CodeUnitCount
                guard i + count <= bytes.count else { return false }
                for k in 0..<count where bytes[i + k] | 0x20 != word.utf8Start[k] | 0x20 { return false }
                return true
            }
            // Each one found: its line, where it begins, and how many VCALENDARs began before it.
            var found: [(line: Int, start: Int, calendarsBefore: Int)] = []
            var (line, start, calendars, inside, depth) = (1, 0, 0, false, 0)
            while start < bytes.count {
                if inside {
                    if starts("END:VCALENDAR", at: start) { inside = false }
                } else if depth == 0, starts("BEGIN:VCALENDAR", at: start) {
                    (inside, calendars) = (true, calendars + 1)
                } else if starts("BEGIN:", at: start) {
                    if depth == 0 { found.append((line, start, calendars)) }
                    depth += 1
                } else if starts("END:", at: start) {
                    depth = max(0, depth - 1)
                }
                guard let newline = bytes[start...].firstIndex(of: 10) else { break }
                (line, start) = (line + 1, newline + 1)
            }
            guard calendars > 0 else { return ([], 0) }
            let named = found.prefix(naming).map { component in
                let end = bytes[component.start...].prefix(40).firstIndex { $0 == 10 || $0 == 13 } ?? min(bytes.count, component.start + 40)
                let place =
                    component.calendarsBefore == 0
                    ? "before BEGIN:VCALENDAR" : component.calendarsBefore < calendars ? "between END:VCALENDAR and BEGIN:VCALENDAR" : "after END:VCALENDAR"
                let text = DisplayText.escaped(String(decoding: bytes[component.start..<end], as: UTF8.self))
                return "\(text) at line \(component.line) \(place)"
            }
            return (named, found.count)
        }

        /// A VTIMEZONE whose STANDARD or DAYLIGHT rule repeats other than yearly or monthly is no
        /// zone anyone writes, and libical would expand it (every second, say) from its DTSTART to
        /// today on first use: removed, so its TZID falls back to the IANA zone of that name, or
        /// the items in it are reported and skipped.
        mutating func dropUnusableZones(_ calendar: OpaquePointer) {
            let f = ical.f
            for zone in children(calendar, ICAL_VTIMEZONE_COMPONENT) {
                let observances = children(zone, ICAL_XSTANDARD_COMPONENT) + children(zone, ICAL_XDAYLIGHT_COMPONENT)
                let frequencies = observances.flatMap { properties($0, ICAL_RRULE_PROPERTY) }.map { f.icalproperty_get_rrule($0).freq }
                guard let bad = frequencies.first(where: { $0 != ICAL_YEARLY_RECURRENCE && $0 != ICAL_MONTHLY_RECURRENCE }) else { continue }
                let tzid =
                    f.icalcomponent_get_first_property(zone, ICAL_TZID_PROPERTY).flatMap { f.icalproperty_get_tzid($0) }
                    .map { String(cString: $0) } ?? "(no TZID)"
                problem(
                    "VTIMEZONE \"\(DisplayText.escaped(tzid))\": a rule repeating \(CalendarReader.frequency(bad)) is no time zone rule: that VTIMEZONE is not used"
                )
                f.icalcomponent_remove_component(calendar, zone)
                f.icalcomponent_free(zone)
            }
        }

        /// libical keeps going past what it cannot parse and leaves an X-LIC-ERROR behind: say so.
        mutating func reportErrors(_ component: OpaquePointer) {
            let f = ical.f
            guard f.icalcomponent_count_errors(component) > 0 else { return }
            var reported = 0
            func walk(_ c: OpaquePointer, _ reader: inout FileReader) {
                for property in reader.properties(c, ICAL_XLICERROR_PROPERTY) where reported < 5 {
                    let text = f.icalproperty_get_xlicerror(property).map { String(cString: $0) } ?? "unreadable property"
                    reader.problem("libical: \(text) (that property is ignored)")
                    reported += 1
                }
                for sub in reader.children(c, ICAL_ANY_COMPONENT) { walk(sub, &reader) }
            }
            walk(component, &self)
        }
    }
}
