import DawnletCore
import DawnletStore
import FoundationEssentials

extension PreviewCommand {
    /// One reminder with the keys `preview --json` documents, then its status, offset and notes.
    /// The members every reminder has go in one piece (`members`); the rest, which few have,
    /// member by member.
    static func write(_ r: PlannedReminder, to w: inout JSONWriter, holds: Holds? = nil) {
        var dates = CivilDate.TextCache()
        withUnsafePointer(to: r) { write($0, to: &w, dates: &dates, holds: holds) }
    }

    /// The members every reminder has, in one piece through one room check
    /// (`JSONWriter.members`): a key, an external calendar's source and a title are the only
    /// texts that may need escaping.
    // Each reminder's writer goes inline into the loop of `writeJSON` (in PreviewCommand.swift):
    // called through a function per reminder, a year's plan costs 9% more.
    @inline(__always)
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
    @inline(__always)
    static func write(_ r: Planner.PlainReminder, to w: inout JSONWriter, dates: inout CivilDate.TextCache) {
        let item = r.item
        members(
            &w, &dates, key: r.key, fireAt: r.fireAt, utcOffset: r.utcOffset, kind: item.pointee.kind.literal, title: item.pointee.title,
            occurrenceDate: item.pointee.date, source: nil, literalSource: item.pointee.source.literal, definitionID: item.pointee.definitionID,
            channels: r.channels, offset: r.offset, status: statusWord(r.timing))
        w.endObject()
    }

    /// Any reminder, read field by field where it is, without a copy of it; with what a running
    /// serve holds back (`holds`), status `held` when it holds every channel still to go out.
    @inline(__always)
    static func write(_ p: UnsafePointer<PlannedReminder>, to w: inout JSONWriter, dates: inout CivilDate.TextCache, holds: Holds? = nil) {
        // Stored fields only, read in place: a computed one (`isCalendar`) would copy the item
        // out first. A `calendar` item is an external calendar's.
        let isCalendar = p.pointee.item?.kind == .calendar
        let held = holds?.held(p.pointee) ?? []
        let status = !held.isEmpty && holds?.holdsWhole(p.pointee) == true ? "held" : statusWord(p.pointee.status, p.pointee.settled)
        p.pointee.channels.withUnsafeBufferPointer { channels in
            members(
                &w, &dates, key: p.pointee.key, fireAt: p.pointee.fireAt, utcOffset: p.pointee.utcOffset, kind: p.pointee.item?.kind.literal ?? "digest",
                title: p.pointee.item?.title ?? p.pointee.title, occurrenceDate: p.pointee.occurrenceDate, source: isCalendar ? p.pointee.sourceName : nil,
                literalSource: p.pointee.item?.source.literal ?? "virtual", definitionID: isCalendar ? nil : p.pointee.item?.definitionID,
                channels: channels, offset: p.pointee.offset, status: status)
        }
        // What few reminders have: a reason, a snooze, deliveries, notes, a digest's items.
        if case .suppressed = p.pointee.status {
        } else if !p.pointee.snoozed && p.pointee.settled.isEmpty && p.pointee.notes.isEmpty && p.pointee.item?.kind != nil && held.isEmpty {
            return w.endObject()
        }
        let r = p.pointee
        if case .suppressed(let reason) = r.status { w.field("reason", reason.rawValue) }
        if r.snoozed { w.field("snoozed", true) }
        if r.repetition > 0 { w.field("repeat", r.repetition) }
        if let held = r.heldFrom { w.field("held_from", instant: held, utcOffset: r.utcOffset) }
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
                if settled.waiting { w.field("waiting", true) }
                w.endObject()
            }
            w.endArray()
        }
        if !held.isEmpty {
            w.key("held")
            w.beginArray()
            for one in held {
                w.beginObject()
                w.field("channel", one.channel.rawValue)
                w.field("reason", one.reason.rawValue)
                w.field("why", one.reason.words)
                if let since = one.since { w.field("since", instant: since, utcOffset: r.utcOffset) }
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
