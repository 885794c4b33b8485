/// Our own exported items, met again after other devices had them (docs/calendars.md, "Your items
/// on other devices"): what a file says in our terms (`facts`), what another device changed since
/// we wrote it (`changes`), and the file to write next, which keeps everything they wrote
/// (`merge`). Pure text in, values or text out; the store and the files are the caller's.
public enum CalendarRoundTrip {
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
        /// The latest ACKNOWLEDGED of its alarms, or X-MOZ-LASTACK: alarms up to then were seen.
        public var acknowledged: Instant?
        /// The snoozes written into it (RFC 9074 snooze alarms, X-MOZ-SNOOZE-TIME) not yet seen.
        public var snoozes: Set<Instant> = []

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
            /// An alarm snoozed until this instant.
            case snoozed(Instant)
        }

        public let what: What
        public let at: Instant?
    }

    // MARK: Reading a file

    /// What `text` says of the item. A time in another zone than `zone` is converted by
    /// `zones` (nil: that start is not understood, and left as it was).
    public static func facts(_ text: String, zone: Zone, zones: (String) -> Zone? = { _ in nil }) -> Facts {
        var facts = Facts()
        var overrides: [(id: Line, component: Component)] = []
        for case .component(let component) in Document(text).parts where ["VEVENT", "VTODO"].contains(component.name) {
            let changed = component.first("LAST-MODIFIED").flatMap(utc) ?? component.first("DTSTAMP").flatMap(utc)
            func later(_ a: Instant?, _ b: Instant?) -> Instant? { [a, b].compactMap { $0 }.max() }
            facts.acknowledged = later(facts.acknowledged, component.first("X-MOZ-LASTACK").flatMap(utc))
            for alarm in component.alarms {
                let acknowledged = alarm.first { $0.name == "ACKNOWLEDGED" }.flatMap(utc)
                let trigger = alarm.first { $0.name == "TRIGGER" }
                let isSnooze = alarm.contains { $0.name == "RELATED-TO" && $0.parameter("RELTYPE")?.uppercased() == "SNOOZE" }
                if isSnooze, let until = trigger.flatMap(utc) {
                    if (acknowledged ?? Instant(secondsSinceEpoch: .min)) < until { facts.snoozes.insert(until) }
                } else {
                    facts.acknowledged = later(facts.acknowledged, acknowledged)
                }
            }
            for line in component.properties where line.name.hasPrefix("X-MOZ-SNOOZE-TIME") {
                if let until = utc(line), until > (facts.acknowledged ?? Instant(secondsSinceEpoch: .min)) { facts.snoozes.insert(until) }
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
    static func utc(_ line: Line) -> Instant? {
        if case .utc(let at)? = RecurrenceRule.until(line.value) { return at }
        return nil
    }

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
        if let acknowledged = file.acknowledged, acknowledged > (base.acknowledged ?? Instant(secondsSinceEpoch: .min)) {
            result.append(Change(what: .acknowledged(acknowledged), at: acknowledged))
        }
        for until in file.snoozes.subtracting(base.snoozes).sorted() { result.append(Change(what: .snoozed(until), at: nil)) }
        return result
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
        case .acknowledged, .snoozed:
            return false
        }
    }

    // MARK: Writing again

    /// The names of the properties an export writes: everything else in a file is another's.
    static let ours: Set<String> = ["UID", "SUMMARY", "DTSTART", "DUE", "DURATION", "RRULE", "EXDATE", "STATUS", "RECURRENCE-ID"]

    /// `fresh` (the item as exported now) written over `file` (what the folder holds) without
    /// losing what other devices wrote: only what changed here since `previous` (the item as we
    /// exported it last time) is written — a property of ours, an alarm added or taken out, an
    /// instance edited here or no longer — and everything else stays as the file has it, byte
    /// for byte. Without `previous`, each of ours that differs is written. Nil when that leaves
    /// `file` as it is (no write, its DTSTAMP kept).
    public static func merge(file: String, previous: String?, fresh: String, zone: Zone) -> String? {
        // An instance is known by the time its RECURRENCE-ID names, however written (in UTC, or
        // in its zone): the file's override of an instance is ours of it.
        func key(_ c: Component) -> String {
            guard let id = c.first("RECURRENCE-ID"), let at = local(id, zone, { _ in nil }) else { return c.key }
            return c.name + ":" + at.date.description + (at.time.map { " \($0)" } ?? "")
        }
        let mine = Document(fresh), theirs = Document(file), before = previous.map(Document.init)
        var out: [String] = []
        var changed = false
        let present = Set(theirs.components.map(key))
        func emit(_ lines: [Line]) { for line in lines { out += line.physical.map(String.init) } }
        for part in theirs.parts {
            switch part {
            case .line(let line):
                if line.name == "END" && line.value.uppercased() == "VCALENDAR" {
                    // What is new here: zones and instances the file lacks (one it dropped that
                    // we wrote before stays out).
                    for component in mine.components where !present.contains(key(component)) {
                        guard before?.components.contains(where: { key($0) == key(component) }) != true else { continue }
                        emit(component.lines)
                        changed = true
                    }
                }
                emit([line])
            case .component(let component):
                guard ["VEVENT", "VTODO"].contains(component.name), let fresh = mine.components.first(where: { key($0) == key(component) }) else {
                    // Ours before and no longer (an instance no longer edited here): gone.
                    if ["VEVENT", "VTODO"].contains(component.name), before?.components.contains(where: { key($0) == key(component) }) == true {
                        changed = true
                    } else {
                        emit(component.lines)
                    }
                    continue
                }
                let (lines, differs) = mergeComponent(component, previous: before?.components.first { key($0) == key(component) }, fresh: fresh)
                changed = changed || differs
                emit(lines)
            }
        }
        guard changed else { return nil }
        return out.joined(separator: theirs.end) + theirs.end
    }

    /// One component of ours over the file's: each property of ours that changed here since
    /// `previous` from `fresh`, the rest as the file has it, in its place; an alarm of ours
    /// added or taken out here (by TRIGGER) added or taken out (a component we did not write
    /// before keeps the alarms the file gives it). Its DTSTAMP is `fresh`'s when
    /// anything changed.
    static func mergeComponent(_ file: Component, previous: Component?, fresh: Component) -> (lines: [Line], changed: Bool) {
        func values(_ c: Component?, _ name: String) -> [String] { c?.properties.filter { $0.name == name }.map(\.content) ?? [] }
        func triggers(_ c: Component?) -> Set<String> {
            Set(c?.children.filter { $0.name == "VALARM" && !$0.isSnooze }.compactMap { $0.first("TRIGGER")?.content } ?? [])
        }
        var out: [Line] = [file.begin]
        var changed = false
        var done = Set<String>()
        var stamp: Int?
        let (before, now, there) = (triggers(previous), triggers(fresh), triggers(file))
        // Ours changed here: written from `fresh`. What other programs write beside them goes
        // with them (a DTEND for our DURATION; COMPLETED and PERCENT-COMPLETE of a status).
        var written = Set(
            ours.filter { name in
                let mine = values(fresh, name)
                return mine != values(file, name) && !(previous != nil && values(previous, name) == mine)
            })
        var dropped = Set<String>()
        if !written.isDisjoint(with: ["DTSTART", "DUE", "DURATION"]) && values(fresh, "DTEND").isEmpty && !values(file, "DTEND").isEmpty {
            // Their end goes, and our length says it again.
            dropped.insert("DTEND")
            if !values(fresh, "DURATION").isEmpty { written.insert("DURATION") }
        }
        if written.contains("STATUS") { dropped.formUnion(["COMPLETED", "PERCENT-COMPLETE"]) }
        func take(_ name: String) {
            guard done.insert(name).inserted else { return }
            if written.contains(name) {
                out += fresh.properties.filter { $0.name == name }
                changed = true
            } else {
                out += file.properties.filter { $0.name == name }
            }
        }
        // Ours the file lacks go before its first alarm (properties come before components).
        let names = Set(file.properties.map(\.name))
        func missing() { for line in fresh.properties where ours.contains(line.name) && !names.contains(line.name) { take(line.name) } }
        for part in file.parts {
            switch part {
            case .line(let line):
                if line.name == "DTSTAMP" && stamp == nil { stamp = out.count }
                if ours.contains(line.name) {
                    take(line.name)
                } else if dropped.contains(line.name) {
                    changed = true
                } else {
                    out.append(line)
                }
            case .component(let sub):
                missing()
                // An alarm of ours taken out here goes; every other is kept with what was written into it.
                if sub.name == "VALARM", !sub.isSnooze, let trigger = sub.first("TRIGGER")?.content, before.contains(trigger), !now.contains(trigger) {
                    changed = true
                } else {
                    out += sub.lines
                }
            }
        }
        missing()
        for alarm in fresh.children where alarm.name == "VALARM" {
            guard let trigger = alarm.first("TRIGGER")?.content, !there.contains(trigger), previous != nil, !before.contains(trigger) else { continue }
            out += alarm.lines
            changed = true
        }
        if changed, let at = stamp, let now = fresh.first("DTSTAMP") { out[at] = now }
        out.append(file.end)
        return (out, changed)
    }

    // MARK: A file's parts

    /// One content line (`CalendarWriteBack.Line`), with its parameters.
    typealias Line = CalendarWriteBack.Line

    /// A component: its BEGIN and END, and what is between in order (properties, and
    /// sub-components such as VALARMs, whole).
    struct Component {
        let name: String
        let begin: Line
        let end: Line
        let parts: [Part]

        var properties: [Line] { parts.compactMap { if case .line(let l) = $0 { l } else { nil } } }
        var children: [Component] { parts.compactMap { if case .component(let c) = $0 { c } else { nil } } }
        var alarms: [[Line]] { children.filter { $0.name == "VALARM" }.map(\.lines) }
        var lines: [Line] {
            [begin]
                + parts.flatMap { part -> [Line] in
                    switch part {
                    case .line(let line): [line]
                    case .component(let child): child.lines
                    }
                } + [end]
        }
        func first(_ name: String) -> Line? { properties.first { $0.name == name } }
        /// Which instance it is: its RECURRENCE-ID as written ("" for the series), or a zone's TZID.
        var key: String { name + ":" + (first("RECURRENCE-ID")?.content ?? first("TZID")?.value ?? "") }
        var isSnooze: Bool { properties.contains { $0.name == "RELATED-TO" && $0.parameter("RELTYPE")?.uppercased() == "SNOOZE" } }
    }

    enum Part {
        case line(Line)
        case component(Component)
    }

    /// A file as lines outside components and the VCALENDAR's components.
    struct Document {
        let parts: [Part]
        let end: String

        var components: [Component] { parts.compactMap { if case .component(let c) = $0 { c } else { nil } } }

        init(_ text: String) {
            let (lines, end) = CalendarWriteBack.lines(text)
            self.end = end
            var index = 0
            var parts: [Part] = []
            var depth = 0
            while index < lines.count {
                let line = lines[index]
                if line.name == "BEGIN" && depth == 1 {
                    let (component, next) = Self.component(lines, from: index)
                    parts.append(component.map(Part.component) ?? .line(line))
                    index = component == nil ? index + 1 : next
                    continue
                }
                if line.name == "BEGIN" { depth += 1 }
                if line.name == "END" { depth -= 1 }
                parts.append(.line(line))
                index += 1
            }
            self.parts = parts
        }

        /// The component that begins at `start`, and the index after its END; nil when it never ends.
        static func component(_ lines: [Line], from start: Int) -> (Component?, Int) {
            let name = lines[start].value.uppercased()
            var parts: [Part] = []
            var index = start + 1
            while index < lines.count {
                let line = lines[index]
                if line.name == "END" && line.value.uppercased() == name {
                    return (Component(name: name, begin: lines[start], end: line, parts: parts), index + 1)
                }
                if line.name == "BEGIN" {
                    let (child, next) = component(lines, from: index)
                    guard let child else { return (nil, index) }
                    parts.append(.component(child))
                    index = next
                    continue
                }
                parts.append(.line(line))
                index += 1
            }
            return (nil, index)
        }
    }
}

extension CalendarWriteBack.Line {
    /// Its parameters and value as written, unfolded (`;TZID=Europe/Berlin:20261201T090000`):
    /// what two lines of the same name are compared by.
    var content: String { String(head.dropFirst(name.count)) + ":" + value }

    /// A parameter's value (`TZID`), quotes taken off.
    func parameter(_ wanted: String) -> String? {
        for part in head.split(separator: ";").dropFirst() {
            guard let equals = part.firstIndex(of: "=") else { continue }
            if part[..<equals].uppercased() == wanted {
                var value = part[part.index(after: equals)...]
                if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
                return String(value)
            }
        }
        return nil
    }

    /// The same line with another value (one of a list's values, to be read alone).
    func with(value: String) -> CalendarWriteBack.Line {
        CalendarWriteBack.Line(physical: physical, name: name, head: head, value: value)
    }
}
