/// An iCalendar file's VTODOs and VEVENTs as our todos and events: read into the one model
/// (`ICalendar.Document`), each item's days, times, done and skipped instances by the round
/// trip's own reading (`CalendarRoundTrip.facts`), its RRULE by `RecurrenceRule.schedule`.
extension ItemImport {
    /// The items of an iCalendar file, in its order, one entry per UID. A file that is not UTF-8,
    /// has a line longer than `longestLine` or no VCALENDAR is refused whole.
    public static func calendar(_ bytes: [UInt8], zone: Zone, zones: (String) -> Zone?) throws(Problem) -> [Entry] {
        guard String(validating: bytes, as: UTF8.self) != nil else { throw Problem("not UTF-8 text, so no iCalendar file") }
        var line = 0, long: Int?
        ICalendar.forEachLine(bytes) { range, physical in
            line += 1
            if long == nil, range.count > longestLine { long = line }
            line += physical - 1
        }
        if let long { throw Problem("line \(long) is longer than \(longestLine / 1024) KiB") }
        let document = ICalendar.Document(parsing: bytes)
        guard document.components.contains(where: { $0.name == "VCALENDAR" }) else { throw Problem("no BEGIN:VCALENDAR, so no iCalendar file") }
        var order: [String] = []
        var groups: [String: [ICalendar.Component]] = [:]
        var entries: [Entry] = []
        for component in document.calendarItems() {
            // A file with no UIDs (calcurse writes none): an item known by what it says, so an
            // item changed there since is another one here.
            let said = [component.name] + ["SUMMARY", "DTSTART", "DUE", "RRULE"].map { component.first($0)?.content ?? "" }
            let uid = component.first("UID")?.value ?? ""
            let id = uid.isEmpty ? "hash:" + fnv1a(said.joined(separator: "\n")) : uid
            if groups[id] == nil { order.append(id) }
            groups[id, default: []].append(component)
        }
        for uid in order { entries.append(calendarEntry(uid, groups[uid] ?? [], zone: zone, zones: zones)) }
        return entries
    }

    /// One UID's components (the item and its changed instances) as an entry.
    static func calendarEntry(_ uid: String, _ components: [ICalendar.Component], zone: Zone, zones: (String) -> Zone?) -> Entry {
        let masters = components.filter { $0.first("RECURRENCE-ID") == nil }
        let summary = (masters.first ?? components[0]).first("SUMMARY").map { unescaped($0.value) } ?? ""
        func refused(_ why: String) -> Entry { .refused(sourceID: uid, title: line(summary) ?? "", reason: why) }
        guard let master = masters.first else { return refused("only changed instances of a repeating item are here, not the item") }
        guard masters.count == 1, Set(components.map(\.name)).count == 1 else { return refused("its UID is given to more than one item") }
        let title: String
        switch ItemImport.title(summary) {
        case .success(let t): title = t
        case .failure(let why): return refused(why.description)
        }
        if master.first("STATUS")?.value.uppercased() == "CANCELLED" {
            return .skipped(sourceID: uid, title: title, reason: "it is cancelled")
        }
        var item = Item(sourceID: uid, kind: master.name == "VTODO" ? .todo : .event, title: title)
        let calendar = ICalendar.Document([.component(ICalendar.Component("VCALENDAR", components.map { .component($0) }))])
        var facts = CalendarRoundTrip.facts(calendar, zone: zone, zones: zones)
        let when = master.first("DUE") ?? master.first("DTSTART")
        // A time in a zone the rules here know by its name (Thunderbird's, khal's): the item keeps
        // that zone, its wall time read there, so it keeps its instant wherever it is looked at.
        var own = zone
        if let when, when.value.contains("T"), let tzid = when.parameter("TZID"), let named = zones(tzid), named.identifier != zone.identifier {
            (own, item.zone) = (named, tzid)
            facts = CalendarRoundTrip.facts(calendar, zone: named, zones: zones)
        }
        if let when, facts.date == nil {
            return refused("its time \(DisplayText.escaped(when.value)) in \(DisplayText.escaped(when.parameter("TZID") ?? "?")) cannot be read")
        }
        (item.date, item.time) = (facts.date, facts.time)
        if item.kind == .event, item.date == nil { return refused("it has no start (DTSTART)") }
        let rules = master.properties.filter { $0.name == "RRULE" }
        if !rules.isEmpty {
            guard rules.count == 1 else { return refused("it has more than one RRULE") }
            if master.first("RDATE") != nil { return refused("it repeats on dates of its own (RDATE) too") }
            guard let start = item.date else { return refused("it repeats, but has no start") }
            let rule: RecurrenceRule
            do { rule = try RecurrenceRule(parsing: rules[0].value) } catch { return refused("its RRULE cannot be read: \(error.description)") }
            switch rule.schedule(start: start, time: item.time, zone: own) {
            case .success(let schedule): item.schedule = schedule
            case .failure(let why): return refused(why.description)
            }
            var moved = 0
            for (date, instance) in facts.instances where item.schedule?.matches(date, defaultAnchor: start) == true {
                if instance.status != .open { item.instances[date] = instance.status }
                if instance.movedTo != nil || (instance.time != nil && instance.status == .open) { moved += 1 }
            }
            if moved > 0 { item.leftOut.append("\(moved) instance\(moved == 1 ? "" : "s") moved to another day or time") }
        } else {
            item.done = facts.done
            if let completed = master.first("COMPLETED").flatMap({ CalendarRoundTrip.local($0, own, zones) }) { item.doneOn = completed.date }
        }
        if item.kind == .event, let length = CalendarWriteBack.length(master.properties), let span = duration(length), !span.negative {
            let minutes = item.time == nil ? (span.total > 86_400 ? span.total / 60 : 0) : span.total / 60
            if minutes > 43_200 { item.leftOut.append("its length, longer than 30 days") } else if minutes > 0 { item.durationMinutes = minutes }
        }
        item.reminders = alarms(master, &item)
        if let text = master.first("DESCRIPTION")?.value { item.details.note = note(unescaped(text)) }
        setLocation(master.first("LOCATION").map { unescaped($0.value) }, &item)
        setLink(master.first("URL")?.value, &item)
        if let value = master.first("PRIORITY")?.value, let n = Int(value), (1...9).contains(n) { item.details.priority = n }
        setTags(master.properties.filter { $0.name == "CATEGORIES" }.flatMap { list($0.value) }, &item)
        return .item(item)
    }

    /// The reminders an item's VALARMs say: each TRIGGER a duration before (or at) the start of
    /// an event, the due time of a todo (its start when it has no DUE). Others are left out, said.
    static func alarms(_ component: ICalendar.Component, _ item: inout Item) -> [ReminderOffset] {
        let related = component.name == "VTODO" && component.first("DUE") != nil ? "END" : "START"
        var offsets: [ReminderOffset] = []
        for alarm in component.alarms where alarm.first("ACTION")?.value.uppercased() != "NONE" {
            guard let trigger = alarm.first("TRIGGER") else { continue }
            guard trigger.parameter("VALUE")?.uppercased() != "DATE-TIME", let span = duration(trigger.value) else {
                item.leftOut.append("an alarm at a set time (\(DisplayText.escaped(trigger.value)))")
                continue
            }
            guard (trigger.parameter("RELATED")?.uppercased() ?? "START") == related else {
                item.leftOut.append("an alarm relative to its \(related == "START" ? "end" : "start")")
                continue
            }
            guard span.negative || span.total == 0 else {
                item.leftOut.append("an alarm after its \(item.kind == .todo ? "due time" : "start")")
                continue
            }
            let text =
                span.seconds == 0 && span.days == 0 && span.weeks > 0
                ? "\(span.weeks)w"
                : span.seconds == 0 && span.weeks == 0 && span.days > 0
                    ? "\(span.days)d" : span.total % 3600 == 0 && span.total > 0 ? "\(span.total / 3600)h" : "\(span.total / 60)m"
            guard let offset = ReminderOffset(text) else {
                item.leftOut.append("an alarm more than a year ahead")
                continue
            }
            if !offsets.contains(offset) { offsets.append(offset) }
        }
        return offsets
    }

    /// An RFC 5545 DURATION (`-P1DT2H`, `PT15M`, `P2W`): its sign and parts; nil when it is none.
    static func duration(_ text: String) -> (negative: Bool, weeks: Int, days: Int, seconds: Int, total: Int)? {
        var rest = Substring(text.uppercased())
        let negative = rest.hasPrefix("-")
        if rest.hasPrefix("-") || rest.hasPrefix("+") { rest = rest.dropFirst() }
        guard rest.hasPrefix("P"), rest.count > 1 else { return nil }
        rest = rest.dropFirst()
        var (weeks, days, seconds, number, inTime, any) = (0, 0, 0, 0, false, false)
        var digits = 0
        for c in rest {
            if let d = c.wholeNumberValue, c.isASCII {
                guard digits < 9 else { return nil }
                number = number * 10 + d
                digits += 1
                continue
            }
            switch (c, inTime) {
            case ("T", false) where digits == 0: inTime = true
            case ("W", false) where digits > 0: weeks = number
            case ("D", false) where digits > 0: days = number
            case ("H", true) where digits > 0: seconds += number * 3600
            case ("M", true) where digits > 0: seconds += number * 60
            case ("S", true) where digits > 0: seconds += number
            default: return nil
            }
            any = any || digits > 0
            (number, digits) = (0, 0)
        }
        guard any, digits == 0 else { return nil }
        return (negative, weeks, days, seconds, weeks * 604_800 + days * 86_400 + seconds)
    }

    /// A TEXT value (RFC 5545 §3.3.11) with its escapes undone: `\n`, `\,`, `\;`, `\\`.
    static func unescaped(_ text: String) -> String { text.contains("\\") ? list(text, splitting: false)[0] : text }

    /// A list value (CATEGORIES): split at commas not escaped (when `splitting`), each unescaped.
    static func list(_ text: String, splitting: Bool = true) -> [String] {
        var parts: [String] = []
        var current = ""
        var escaping = false
        for c in text {
            if escaping {
                current.append(c == "n" || c == "N" ? "\n" : c)
                escaping = false
            } else if c == "\\" {
                escaping = true
            } else if c == ",", splitting {
                parts.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        parts.append(current)
        return parts
    }
}
