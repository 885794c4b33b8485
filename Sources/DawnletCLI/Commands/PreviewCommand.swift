import DawnletCore
import DawnletRunner
import DawnletStore
import FoundationEssentials

/// `preview [--from ISO --to ISO | --days N] [--now ISO] [--all] [--json]`: what will fire when,
/// on which channel, and why. The same plan the runner uses.
enum PreviewCommand {
    static let command = Command(
        path: ["preview"], usage: "preview [--from ISO --to ISO | --days N] [--now ISO] [--all] [--json]",
        summary: "Show the reminders that will fire (default: the next 7 days), with channel and reason.",
        options: [.value("from"), .value("to"), .value("days"), .flag("all"), .flag("json")], run: run)

    /// The longest window one call may ask for.
    static let maximumDays = 366

    static func run(_ invocation: inout Invocation) throws {
        let zone = try invocation.timeZone()
        let usage = invocation.globals.usage
        func instant(_ name: String) throws(CLIError) -> Instant? {
            guard let text = invocation.arguments.value(name) else { return nil }
            guard let value = ISO8601.parse(text, zone: zone) else {
                throw .usage("--\(name) \"\(text)\" is not a date or time (2026-12-01, 2026-12-01T09:00 or 2026-12-01T09:00:00+01:00)", usage)
            }
            return value
        }
        let now = try invocation.now()
        let from = try instant("from")
        var to = try instant("to")
        // `--to DATE` includes that day, as `occurrences --to` does: up to the next day's start.
        if let text = invocation.arguments.value("to"), let day = CivilDate(text), let end = to {
            to = max(end, ISO8601.parse(day.adding(days: 1).description, zone: zone)?.adding(seconds: -1) ?? end)
        }
        let window: ClosedRange<Instant>
        switch (from, to, invocation.arguments.value("days")) {
        case (nil, nil, let daysText):
            var days = 7
            if let daysText {
                guard let n = Int(daysText), (1...maximumDays).contains(n) else {
                    throw CLIError.usage("--days \"\(daysText)\" is not a number of days from 1 to \(maximumDays)", usage)
                }
                days = n
            }
            window = now...now.adding(seconds: Int64(days) * 86_400)
        case (let from?, let to?, nil):
            guard from <= to else { throw CLIError.usage("--to is before --from", usage) }
            guard to.secondsSinceEpoch - from.secondsSinceEpoch <= Int64(maximumDays) * 86_400 else {
                throw CLIError.usage("the window is longer than \(maximumDays) days", usage)
            }
            window = from...to
        default:
            throw CLIError.usage("give --from and --to together, or --days, not both", usage)
        }
        for (name, instant) in [("now", now), ("from", window.lowerBound)] where instant > PlanSource.latest {
            throw CLIError.usage("--\(name) is after \(ISO8601.format(PlanSource.latest, in: zone)), the last instant dawnlet-remind plans", usage)
        }

        let source = PlanSource(store: try invocation.readStore(), config: invocation.config, zone: zone)
        let all = invocation.arguments.has("all")
        // Streamed in time order as the plan is made, some days at a time: a year of a large
        // database is hundreds of thousands of reminders, never held whole.
        var problems: [CalendarProblem] = []
        if invocation.json {
            var failure: Error?
            invocation.output.json { w, _ in
                w.beginObject()
                w.key("reminders")
                w.beginArray()
                do {
                    // Some days' reminders are written out as JSON on other threads while the
                    // next days are planned; here they go out in order.
                    problems = try source.forEachSlice(
                        now: now, window: window, includeSuppressed: all,
                        render: RenderedSlice.init(json:)
                    ) { slice in
                        w.elements(slice.bytes, send: Output.write)
                        return true
                    }
                } catch {
                    // Left unclosed: what was written cannot be taken for the whole plan.
                    return failure = error
                }
                w.endArray()
                w.endObject()
            }
            if let failure { throw failure }
        } else {
            // As the JSON: each slice's text is made on the planning threads. A day's heading
            // goes before its first reminder; here, where a slice goes on the day the last ended.
            let colored = invocation.output.colored
            var shownDay: CivilDate?
            problems = try source.forEachSlice(
                now: now, window: window, includeSuppressed: all, render: { plan in RenderedSlice(text: plan, zone: zone, colored: colored) }
            ) { slice in
                guard let first = slice.firstDay else { return true }
                if first != shownDay {
                    if shownDay != nil { invocation.output.line("") }
                    invocation.output.line(heading(first, colored: colored))
                }
                slice.bytes.withBytes { invocation.output.lines($0) }
                shownDay = slice.lastDay
                return true
            }
            if shownDay == nil {
                invocation.output.line(
                    "nothing to remind of between \(ISO8601.format(window.lowerBound, in: zone)) and \(ISO8601.format(min(window.upperBound, PlanSource.latest), in: zone))"
                )
            }
        }
        // A calendar file that cannot be used is said, not fatal: the rest is planned.
        invocation.output.warn(problems)
    }

    /// A day's heading: `Friday 2027-01-01`, bold.
    static func heading(_ day: CivilDate, colored: Bool) -> String { Output.paint("\(day.weekday.fullName) \(day)", .bold, colored: colored) }

    /// One slice's reminders written out on a planning thread and handed whole to the thread
    /// that writes them to stdout (and no longer touched where they were made).
    final class RenderedSlice: @unchecked Sendable {
        let bytes: ByteBuffer
        /// The days of its first and last reminders (nil: it has none, or it is JSON); its first
        /// day's heading is for the writer to give.
        let firstDay: CivilDate?
        let lastDay: CivilDate?

        /// As JSON array elements, with no comma before the first.
        init(json plan: Planner.Ordered) {
            // About what a reminder takes, so the buffer seldom grows.
            var w = JSONWriter(capacity: 240 * plan.count)
            var dates = CivilDate.TextCache()
            _ = plan.forEachEntry { entry in
                switch entry {
                case .plain(let r): PreviewCommand.write(r, to: &w, dates: &dates)
                case .whole(let p): PreviewCommand.write(p, to: &w, dates: &dates)
                }
                return true
            }
            (bytes, firstDay, lastDay) = (w.out, nil, nil)
        }

        /// As text: each reminder's lines, their days' headings between them.
        init(text plan: Planner.Ordered, zone: Zone, colored: Bool) {
            let out = ByteBuffer(capacity: 128 * plan.count)
            var first: CivilDate?
            var last: CivilDate?
            var dates = CivilDate.TextCache()
            _ = plan.forEachEntry { entry in
                let day = ISO8601.localDate(of: entry.fireAt, in: zone).date
                if day != last {
                    if last != nil {
                        out.append(UInt8(ascii: "\n"))
                        out.append(PreviewCommand.heading(day, colored: colored) + "\n")
                    } else {
                        first = day
                    }
                    last = day
                }
                switch entry {
                case .plain(let r) where r.timing == .pending: PreviewCommand.writeLines(r, to: out, dates: &dates)
                case .plain(let r): PreviewCommand.writeLines(r.reminder, colored: colored, to: out)
                case .whole(let p): PreviewCommand.writeLines(p.pointee, colored: colored, to: out)
                }
                return true
            }
            (bytes, firstDay, lastDay) = (out, first, last)
        }
    }

    /// The lines of `lines`, each ended by a newline, into `out`.
    static func writeLines(_ r: PlannedReminder, colored: Bool, to out: ByteBuffer) {
        for line in lines(r, colored: colored) {
            out.append(line)
            out.append(UInt8(ascii: "\n"))
        }
    }

    /// The same for a plain reminder still to come (`Planner.PlainReminder`), written as bytes
    /// from its parts where they are: what `lines` makes of it made whole.
    static func writeLines(_ r: Planner.PlainReminder, to out: ByteBuffer, dates: inout CivilDate.TextCache) {
        let item = r.item
        let (kind, id, timed) = (item.pointee.kind, item.pointee.definitionID, item.pointee.time != nil)
        let title = item.pointee.title
        out.write(upTo: 256 + 4 * (maximumDigits + 16) + r.channels.count * 10 + title.utf8.count) { base in
            var c = JSONCursor(base: base, count: 0)
            c.raw("  ")
            // HH:MM of the local time.
            let local = r.fireAt.secondsSinceEpoch + Int64(r.utcOffset)
            let seconds = Int(local - 86_400 * (local >= 0 ? local / 86_400 : (local - 86_399) / 86_400))
            let (hour, minute) = (UInt8(seconds / 3600), UInt8(seconds / 60 % 60))
            for byte in [48 + hour / 10, 48 + hour % 10, UInt8(ascii: ":"), 48 + minute / 10, 48 + minute % 10] { c.byte(byte) }
            c.raw("  ")
            // What, in 16 columns: `todo #12` padded, or its first 16.
            let start = c.count
            c.raw(kind.literal)
            c.raw(" #")
            c.int(Int(id))
            if c.count - start > 16 { c.count = start + 16 }
            while c.count - start < 16 { c.byte(UInt8(ascii: " ")) }
            c.byte(UInt8(ascii: " "))
            c.text(title)
            c.raw("  → ")
            for (i, channel) in r.channels.enumerated() {
                if i > 0 { c.raw(", ") }
                c.raw(channel.literal)
            }
            c.raw("\n           why: ")
            c.raw(kind.literal)
            c.byte(UInt8(ascii: " "))
            c.int(Int(id))
            c.raw(", ")
            c.raw(item.pointee.source.literal)
            c.raw(" occurrence on ")
            c.count += dates.write(item.pointee.date, to: c.base + c.count)
            c.raw("; ")
            if r.offset.isZero {
                c.raw(timed ? "at its time" : "at the morning digest time")
            } else {
                c.count += r.offset.writeASCII(to: c.base + c.count)
                c.raw(timed ? " before its time" : " before the morning digest")
            }
            c.byte(UInt8(ascii: "\n"))
            return c.count
        }
    }

    /// The text of one reminder: its time, what, title and channels; a digest's contents; why.
    static func lines(_ r: PlannedReminder, colored: Bool) -> [String] {
        let local = ISO8601.format(r.fireAt, utcOffset: r.utcOffset)
        let kind = r.kind
        let what = r.definitionID.map { "\(kind) #\($0)" } ?? kind
        var first = "  \(local.dropFirst(11).prefix(5))  \(what.rightPadded(16)) \(r.title)  → \(r.channels.map(\.rawValue).joined(separator: ", "))"
        if let state = statusText(r) {
            // Failed and missed red, late yellow, what went out or will not dim.
            let word = String(describing: statusWord(r))
            let color: Output.Color? = ["failed": .red, "missed": .red, "late": .yellow, "delivered": .dim, "suppressed": .dim][word]
            first += "  " + (color.map { Output.paint("[\(state)]", $0, colored: colored) } ?? "[\(state)]")
        }
        var lines = [first]
        if r.item == nil { lines += r.body.split(separator: "\n").map { "           · \($0)" } }
        lines.append("           why: " + r.why.joined(separator: "; "))
        return lines
    }

    /// What `serve` does, or did, with it: the planner's statuses and the delivery log's.
    static func statusText(_ r: PlannedReminder) -> String? {
        var words: [String] = []
        switch r.status {
        case .pending: if r.snoozed { words.append("snoozed") }
        case .due: words.append("due: goes out now")
        case .late: words.append("late: goes out now, marked late")
        case .missed: words.append("missed: outside the grace window")
        case .settled: break
        case .suppressed(let reason): words.append("suppressed: \(reason.rawValue)")
        }
        for channel in r.channels {
            guard let settled = r.settled[channel] else { continue }
            var text = "\(settled.outcome.rawValue) on \(channel)"
            if let at = settled.at { text += " at \(ISO8601.format(at, utcOffset: r.utcOffset).dropFirst(11).prefix(8))" }
            if settled.outcome == .failed, let detail = settled.detail { text += ": \(detail)" }
            words.append(text)
        }
        return words.isEmpty ? nil : words.joined(separator: "; ")
    }

    /// The one word of `status` in JSON.
    static func statusWord(_ r: PlannedReminder) -> StaticString { statusWord(r.status, r.settled) }

    static func statusWord(_ status: PlannedReminder.Status, _ settled: [Channel: Settlement]) -> StaticString {
        switch status {
        case .pending: return statusWord(.pending)
        case .due: return statusWord(.due)
        case .late: return statusWord(.late)
        case .missed: return statusWord(.missed)
        case .suppressed: return "suppressed"
        case .settled:
            let outcomes = Set(settled.values.map(\.outcome))
            return outcomes.contains(.failed) ? "failed" : outcomes == [.missed] ? "missed" : "delivered"
        }
    }

    /// A plain reminder's status: its timing's word (no deliveries to weigh).
    static func statusWord(_ timing: DeliveryPolicy.Timing) -> StaticString {
        switch timing {
        case .pending: "pending"
        case .due: "due"
        case .late: "late"
        case .missed: "missed"
        }
    }

    /// One reminder with the keys `preview --json` documents, then its status, offset and notes.
    /// The members every reminder has go in one piece (`members`); the rest, which few have,
    /// member by member.
    static func write(_ r: PlannedReminder, to w: inout JSONWriter) {
        var dates = CivilDate.TextCache()
        withUnsafePointer(to: r) { write($0, to: &w, dates: &dates) }
    }

    /// The members every reminder has, in one piece through one room check
    /// (`JSONWriter.members`): a key, an external calendar's source and a title are the only
    /// texts that may need escaping.
    static func members(
        _ w: inout JSONWriter, _ dates: inout CivilDate.TextCache, key: ReminderKey, fireAt: Instant, utcOffset: Int, kind: StaticString,
        title: String, occurrenceDate: CivilDate, source: String?, literalSource: StaticString, definitionID: Int64?,
        channels: UnsafeBufferPointer<Channel>, offset: ReminderOffset?, status: StaticString
    ) {
        let escapedKey = key.isPlainASCII ? nil : key.description
        var room = 256 + ReminderKey.maximumPlainASCII + ISO8601.maximumASCII + 2 * CivilDate.maximumASCII + maximumDigits
        room += JSONWriter.room(title) + channels.count * 10 + ReminderOffset.maximumASCII
        if let source { room += JSONWriter.room(source) }
        if let escapedKey { room += JSONWriter.room(escapedKey) }
        w.members(upTo: room) { c in
            c.raw("{\"key\":")
            if let escapedKey { c.string(escapedKey) } else { c.quoted { key.writePlainASCII(to: $0, dates: &dates) } }
            c.raw(",\"fire_at\":")
            c.quoted { ISO8601.writeASCII(fireAt, utcOffset: utcOffset, to: $0, dates: &dates) }
            c.raw(",\"kind\":\"")
            // Words of our own, of a few kinds, go out as literals: no string to build or scan.
            c.raw(kind)
            c.raw("\",\"title\":")
            c.string(title)
            c.raw(",\"occurrence_date\":")
            c.quoted { dates.write(occurrenceDate, to: $0) }
            c.raw(",\"source\":")
            if let source {
                c.string(source)
            } else {
                c.byte(UInt8(ascii: "\""))
                c.raw(literalSource)
                c.byte(UInt8(ascii: "\""))
            }
            c.raw(",\"definition_id\":")
            if let definitionID { c.int(Int(definitionID)) } else { c.raw("null") }
            c.raw(",\"channels\":[")
            for (i, channel) in channels.enumerated() {
                if i > 0 { c.byte(UInt8(ascii: ",")) }
                c.byte(UInt8(ascii: "\""))
                c.raw(channel.literal)
                c.byte(UInt8(ascii: "\""))
            }
            c.raw("],\"offset\":")
            if let offset { c.quoted { offset.writeASCII(to: $0) } } else { c.raw("null") }
            c.raw(",\"status\":\"")
            c.raw(status)
            c.byte(UInt8(ascii: "\""))
        }
    }

    /// A plain reminder (`Planner.PlainReminder`) from its parts where they are: it has the
    /// members every reminder has and no others.
    static func write(_ r: Planner.PlainReminder, to w: inout JSONWriter, dates: inout CivilDate.TextCache) {
        let item = r.item
        members(
            &w, &dates, key: r.key, fireAt: r.fireAt, utcOffset: r.utcOffset, kind: item.pointee.kind.literal, title: item.pointee.title,
            occurrenceDate: item.pointee.date, source: nil, literalSource: item.pointee.source.literal, definitionID: item.pointee.definitionID,
            channels: r.channels, offset: r.offset, status: statusWord(r.timing))
        w.endObject()
    }

    /// Any reminder, read field by field where it is, without a copy of it.
    static func write(_ p: UnsafePointer<PlannedReminder>, to w: inout JSONWriter, dates: inout CivilDate.TextCache) {
        // Stored fields only, read in place: a computed one (`isCalendar`) would copy the item
        // out first. A `calendar` item is an external calendar's.
        let isCalendar = p.pointee.item?.kind == .calendar
        p.pointee.channels.withUnsafeBufferPointer { channels in
            members(
                &w, &dates, key: p.pointee.key, fireAt: p.pointee.fireAt, utcOffset: p.pointee.utcOffset, kind: p.pointee.item?.kind.literal ?? "digest",
                title: p.pointee.item?.title ?? p.pointee.title, occurrenceDate: p.pointee.occurrenceDate, source: isCalendar ? p.pointee.sourceName : nil,
                literalSource: p.pointee.item?.source.literal ?? "virtual", definitionID: isCalendar ? nil : p.pointee.item?.definitionID,
                channels: channels, offset: p.pointee.offset, status: statusWord(p.pointee.status, p.pointee.settled))
        }
        // What few reminders have: a reason, a snooze, deliveries, notes, a digest's items.
        if case .suppressed = p.pointee.status {
        } else if !p.pointee.snoozed && p.pointee.settled.isEmpty && p.pointee.notes.isEmpty && p.pointee.item?.kind != nil {
            return w.endObject()
        }
        let r = p.pointee
        if case .suppressed(let reason) = r.status { w.field("reason", reason.rawValue) }
        if r.snoozed { w.field("snoozed", true) }
        if !r.settled.isEmpty {
            w.key("deliveries")
            w.beginArray()
            for channel in r.channels {
                guard let settled = r.settled[channel] else { continue }
                w.beginObject()
                w.field("channel", channel.rawValue)
                w.field("outcome", settled.outcome.rawValue)
                if let at = settled.at { w.field("at", instant: at, utcOffset: r.utcOffset) }
                w.field("detail", settled.detail)
                w.endObject()
            }
            w.endArray()
        }
        if !r.notes.isEmpty { w.field("notes", strings: r.notes) }
        if r.item == nil {
            w.key("items")
            w.beginArray()
            for item in r.items {
                w.beginObject()
                w.field("kind", item.kind.rawValue)
                w.field("definition_id", item.isCalendar ? nil : Int(item.definitionID))
                w.field("title", item.title)
                w.field("date", date: item.date)
                w.endObject()
            }
            w.endArray()
        }
        w.endObject()
    }
}
