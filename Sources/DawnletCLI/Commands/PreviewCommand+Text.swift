import DawnletCore
import DawnletStore
import FoundationEssentials

extension PreviewCommand {
    /// The lines of `lines`, each ended by a newline, into `out`.
    static func writeLines(_ r: PlannedReminder, colored: Bool, missed: MissedWords, holds: Holds? = nil, to out: ByteBuffer) {
        for line in lines(r, colored: colored, missed: missed, holds: holds) {
            out.append(line)
            out.append(UInt8(ascii: "\n"))
        }
    }

    /// The same for a plain reminder still to come (`Planner.PlainReminder`), written as bytes
    /// from its parts where they are: what `lines` makes of it made whole.
    static func writeLines(_ r: Planner.PlainReminder, to out: ByteBuffer, dates: inout CivilDate.TextCache) {
        let item = r.item
        let (kind, id, timed) = (item.pointee.kind, item.pointee.definitionID, item.pointee.time != nil)
        let title = DisplayText.shown(item.pointee.title)
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
    static func lines(_ r: PlannedReminder, colored: Bool, missed: MissedWords, holds: Holds? = nil) -> [String] {
        let local = ISO8601.format(r.fireAt, utcOffset: r.utcOffset)
        let kind = r.kind.rawValue
        let what = r.definitionID.map { "\(kind) #\($0)" } ?? kind
        var first =
            "  \(local.dropFirst(11).prefix(5))  \(what.rightPadded(16)) \(DisplayText.shown(r.title))  → \(r.channels.map(\.rawValue).joined(separator: ", "))"
        // A failure's detail is what a command or a mail server said: escaped like a title.
        if let state = statusText(r, missed: missed, holds: holds).map(DisplayText.shown) {
            // Failed and missed red, late and held yellow, what went out or will not dim.
            let word = holds?.holdsWhole(r) == true ? "held" : String(describing: statusWord(r))
            let color: Output.Color? = ["failed": .red, "missed": .red, "late": .yellow, "held": .yellow, "delivered": .dim, "suppressed": .dim][word]
            first += "  " + (color.map { Output.paint("[\(state)]", $0, colored: colored) } ?? "[\(state)]")
        }
        var lines = [first]
        if r.item == nil { lines += r.body.split(separator: "\n").map { "           · " + DisplayText.shown(String($0)) } }
        lines.append("           why: " + DisplayText.shown(r.why.joined(separator: "; ")))
        return lines
    }

    /// What `serve` does, or did, with it: the planner's statuses and the delivery log's; with
    /// what a running serve holds back (`holds`), "held: notification server paused since 14:02"
    /// for one it holds on every channel still to go out.
    static func statusText(_ r: PlannedReminder, missed: MissedWords, holds: Holds? = nil) -> String? {
        var words: [String] = []
        let held = holds?.held(r) ?? []
        let whole = holds?.holdsWhole(r) == true
        if whole { words.append("held: " + heldWords(held, utcOffset: r.utcOffset)) }
        switch r.status {
        case _ where whole: break
        case .pending:
            if r.snoozed { words.append("snoozed") }
            if r.repetition > 0 { words.append("back until answered") }
            if r.heldFrom != nil { words.append("held until \(ISO8601.format(r.fireAt, utcOffset: r.utcOffset).dropFirst(11).prefix(5)) for quiet hours") }
        case .due: words.append("due: goes out now")
        case .late: words.append("late: goes out now, marked late")
        case .missed: words.append("missed: " + missed.why(r))
        case .settled: break
        case .suppressed(let reason): words.append("suppressed: \(reason.rawValue)")
        }
        if !held.isEmpty && !whole {
            words.append("held on \(held.map(\.channel.rawValue).joined(separator: ", ")): " + heldWords(held, utcOffset: r.utcOffset))
        }
        for channel in r.channels {
            guard let settled = r.settled[channel] else { continue }
            var text = "\(settled.outcome.rawValue) on \(channel)"
            if let at = settled.at { text += " at \(ISO8601.format(at, utcOffset: r.utcOffset).dropFirst(11).prefix(8))" }
            if settled.outcome == .failed, let detail = settled.detail { text += ": \(detail)" }
            if settled.waiting { text += ", waiting for an answer" }
            words.append(text)
        }
        return words.isEmpty ? nil : words.joined(separator: "; ")
    }

    /// Why and since when, once for each reason: `notification server paused since 14:02`.
    static func heldWords(_ held: [Holds.Held], utcOffset: Int) -> String {
        var said: [String] = []
        for one in held {
            let words = one.reason.words + (one.since.map { " since \(ISO8601.format($0, utcOffset: utcOffset).dropFirst(11).prefix(5))" } ?? "")
            if !said.contains(words) { said.append(words) }
        }
        return said.joined(separator: "; ")
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
}

/// Why a reminder `preview` shows missed will not go out, in the words `missed` gives once the
/// runner has recorded it: due longer ago than the grace window, or late (inside it) and dropped
/// by its kind's late policy.
struct MissedWords {
    let policy: DeliveryPolicy
    let now: Instant

    func why(_ r: PlannedReminder) -> String {
        policy.timing(r.fireAt, now: now) == .late ? "dropped as late (late policy \"drop\")" : Delivery.outsideGraceWindow
    }
}
