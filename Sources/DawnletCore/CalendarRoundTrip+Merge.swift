/// Writing a file again: ours over theirs, keeping everything another device wrote.
extension CalendarRoundTrip {
    /// The names of the properties an export writes: everything else in a file is another's.
    static let ours: Set<String> = [
        "UID", "SUMMARY", "DTSTART", "DUE", "DURATION", "RRULE", "EXDATE", "STATUS", "RECURRENCE-ID", "DESCRIPTION", "LOCATION", "URL", "PRIORITY",
        "CATEGORIES",
    ]

    /// `fresh` (the item as exported now) written over `file` (what the folder holds) without
    /// losing what other devices wrote: only what changed here since `previous` (the item as we
    /// exported it last time) is written — a property of ours, an alarm added or taken out, an
    /// instance edited here or no longer — and everything else stays as the file has it, byte
    /// for byte. Without `previous`, each of ours that differs is written. Nil when that leaves
    /// `file` as it is (no write, its DTSTAMP kept).
    public static func merge(file: String, previous: String?, fresh: String, zone: Zone) -> String? {
        let previous = previous.map { ICalendar.Document(parsing: $0) }
        return merge(file: ICalendar.Document(parsing: file), previous: previous, fresh: ICalendar.Document(parsing: fresh), zone: zone)?.rendered
    }

    /// `merge` of the files' models: the file to write, nil when it stays as it is.
    public static func merge(
        file theirs: ICalendar.Document, previous before: ICalendar.Document?, fresh mine: ICalendar.Document, zone: Zone
    ) -> ICalendar.Document? {
        // An instance is known by the time its RECURRENCE-ID names, however written (in UTC, or
        // in its zone): the file's override of an instance is ours of it.
        func key(_ c: Component) -> String {
            guard let id = c.first("RECURRENCE-ID"), let at = local(id, zone, { _ in nil }) else { return c.key }
            return c.name + ":" + at.date.description + (at.time.map { " \($0)" } ?? "")
        }
        // The components of each VCALENDAR (its zones, events and todos), ended ones only.
        func members(_ d: ICalendar.Document) -> [Component] { d.components.flatMap(\.children).filter { $0.end != nil } }
        // What is written from ours is rendered with the file's line end.
        let (ours, earlier) = (members(mine).map(\.detached), before.map(members))
        var changed = false
        let present = Set(members(theirs).map(key))
        func merged(_ items: [ICalendar.Item]) -> [ICalendar.Item] {
            var out: [ICalendar.Item] = []
            for item in items {
                guard case .component(let component) = item, component.isItem, component.end != nil else {
                    out.append(item)
                    continue
                }
                guard let fresh = ours.first(where: { key($0) == key(component) }) else {
                    // Ours before and no longer (an instance no longer edited here): gone.
                    if earlier?.contains(where: { key($0) == key(component) }) == true { changed = true } else { out.append(item) }
                    continue
                }
                let (merged, differs) = mergeComponent(component, previous: earlier?.first { key($0) == key(component) }, fresh: fresh)
                changed = changed || differs
                out.append(.component(merged))
            }
            return out
        }
        var result = theirs
        result.items = theirs.items.map { item in
            guard case .component(var calendar) = item, calendar.name == "VCALENDAR" else { return item }
            calendar.items = merged(calendar.items)
            guard calendar.end != nil else { return .component(calendar) }
            // What is new here: zones and instances the file lacks (one it dropped that we wrote
            // before stays out).
            for component in ours where !present.contains(key(component)) {
                // Dropped there and not changed here since: stays out. Changed here: ours is
                // written, their deletion notwithstanding (what it meant is applied).
                if let was = earlier?.first(where: { key($0) == key(component) }), sameButStamp(was, component) { continue }
                calendar.items.append(.component(component))
                changed = true
            }
            return .component(calendar)
        }
        return changed ? result : nil
    }

    /// Whether two components say the same but for their DTSTAMPs.
    static func sameButStamp(_ a: Component, _ b: Component) -> Bool {
        func content(_ c: Component) -> [String] { c.lines.filter { $0.name != "DTSTAMP" }.map { $0.name + $0.content } }
        return content(a) == content(b)
    }

    /// A kept alarm of ours (`file`'s) with `fresh`'s DESCRIPTION (the item's title) where the
    /// title changed here since `previous` and the file still says the one we wrote then; nil
    /// when it stays as it is.
    static func describe(_ file: Component, previous: Component?, fresh: Component?) -> Component? {
        guard let fresh, let previous, let now = fresh.first("DESCRIPTION"), let was = previous.first("DESCRIPTION"),
            let there = file.first("DESCRIPTION"), now.content != was.content, there.content == was.content
        else { return nil }
        var renamed = file
        renamed.items = file.items.map { item in
            if case .property(let line) = item, line.name == "DESCRIPTION" { return .property(now) }
            return item
        }
        return renamed
    }

    /// One component of ours over the file's: each property of ours that changed here since
    /// `previous` from `fresh`, the rest as the file has it, in its place; an alarm of ours
    /// added or taken out here (by TRIGGER) added or taken out (a component we did not write
    /// before keeps the alarms the file gives it). Its DTSTAMP is `fresh`'s when
    /// anything changed.
    static func mergeComponent(_ file: Component, previous: Component?, fresh: Component) -> (component: Component, changed: Bool) {
        func values(_ c: Component?, _ name: String) -> [String] { c?.properties.filter { $0.name == name }.map(\.content) ?? [] }
        func alarm(_ c: Component?, _ trigger: String) -> Component? {
            c?.children.first { $0.name == "VALARM" && !$0.isSnooze && $0.first("TRIGGER")?.content == trigger }
        }
        func triggers(_ c: Component?) -> Set<String> {
            Set(c?.children.filter { $0.name == "VALARM" && !$0.isSnooze }.compactMap { $0.first("TRIGGER")?.content } ?? [])
        }
        var out: [ICalendar.Item] = []
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
                out += fresh.properties.filter { $0.name == name }.map(ICalendar.Item.property)
                changed = true
            } else {
                out += file.properties.filter { $0.name == name }.map(ICalendar.Item.property)
            }
        }
        // Ours the file lacks go before its first alarm (properties come before components).
        let names = Set(file.properties.map(\.name))
        func missing() { for line in fresh.properties where ours.contains(line.name) && !names.contains(line.name) { take(line.name) } }
        for item in file.items {
            switch item {
            case .property(let line):
                if line.name == "DTSTAMP" && stamp == nil { stamp = out.count }
                if ours.contains(line.name) {
                    take(line.name)
                } else if dropped.contains(line.name) {
                    changed = true
                } else {
                    out.append(item)
                }
            case .component(let sub):
                missing()
                // An alarm of ours taken out here goes; every other is kept with what was written into it.
                if sub.name == "VALARM", !sub.isSnooze, let trigger = sub.first("TRIGGER")?.content, before.contains(trigger), !now.contains(trigger) {
                    changed = true
                } else if sub.name == "VALARM", !sub.isSnooze, let trigger = sub.first("TRIGGER")?.content,
                    let renamed = describe(sub, previous: alarm(previous, trigger), fresh: alarm(fresh, trigger))
                {
                    // Kept, with the item's title as it is now.
                    out.append(.component(renamed))
                    changed = true
                } else {
                    out.append(item)
                }
            }
        }
        missing()
        for alarm in fresh.children where alarm.name == "VALARM" {
            guard let trigger = alarm.first("TRIGGER")?.content, !there.contains(trigger), previous != nil, !before.contains(trigger) else { continue }
            out.append(.component(alarm))
            changed = true
        }
        if changed, let at = stamp, let now = fresh.first("DTSTAMP") { out[at] = .property(now) }
        var merged = file
        merged.items = out
        return (merged, changed)
    }
}

extension ICalendar.Component {
    /// Which instance it is: its RECURRENCE-ID as written ("" for the series), or a zone's TZID.
    var key: String { name + ":" + (first("RECURRENCE-ID")?.content ?? first("TZID")?.value ?? "") }
    /// A snooze alarm (`snoozedAlarm`): no alarm of ours.
    var isSnooze: Bool { snoozedAlarm != nil }
}
