/// What acting on a calendar item's notification writes back into that calendar's file (RFC 9074
/// and what Thunderbird writes), so that a sync tool carries it to every other device.
/// Pure text in, text out, through the file's model (`ICalendar`): everything else in the file is
/// kept byte for byte (other properties, their order, unknown X- properties, line folding and line
/// ends); what is written is folded at 75 octets, with the file's line end.
public enum CalendarWriteBack {
    /// The text with every VEVENT or VTODO of `uid` acknowledged at `at`: each VALARM's
    /// ACKNOWLEDGED, and the component's X-MOZ-LASTACK, set to it (alarms up to then have been
    /// seen); nil when the file holds no component of that UID.
    public static func acknowledge(_ text: String, uid: String, at: Instant) -> String? {
        edit(text, uid: uid, at: at, snooze: nil)?.text
    }

    /// Done: as `acknowledge`, and a todo marked completed as Thunderbird and Tasks.org mark it
    /// (`STATUS:COMPLETED`, `COMPLETED` at `at`, `PERCENT-COMPLETE:100`), so its owner and every
    /// other device take it as done at the next sync: one that does not repeat on itself; one
    /// instance of a repeating one (`instance`, its `RECURRENCE-ID` value) on its override, which is
    /// added after the series when the file has none. Whether it was completed (an event is
    /// acknowledged only); nil when the file holds no such UID.
    public static func complete(_ text: String, uid: String, instance: String? = nil, at: Instant) -> (text: String, completed: Bool)? {
        edit(text, uid: uid, at: at, snooze: nil, closing: .completed, instance: instance)
    }

    /// Skip: as `acknowledge`, and the item's occurrence cancelled (`STATUS:CANCELLED`, which RFC
    /// 5545 allows on an event and on a todo): one that does not repeat on itself, one instance of a
    /// repeating one on its override (added after the series when the file has none, with the
    /// series' length). Whether it was cancelled; nil when the file holds no such UID.
    public static func cancel(_ text: String, uid: String, instance: String? = nil, at: Instant) -> (text: String, cancelled: Bool)? {
        edit(text, uid: uid, at: at, snooze: nil, closing: .cancelled, instance: instance).map { ($0.text, $0.completed) }
    }

    /// How an occurrence is closed: done (a todo only) or cancelled.
    enum Closing {
        case completed, cancelled

        func fits(_ kind: String) -> Bool { self == .cancelled || kind == "VTODO" }

        /// The properties it writes, and those it replaces.
        func lines(_ stamp: String) -> [String] {
            self == .completed ? ["STATUS:COMPLETED", "COMPLETED:\(stamp)", "PERCENT-COMPLETE:100"] : ["STATUS:CANCELLED"]
        }
        var replaces: [String] { self == .completed ? ["STATUS", "COMPLETED", "PERCENT-COMPLETE"] : ["STATUS"] }
    }

    /// As `acknowledge`, and a snooze until `until` added to the component without RECURRENCE-ID:
    /// an RFC 9074 snooze alarm (RELATED-TO;RELTYPE=SNOOZE naming the first VALARM's UID, when
    /// it has one) and Thunderbird's X-MOZ-SNOOZE-TIME (X-MOZ-SNOOZE-TIME-µs for one instance of a
    /// repeating item, by its original start).
    public static func snooze(_ text: String, uid: String, instanceStart: Instant?, until: Instant, at: Instant) -> String? {
        edit(text, uid: uid, at: at, snooze: (instanceStart, until))?.text
    }

    typealias Property = ICalendar.Property
    typealias Component = ICalendar.Component

    /// The component's own UID and RECURRENCE-ID.
    static func identity(_ c: Component) -> (uid: String?, instance: String?) { (c.first("UID")?.value, c.first("RECURRENCE-ID")?.value) }

    static func edit(
        _ text: String, uid: String, at: Instant, snooze: (instanceStart: Instant?, until: Instant)?, closing: Closing? = nil,
        instance: String? = nil
    ) -> (text: String, completed: Bool)? {
        let document = ICalendar.Document(parsing: text)
        // An unended component is not changed.
        let items = document.calendarItems().filter { identity($0).uid == uid }
        guard !items.isEmpty else { return nil }
        /// The instance's override is in the file already: closed there, none added.
        let hasOverride = instance != nil && document.calendarItems().contains { identity($0) == (uid, instance) }
        let stamp = CalendarExport.basic(at)
        var completed = false
        let edited = document.replacingItems { component in
            guard component.end != nil, identity(component).uid == uid else { return [.component(component)] }
            let own = component.properties
            let master = identity(component).instance == nil
            // An item that does not repeat is closed on itself; a repeating one's instance on its override.
            let repeats = own.contains { ["RRULE", "RDATE"].contains($0.name) }
            let closes = closing.map { $0.fits(component.name) } ?? false
            let completes = closes && (master ? !repeats : identity(component).instance == instance)
            let addsOverride = closes && master && repeats && !hasOverride && instance != nil
            completed = completed || completes || addsOverride
            // The item's marks go where its first alarm was, else last of its own properties.
            var marks = [Property("X-MOZ-LASTACK:\(stamp)")]
            if completes, let closing { marks += closing.lines(stamp).map(Property.init) }
            if master, let snooze {
                let name = snooze.instanceStart.map { "X-MOZ-SNOOZE-TIME-\($0.secondsSinceEpoch * 1_000_000)" } ?? "X-MOZ-SNOOZE-TIME"
                marks.append(Property("\(name):\(CalendarExport.basic(snooze.until))"))
            }
            var changed = component
            changed.items = []
            var parent: String?
            for item in component.items {
                switch item {
                case .property(let p):
                    if p.name == "X-MOZ-LASTACK" || (master && snooze != nil && p.name.hasPrefix("X-MOZ-SNOOZE-TIME")) { continue }
                    if completes, let closing, closing.replaces.contains(p.name) { continue }
                    changed.items.append(item)
                case .component(var alarm):
                    guard alarm.name == "VALARM" else {
                        changed.items.append(item)
                        continue
                    }
                    changed.items += marks.map(ICalendar.Item.property)
                    marks = []
                    parent = parent ?? alarm.first("UID")?.value
                    alarm.items.removeAll { if case .property(let p) = $0 { p.name == "ACKNOWLEDGED" } else { false } }
                    alarm.items.append(.property(Property("ACKNOWLEDGED:\(stamp)")))
                    changed.items.append(.component(alarm))
                }
            }
            changed.items += marks.map(ICalendar.Item.property)
            if master, let snooze {
                let until = CalendarExport.basic(snooze.until)
                var lines = ["UID:\(CalendarExport.escape(uid))-snooze-\(until)"]
                if let parent { lines.append("RELATED-TO;RELTYPE=SNOOZE:\(parent)") }
                lines += ["ACTION:DISPLAY", "DESCRIPTION:Snoozed", "TRIGGER;VALUE=DATE-TIME:\(until)"]
                changed.items.append(.component(Component("VALARM", lines.map { .property(Property($0)) })))
            }
            guard addsOverride, let instance, let closing else { return [.component(changed)] }
            let value = instance.count == 8 ? ";VALUE=DATE:\(instance)" : ":\(instance)"
            // The series' own UID and SUMMARY, as written.
            var lines = own.filter { $0.name == "UID" || $0.name == "SUMMARY" }
            lines += [Property("RECURRENCE-ID\(value)"), Property("DTSTART\(value)")]
            if component.name == "VEVENT", let length = length(own) { lines.append(Property("DURATION:\(length)")) }
            lines += (["DTSTAMP:\(stamp)"] + closing.lines(stamp)).map(Property.init)
            return [.component(changed), .component(Component(component.name, lines.map(ICalendar.Item.property)))]
        }
        return (edited.rendered, completed)
    }

    /// An event's length, for an instance's override: its DURATION, or DTEND less DTSTART when
    /// both are dates or both the same kind of time (`P2D`, `PT3600S`); nil when it cannot be told.
    static func length(_ own: [Property]) -> String? {
        if let duration = own.first(where: { $0.name == "DURATION" }) { return duration.value }
        let value = { (name: String) in own.first { $0.name == name }.flatMap { RecurrenceRule.until($0.value) } }
        // A local time's zone: its TZID parameter, as written.
        let zone = { (name: String) in own.first { $0.name == name }?.parameter("TZID")?.uppercased() }
        switch (value("DTSTART"), value("DTEND")) {
        case (.date(let start)?, .date(let end)?) where end >= start: return "P\(end.dayNumber - start.dayNumber)D"
        case (.utc(let start)?, .utc(let end)?) where end >= start: return "PT\(end.secondsSinceEpoch - start.secondsSinceEpoch)S"
        case (.local(let start)?, .local(let end)?) where end.localSeconds >= start.localSeconds && zone("DTSTART") == zone("DTEND"):
            return "PT\(end.localSeconds - start.localSeconds)S"
        default: return nil
        }
    }
}
