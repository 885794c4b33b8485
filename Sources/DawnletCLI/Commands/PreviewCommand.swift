import DawnletApp
import DawnletCore
import DawnletStore
import FoundationEssentials

/// `preview [--from ISO --to ISO | --days N] [--now ISO] [--tag TAG] [--all] [--json]`: what will fire when,
/// on which channel, and why. The same plan the runner uses.
enum PreviewCommand {
    static let command = Command(
        path: ["preview"], usage: "preview [--from ISO --to ISO | --days N] [--now ISO] [--tag TAG] [--all] [--json]",
        summary: "Show the reminders that will fire (default: what goes out now, late, and the next 7 days), with channel and reason.",
        options: [.value("from"), .value("to"), .value("days"), .value("tag"), .flag("all"), .flag("json")], run: run)

    /// The longest window one call may ask for.
    static let maximumDays = 366

    static func run(_ invocation: inout Invocation) throws {
        let zone = try invocation.timeZone()
        let usage = invocation.globals.usage
        let today = try invocation.today()
        /// An ISO 8601 date or time, or date words as every date option takes them (`today`,
        /// `fri 18:00`); with the day it names when no time was given.
        func instant(_ name: String) throws(CLIError) -> (instant: Instant, day: CivilDate?)? {
            guard let text = invocation.arguments.value(name) else { return nil }
            if let value = ISO8601.parse(text, zone: zone) { return (value, CivilDate(text)) }
            guard let (day, time) = DateWords.dateAndTime(text, today: today) else {
                throw .usage(
                    "--\(name) \"\(text)\" is not a date or time (2026-12-01, today, fri, 2026-12-01T09:00, \"tomorrow 09:00\" or 2026-12-01T09:00:00+01:00)",
                    usage)
            }
            return (zone.resolve(time ?? WallTime.midnight, on: day).instant, time == nil ? day : nil)
        }
        let now = try invocation.now()
        let from = try instant("from")?.instant
        let toAsked = try instant("to")
        var to = toAsked?.instant
        // `--to DATE` includes that day, as `occurrences --to` does: up to the next day's start.
        if let day = toAsked?.day, let end = to {
            to = max(end, zone.resolve(WallTime.midnight, on: day.adding(days: 1)).instant.adding(seconds: -1))
        }
        let window: ClosedRange<Instant>
        // Before this instant, only what still goes out is shown.
        var lookback: Instant?
        switch (from, to, invocation.arguments.value("days")) {
        case (nil, nil, let daysText):
            var days = 7
            if let daysText {
                guard let n = Int(daysText), (1...maximumDays).contains(n) else {
                    throw CLIError.usage("--days \"\(daysText)\" is not a number of days from 1 to \(maximumDays)", usage)
                }
                days = n
            }
            // From where the runner's own decision starts, the grace window back: what goes out
            // now, late, is shown too (what went out then is not, unless --all).
            window = now.adding(.zero - invocation.config.graceWindow)...now.adding(seconds: Int64(days) * 86_400)
            lookback = now
        case (let from?, let to?, nil):
            guard from <= to else { throw CLIError.usage("--to is before --from", usage) }
            guard to.secondsSinceEpoch - from.secondsSinceEpoch <= Int64(maximumDays) * 86_400 else {
                throw CLIError.usage("the window is longer than \(maximumDays) days", usage)
            }
            window = from...to
        default:
            throw CLIError.usage("give --from and --to together, or --days, not both", usage)
        }
        for (name, instant) in [("now", now), ("from", window.lowerBound)] where instant > PlanReader.latest {
            throw CLIError.usage("--\(name) is after \(ISO8601.format(PlanReader.latest, in: zone)), the last instant dawnlet-remind plans", usage)
        }

        let store = try invocation.readStore()
        let source = PlanReader(store: store, config: invocation.config, zone: zone)
        // One list's: the reminders of its todos and events (a digest lists every list's items).
        let only = try invocation.tagFilter(store)
        let all = invocation.arguments.has("all")
        // What a serve running on the database holds back now (a paused notification server), as
        // it published it; not for a what-if at another --now.
        let holds = invocation.globals.now == nil ? RunnerStateFile(database: invocation.databasePath())?.holds().flatMap { $0.isEmpty ? nil : $0 } : nil
        let shownFrom = all ? nil : lookback
        // Streamed in time order as the plan is made, some days at a time: a year of a large
        // database is hundreds of thousands of reminders, never held whole.
        var problems: [CalendarProblem] = []
        if invocation.json {
            var failure: Error?
            invocation.output.json { w, flush in
                w.beginObject()
                w.key("reminders")
                w.beginArray()
                do {
                    // The next days are planned on other threads while these are written out
                    // here, in order, straight into the output a piece at a time: a day of a
                    // large database is tens of thousands of reminders, never held as text.
                    problems = try source.forEachSlice(now: now, window: window, includeSuppressed: all, inFlight: 1, render: { $0 }) { plan in
                        writeJSON(plan, to: &w, shownFrom: shownFrom, holds: holds, only: only, flush: flush)
                        return true
                    }
                } catch {
                    // Left unclosed: what was written cannot be taken for the whole plan.
                    return failure = error
                }
                w.endArray()
                w.calendarCuts(problems)
                w.endObject()
            }
            if let failure { throw failure }
        } else {
            // As the JSON: each slice's text is made on the planning threads. A day's heading
            // goes before its first reminder; here, where a slice goes on the day the last ended.
            let colored = invocation.output.colored
            let missed = MissedWords(policy: DeliveryPolicy(config: invocation.config), now: now)
            var shownDay: CivilDate?
            problems = try source.forEachSlice(
                now: now, window: window, includeSuppressed: all,
                render: { plan in
                    RenderedSlice(text: plan, zone: zone, colored: colored, shownFrom: shownFrom, missed: missed, holds: holds, only: only)
                }
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
                    "nothing to remind of between \(ISO8601.format(lookback ?? window.lowerBound, in: zone)) and \(ISO8601.format(min(window.upperBound, PlanReader.latest), in: zone))"
                )
            }
        }
        // What the plan's budget left out of a calendar is said with the plan: reminders are missing.
        if !invocation.json { for cut in CalendarCut.each(problems) { invocation.output.line(DisplayText.escaped("not planned: \(cut)")) } }
        // A calendar file that cannot be used is said, not fatal: the rest is planned.
        invocation.output.warn(problems)
    }

    /// A slice's reminders as the next elements of the array `w` is in, flushed as they go. Before
    /// `shownFrom`, only what still goes out; what a running serve holds back (`holds`) said so.
    static func writeJSON(
        _ plan: Planner.Ordered, to w: inout JSONWriter, shownFrom: Instant?, holds: Holds?, only: TagFilter?, flush: (inout JSONWriter) -> Void
    ) {
        var dates = CivilDate.TextCache()
        _ = plan.forEachEntry { entry in
            if let shownFrom, entry.fireAt < shownFrom, !entry.isToGoOut { return true }
            if let only, !only.keeps(entry.item) { return true }
            switch entry {
            case .plain(let r) where holds != nil && r.timing != .pending:
                withUnsafePointer(to: r.reminder) { PreviewCommand.write($0, to: &w, dates: &dates, holds: holds) }
            case .plain(let r): PreviewCommand.write(r, to: &w, dates: &dates)
            case .whole(let p): PreviewCommand.write(p, to: &w, dates: &dates, holds: holds)
            }
            flush(&w)
            return true
        }
    }

    /// A day's heading: `Friday 2027-01-01`, bold.
    static func heading(_ day: CivilDate, colored: Bool) -> String { Output.paint("\(day.weekday.fullName) \(day)", .bold, colored: colored) }

    /// One slice's lines written out on a planning thread and handed whole to the thread that
    /// writes them to stdout (and no longer touched where they were made).
    final class RenderedSlice: @unchecked Sendable {
        let bytes: ByteBuffer
        /// The days of its first and last reminders (nil: it has none); its first day's heading is
        /// for the writer to give.
        let firstDay: CivilDate?
        let lastDay: CivilDate?

        /// As text: each reminder's lines, their days' headings between them.
        init(text plan: Planner.Ordered, zone: Zone, colored: Bool, shownFrom: Instant?, missed: MissedWords, holds: Holds? = nil, only: TagFilter? = nil) {
            let out = ByteBuffer(capacity: 128 * plan.count)
            var first: CivilDate?
            var last: CivilDate?
            var dates = CivilDate.TextCache()
            _ = plan.forEachEntry { entry in
                if let shownFrom, entry.fireAt < shownFrom, !entry.isToGoOut { return true }
                if let only, !only.keeps(entry.item) { return true }
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
                case .plain(let r): PreviewCommand.writeLines(r.reminder, colored: colored, missed: missed, holds: holds, to: out)
                case .whole(let p): PreviewCommand.writeLines(p.pointee, colored: colored, missed: missed, holds: holds, to: out)
                }
                return true
            }
            (bytes, firstDay, lastDay) = (out, first, last)
        }
    }

}
