import DawnletCore
import FoundationEssentials

/// `occurrences --schedule TEXT --from DATE --to DATE [--tz ZONE] [--json]`: the dates a schedule
/// yields in an inclusive range and, when it has a time, the instants.
enum OccurrencesCommand {
    /// The longest range one call may ask for: 100 years.
    static let maximumRangeDays = 36_525

    static let command = Command(
        path: ["occurrences"],
        usage: "occurrences --schedule SCHEDULE --from DATE --to DATE [--tz ZONE] [--json]",
        summary: "Print the dates (and instants, for a schedule with a time) a schedule yields in a range.",
        options: [.value("schedule"), .value("from"), .value("to"), .flag("json")],
        run: run
    )

    static func run(_ invocation: inout Invocation) throws {
        let text = try invocation.required("schedule")
        let from = try invocation.date("from", try invocation.required("from"))
        let to = try invocation.date("to", try invocation.required("to"))
        let zone = try invocation.timeZone()
        let schedule: Schedule
        do {
            schedule = try Schedule(parsing: text)
        } catch {
            throw CLIError.usage(error.description, invocation.globals.usage)
        }
        guard from <= to else { throw CLIError.usage("--to \(to) is before --from \(from)", invocation.globals.usage) }
        guard to.dayNumber - from.dayNumber < maximumRangeDays else {
            throw CLIError.usage("the range is longer than \(maximumRangeDays) days", invocation.globals.usage)
        }

        let dates = schedule.occurrences(in: from...to, defaultAnchor: from)
        let instants = schedule.time.map { time in dates.map { zone.resolve(time, on: $0) } }

        if invocation.json {
            var members: [(String, JSON)] = [("occurrences", .array(dates.map { .string($0.description) }))]
            if let instants {
                members.append(("instants", .array(instants.map { .string(ISO8601.format($0.instant, utcOffset: $0.utcOffset)) })))
            }
            invocation.output.line(JSON.object(members))
            return
        }
        for (i, date) in dates.enumerated() {
            var line = "\(date) \(date.weekday.shortName.capitalized)"
            if let time = schedule.time, let zoned = instants?[i] {
                let shown = ISO8601.format(zoned.instant, utcOffset: zoned.utcOffset)
                line += " " + shown.dropFirst(11).prefix(5) + " " + shown.suffix(6)
                switch zoned.resolution {
                case .exact: break
                case .skippedByGap(let seconds):
                    line += "  (\(time) does not exist that day: moved \(seconds / 60) min by the DST gap)"
                case .repeatedTakeFirst:
                    line += "  (\(time) happens twice that day: the first)"
                }
            }
            invocation.output.line(line)
        }
    }
}
