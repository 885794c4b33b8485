/// What acting on a calendar item's notification writes back into that calendar's file (RFC 9074
/// and what Thunderbird writes), so that a sync tool carries it to every other device.
/// Pure text in, text out; everything else in the file is kept byte for byte: other properties,
/// their order, unknown X- properties, line folding and line ends.
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

    /// One content line as the file has it: its physical lines (a folded line and its
    /// continuations), its name, and its value unfolded.
    struct Line {
        var physical: [Substring]
        let name: String
        /// The name and parameters as written (`DTSTART;TZID=Europe/Berlin`).
        let head: String
        let value: String
    }

    static func lines(_ text: String) -> (lines: [Line], end: String) {
        let end = text.contains("\r\n") ? "\r\n" : "\n"
        var result: [Line] = []
        var pending: [Substring] = []
        func flush() {
            guard !pending.isEmpty else { return }
            var joined = pending.enumerated().map { $0.offset == 0 ? String($0.element) : String($0.element.dropFirst()) }.joined()
            // A byte order mark is no part of the first line's name (it stays in its bytes).
            if joined.hasPrefix("\u{FEFF}") { joined.removeFirst() }
            let colon = joined.firstIndex(of: ":") ?? joined.endIndex
            let head = joined[..<colon]
            let name = String(head[..<(head.firstIndex(of: ";") ?? head.endIndex)]).uppercased()
            result.append(
                Line(physical: pending, name: name, head: String(head), value: colon < joined.endIndex ? String(joined[joined.index(after: colon)...]) : ""))
            pending = []
        }
        // Lines end in CRLF or LF (to Swift, CRLF is one Character).
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\r\n" || $0 == "\n" }) {
            if let first = line.first, first == " " || first == "\t", !pending.isEmpty {
                pending.append(line)
            } else {
                flush()
                pending = [line]
            }
        }
        flush()
        // The split leaves one empty line after the last line end.
        if let last = result.last, last.physical == [""] { result.removeLast() }
        return (result, end)
    }

    static func edit(
        _ text: String, uid: String, at: Instant, snooze: (instanceStart: Instant?, until: Instant)?, closing: Closing? = nil,
        instance: String? = nil
    ) -> (text: String, completed: Bool)? {
        let (lines, end) = Self.lines(text)
        var completed = false
        /// The line that ends the component begun at `index` (or the end of the file).
        func close(of index: Int) -> Int {
            let kind = lines[index].value.uppercased()
            var close = index + 1
            var depth = 0
            while close < lines.count {
                let l = lines[close]
                if l.name == "BEGIN" { depth += 1 }
                if l.name == "END" { if depth == 0 && l.value.uppercased() == kind { break }; depth -= 1 }
                close += 1
            }
            return close
        }
        /// The instance's override is in the file already: closed there, none added.
        var hasOverride = false
        if let instance {
            var index = 0
            while index < lines.count {
                guard lines[index].name == "BEGIN", ["VEVENT", "VTODO"].contains(lines[index].value.uppercased()) else {
                    index += 1
                    continue
                }
                let end = close(of: index)
                let body = lines[(index + 1)..<min(end, lines.count)]
                let ours = body.contains { $0.name == "UID" && $0.value == uid }
                if ours && body.contains(where: { $0.name == "RECURRENCE-ID" && $0.value == instance }) { hasOverride = true }
                index = end + 1
            }
        }
        let stamp = CalendarExport.basic(at)
        var out: [String] = []
        var found = false
        var index = 0
        func emit(_ line: Line) { out.append(contentsOf: line.physical.map(String.init)) }
        while index < lines.count {
            let line = lines[index]
            guard line.name == "BEGIN", ["VEVENT", "VTODO"].contains(line.value.uppercased()) else {
                emit(line)
                index += 1
                continue
            }
            // One component, to its END.
            let kind = line.value.uppercased()
            let close = close(of: index)
            let body = Array(lines[(index + 1)..<min(close, lines.count)])
            let ours = body.contains { $0.name == "UID" && $0.value == uid }
            guard ours, close < lines.count else {
                for l in lines[index..<min(close + 1, lines.count)] { emit(l) }
                index = close + 1
                continue
            }
            found = true
            let master = !body.contains { $0.name == "RECURRENCE-ID" }
            // An item that does not repeat is closed on itself; a repeating one's instance on its override.
            let repeats = body.contains { ["RRULE", "RDATE"].contains($0.name) }
            let closes = closing.map { $0.fits(kind) } ?? false
            let completes = closes && (master ? !repeats : body.contains { $0.name == "RECURRENCE-ID" && $0.value == instance })
            let addsOverride = closes && master && repeats && !hasOverride && instance != nil
            completed = completed || completes
            emit(line)
            var inAlarm = false
            var wroteLastAck = false
            var parent: String?
            var alarmDepth = 0
            func lastAck() {
                guard !wroteLastAck else { return }
                out.append("X-MOZ-LASTACK:\(stamp)")
                if completes, let closing { out += closing.lines(stamp) }
                if master, let snooze {
                    let name = snooze.instanceStart.map { "X-MOZ-SNOOZE-TIME-\($0.secondsSinceEpoch * 1_000_000)" } ?? "X-MOZ-SNOOZE-TIME"
                    out.append("\(name):\(CalendarExport.basic(snooze.until))")
                }
                wroteLastAck = true
            }
            for l in body {
                if inAlarm {
                    if l.name == "BEGIN" { alarmDepth += 1 }
                    if l.name == "END" && alarmDepth > 0 { alarmDepth -= 1; emit(l); continue }
                    if l.name == "END" && l.value.uppercased() == "VALARM" {
                        out.append("ACKNOWLEDGED:\(stamp)")
                        inAlarm = false
                    } else if l.name == "ACKNOWLEDGED" {
                        continue
                    } else if l.name == "UID", parent == nil {
                        parent = l.value
                    }
                    emit(l)
                    continue
                }
                if l.name == "X-MOZ-LASTACK" || (master && snooze != nil && l.name.hasPrefix("X-MOZ-SNOOZE-TIME")) { continue }
                if completes, let closing, closing.replaces.contains(l.name) { continue }
                if l.name == "BEGIN" && l.value.uppercased() == "VALARM" {
                    lastAck()
                    inAlarm = true
                    alarmDepth = 0
                }
                emit(l)
            }
            lastAck()
            if master, let snooze {
                let until = CalendarExport.basic(snooze.until)
                out += ["BEGIN:VALARM", "UID:\(CalendarExport.escape(uid))-snooze-\(until)"]
                if let parent { out.append("RELATED-TO;RELTYPE=SNOOZE:\(parent)") }
                out += ["ACTION:DISPLAY", "DESCRIPTION:Snoozed", "TRIGGER;VALUE=DATE-TIME:\(until)", "END:VALARM"]
            }
            emit(lines[close])
            if addsOverride, let instance, let closing {
                let value = instance.count == 8 ? ";VALUE=DATE:\(instance)" : ":\(instance)"
                out += ["BEGIN:\(kind)"]
                // The series' own UID and SUMMARY, not an alarm's.
                let own = Self.own(body)
                for l in own where l.name == "UID" || l.name == "SUMMARY" { emit(l) }
                out += ["RECURRENCE-ID\(value)", "DTSTART\(value)"]
                if kind == "VEVENT", let length = length(own) { out.append("DURATION:\(length)") }
                out += ["DTSTAMP:\(stamp)"] + closing.lines(stamp) + ["END:\(kind)"]
                completed = true
            }
            index = close + 1
        }
        guard found else { return nil }
        return (out.joined(separator: end) + end, completed)
    }

    /// The item's own lines: none of a component inside it (an alarm), nor their BEGIN and END.
    static func own(_ body: [Line]) -> [Line] {
        var depth = 0
        var own: [Line] = []
        for l in body {
            if l.name == "BEGIN" {
                depth += 1
            } else if l.name == "END" {
                depth -= 1
            } else if depth == 0 {
                own.append(l)
            }
        }
        return own
    }

    /// An event's length, for an instance's override: its DURATION, or DTEND less DTSTART when
    /// both are dates or both the same kind of time (`P2D`, `PT3600S`); nil when it cannot be told.
    static func length(_ own: [Line]) -> String? {
        if let duration = own.first(where: { $0.name == "DURATION" }) { return duration.value }
        let value = { (name: String) in own.first { $0.name == name }.flatMap { RecurrenceRule.until($0.value) } }
        // A local time's zone: its TZID parameter, as written.
        let zone = { (name: String) in own.first { $0.name == name }?.head.uppercased().split(separator: ";").first { $0.hasPrefix("TZID=") } }
        switch (value("DTSTART"), value("DTEND")) {
        case (.date(let start)?, .date(let end)?) where end >= start: return "P\(end.dayNumber - start.dayNumber)D"
        case (.utc(let start)?, .utc(let end)?) where end >= start: return "PT\(end.secondsSinceEpoch - start.secondsSinceEpoch)S"
        case (.local(let start)?, .local(let end)?) where end.localSeconds >= start.localSeconds && zone("DTSTART") == zone("DTEND"):
            return "PT\(end.localSeconds - start.localSeconds)S"
        default: return nil
        }
    }
}
