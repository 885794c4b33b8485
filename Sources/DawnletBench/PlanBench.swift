import DawnletApp
import DawnletCore
import DawnletRunner
import DawnletStore
import DawnletSystem
import DawnletTestSupport
import Foundation

/// The plan figures: whole plans as a person asks for them (`preview`, a fresh process each run),
/// paired with Remind on the same schedules where Remind can do the same job. The counts must
/// agree exactly, or the figure is not a comparison.
enum PlanBench {
    /// One repeating todo, as dawnlet stores it and as a Remind line says it.
    struct Definition {
        let schedule: Schedule
        let time: WallTime
        let remind: String
    }

    /// Schedules both programs mean the same by: weekly on some weekdays (every day among them),
    /// every other week from an anchor, a day of the month up to the 28th, the nth (1–4) weekday
    /// of the month, a day of the year.
    static func definitions(count: Int, seed: UInt64) -> [Definition] {
        var rng = SeededRandom(seed: seed)
        let anchor = CivilDate(year: 2026, month: 1, day: 5)!  // a Monday
        let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return (0..<count).map { i in
            let time = WallTime(hour: Int.random(in: 6...21, using: &rng), minute: Int.random(in: 0...59, using: &rng))!
            let at = "AT \(time) MSG Todo \(i)"
            switch Int.random(in: 0..<10, using: &rng) {
            case 0...3:
                let mask = i % 25 == 0 ? 127 : UInt8.random(in: 1...127, using: &rng)
                let days = (0..<7).filter { mask & (1 << $0) != 0 }.map { names[$0] }.joined(separator: " ")
                return Definition(
                    schedule: Schedule(rule: .weekly(interval: 1, days: WeekdaySet(rawValue: mask)), anchor: anchor), time: time,
                    remind: "REM \(days) \(at)")
            case 4:
                let start = anchor.adding(days: Int.random(in: 0...6, using: &rng))
                let c = start.components
                return Definition(
                    schedule: Schedule(rule: .weekly(interval: 2, days: nil), anchor: start), time: time,
                    remind: "REM \(c.day) \(months[c.month - 1]) \(c.year) *14 \(at)")
            case 5...6:
                let day = Int.random(in: 1...28, using: &rng)
                return Definition(
                    schedule: Schedule(rule: .monthlyOnDay(interval: 1, day: day), anchor: anchor), time: time,
                    remind: "REM \(day) \(at)")
            case 7...8:
                let n = Int.random(in: 1...4, using: &rng)
                let weekday = Int.random(in: 0...6, using: &rng)
                return Definition(
                    schedule: Schedule(rule: .monthlyOnWeekday(interval: 1, ordinal: .nth(n), weekday: Weekday(rawValue: weekday + 1)!), anchor: anchor),
                    time: time, remind: "REM \(names[weekday]) \(1 + 7 * (n - 1)) \(at)")
            default:
                let day = CivilDate(year: 2026, month: Int.random(in: 1...12, using: &rng), day: Int.random(in: 1...28, using: &rng))!
                return Definition(
                    schedule: Schedule(rule: .monthlyOnDay(interval: 12, day: nil), anchor: day), time: time,
                    remind: "REM \(day.day) \(months[day.month - 1]) \(at)")
            }
        }
    }

    /// A database and a Remind file of `count` repeating todos, each with one reminder at its time;
    /// with `details`, each also holds a note of three lines, a location and two tags, as a person's do.
    static func write(_ definitions: [Definition], database: String, remindFile: String, details: Bool = false) throws {
        let store = try Store(path: database)
        let today = CivilDate(year: 2026, month: 1, day: 1)!
        for (i, d) in definitions.enumerated() {
            _ = try store.items.addItem(
                kind: .todo, title: "Todo \(i)", date: nil, time: d.time, schedule: d.schedule,
                reminders: [.minutes(0)], details: details ? OrganizerBench.details(i) : ItemDetails(), today: today)
        }
        try (definitions.map(\.remind).joined(separator: "\n") + "\n").write(toFile: remindFile, atomically: true, encoding: .utf8)
    }

    struct Runs {
        var seconds: [Double] = []
        var peakKiB: [Int] = []
        var count = 0

        var line: String {
            let s = seconds.sorted(), m = peakKiB.sorted()
            return String(
                format: "%.3f–%.3f s (median %.3f), peak RSS %.1f–%.1f MiB", s.first ?? 0, s.last ?? 0, s[s.count / 2],
                Double(m.first ?? 0) / 1024, Double(m.last ?? 0) / 1024)
        }
        var median: Double { seconds.sorted()[seconds.count / 2] }
        var peak: Int { peakKiB.max() ?? 0 }
    }

    /// A program to run, with what it is run on and how its reminders are counted.
    struct Program {
        let binary: String
        let arguments: [String]
        let output: String
        let count: (String) -> Int
    }

    /// Five rounds in which each program runs once, timed alone, and once more under GNU time
    /// for its peak memory: taken in turns, so a slow moment of the machine falls on both. Each
    /// run writes a new file (the last run's is removed first: freeing its blocks is not the run's
    /// work); `count` is the reminders in it.
    static func runs(_ programs: [Program], in folder: URL) throws -> [Runs] {
        var runs = programs.map { _ in Runs() }
        for _ in 0..<5 {
            for (i, program) in programs.enumerated() {
                unlink(program.output)
                runs[i].seconds.append(try OrganizerBench.measureProcess(program.binary, program.arguments, stdout: program.output))
                unlink(program.output)
                runs[i].peakKiB.append(try OrganizerBench.peakMemory(program.binary, program.arguments, stdout: program.output, in: folder))
            }
        }
        for (i, program) in programs.enumerated() { runs[i].count = program.count((try? String(contentsOfFile: program.output, encoding: .utf8)) ?? "") }
        return runs
    }

    /// Where a plan's time goes: the year of 2,000 todos streamed in this process as
    /// `preview` streams it, phase by phase (`PlanPhases`; best of five), and what the cold
    /// `preview --json` run spends beyond them: starting, and writing its JSON.
    static func split(database: String, window: (from: String, to: String), binary: String, config: String) throws {
        let zone = try ZoneDatabase.system.zone(named: "Europe/Berlin")
        guard let from = ISO8601.parse(window.from, zone: zone), let to = ISO8601.parse(window.to, zone: zone) else { return }
        var settings = Config()
        settings.reminders[.todo] = [.minutes(0)]
        var best: (phases: PlanPhases, total: Double)?
        var reminders = 0
        for _ in 0..<5 {
            let phases = PlanPhases()
            reminders = 0
            let source = PlanReader(store: try Store(path: database, create: false), config: settings, zone: zone)
            try source.forEachReminder(now: from, window: from...to, phases: phases) { _ in
                reminders += 1; return true
            }
            let total = seconds(phases.read + phases.merge + phases.planning)
            if total < best?.total ?? .infinity { best = (phases, total) }
        }
        guard let (phases, total) = best else { return }
        var cold: [Double] = []
        for _ in 0..<5 {
            cold.append(
                try OrganizerBench.measureProcess(
                    binary, ["--db", database, "--config", config, "preview", "--from", window.from, "--to", window.to, "--json"]))
        }
        let whole = cold.sorted()[2]
        func ms(_ d: Duration) -> Double { seconds(d) * 1000 }
        print("  where the year's plan goes (2,000 todos, \(phases.occurrences) occurrences, \(reminders) reminders; streamed in this process, best of 5):")
        print(
            String(
                format: "    database read %.1f ms, expansion %.1f ms (timed alone), merge into plan items %.1f ms, planning (times, keys, order) %.1f ms;",
                ms(phases.read), ms(phases.expansion), max(0, ms(phases.merge) - ms(phases.expansion)), ms(phases.planning)))
        print(
            String(
                format: "    output and start-up %.1f ms: a cold preview --json to /dev/null (median %.1f ms) less the rest",
                max(0, whole - total) * 1000, whole * 1000))
    }

    /// The year's plan of the same 2,000 todos with a note, a location and two tags on each,
    /// against the bare ones in the same turns: what an item holds beside its time costs the plan nothing
    /// it need not (the planner reads only the tags, to find an item's list).
    static func withDetails(count: Int, window: (from: String, to: String), config: String, binary: String, in folder: URL) throws {
        let bare = folder.appendingPathComponent("plan-\(count).sqlite").path
        let detailed = folder.appendingPathComponent("plan-\(count)-details.sqlite").path
        try write(definitions(count: count, seed: 15), database: detailed, remindFile: folder.appendingPathComponent("unused.rem").path, details: true)
        let programs = [bare, detailed].enumerated().map { i, db in
            Program(
                binary: binary, arguments: ["--db", db, "--config", config, "preview", "--from", window.from, "--to", window.to, "--json"],
                output: folder.appendingPathComponent("details-\(i).json").path, count: dawnletCount)
        }
        let measured = try runs(programs, in: folder)
        let agree = measured[0].count == measured[1].count ? "the counts agree" : "COUNTS DIFFER: \(measured[0].count) vs \(measured[1].count)"
        print("  the same year's plan with a note, a location and two tags on every todo (\(agree)): \(measured[1].line)")
        print(
            String(
                format: "    with details/bare wall time %.2f, peak RSS %.2f (target: unchanged, ≤ 1.05)", measured[1].median / measured[0].median,
                Double(measured[1].peak) / Double(max(measured[0].peak, 1))))
    }

    static func dawnletCount(_ json: String) -> Int { json.components(separatedBy: "{\"key\":").count - 1 }
    static func remindCount(_ text: String) -> Int { text.split(separator: "\n").count }

    static func run(binary: String) throws {
        let scratch = try BenchFolder("plan-bench")
        defer { scratch.finish() }
        let folder = scratch.url
        let remind = "/usr/bin/remind"
        guard FileManager.default.isExecutableFile(atPath: remind) else {
            print("plans: Remind is not installed (make deps installs it): nothing to pair with")
            return
        }
        let config = folder.appendingPathComponent("config.json5").path
        try "{ timeZone: \"Europe/Berlin\", reminders: { todo: [\"0m\"] } }".write(toFile: config, atomically: true, encoding: .utf8)
        print(
            "plans: `dawnlet-remind preview --json` against `remind -s`, same schedules, release, static, five runs each in turns, cold processes, each writing a new file"
        )

        /// With `months`, Remind runs the same plan (`remind -sN`); without, only dawnlet does.
        /// With `text`, dawnlet's text form (`preview` without --json) runs in the same turns.
        func pair(_ label: String, count: Int, window: (from: String, to: String), months: Int?, targetShare: Double = 0, text: Bool = false) throws {
            let db = folder.appendingPathComponent("plan-\(count).sqlite").path
            let file = folder.appendingPathComponent("plan-\(count).rem").path
            if !FileManager.default.fileExists(atPath: db) { try write(definitions(count: count, seed: 15), database: db, remindFile: file) }
            let arguments = ["--db", db, "--config", config, "preview", "--from", window.from, "--to", window.to, "--json"]
            let dawnlet = Program(binary: binary, arguments: arguments, output: folder.appendingPathComponent("ours.json").path, count: dawnletCount)
            let remindRun = months.map {
                Program(
                    binary: remind, arguments: ["-s\($0)", file, "1", "Jan", "2027"], output: folder.appendingPathComponent("remind.txt").path,
                    count: remindCount)
            }
            let textRun = Program(
                binary: binary, arguments: Array(arguments.dropLast()), output: folder.appendingPathComponent("ours.txt").path,
                count: { $0.components(separatedBy: "\n           why: ").count - 1 })
            let measured = try runs([dawnlet] + (remindRun.map { [$0] } ?? []) + (text ? [textRun] : []), in: folder)
            let ours = measured[0]
            let perReminder = String(
                format: "%.2f µs and %.0f bytes of peak RSS per reminder", ours.median * 1e6 / Double(max(ours.count, 1)),
                Double(ours.peak) * 1024 / Double(max(ours.count, 1)))
            guard let months else {
                print("  \(label), \(count.formatted()) repeating todos (\(ours.count.formatted()) reminders):")
                print("    dawnlet-remind preview --from \(window.from) --to \(window.to) --json: \(ours.line); \(perReminder)")
                print(
                    String(
                        format: "    %.1f µs of wall time a definition; peak %.1f MiB (target ≤ 25 MiB at 100,000)", ours.median * 1e6 / Double(count),
                        Double(ours.peak) / 1024))
                return
            }
            let theirs = measured[1]
            let agree = ours.count == theirs.count ? "the counts agree" : "COUNTS DIFFER: \(ours.count) vs \(theirs.count)"
            print("  \(label), \(count.formatted()) repeating todos (\(ours.count.formatted()) reminders; \(agree)):")
            print("    dawnlet-remind preview --from \(window.from) --to \(window.to) --json: \(ours.line)")
            print("    remind -s\(months) FILE 1 Jan 2027: \(theirs.line)")
            print(
                String(
                    format: "    dawnlet/Remind wall time %.3f (target ≤ %.2f), peak %.1f MiB (target ≤ 25 MiB); %@",
                    ours.median / theirs.median, targetShare, Double(ours.peak) / 1024, perReminder))
            guard text, let shown = measured.last else { return }
            print("    dawnlet-remind preview --from \(window.from) --to \(window.to) (as text, \(shown.count.formatted()) reminders): \(shown.line)")
            print(String(format: "    as text, dawnlet/Remind wall time %.3f", shown.median / theirs.median))
        }
        let year = ("2027-01-01T00:00:00+01:00", "2028-01-01T00:00:00+01:00")
        defer { try? split(database: folder.appendingPathComponent("plan-2000.sqlite").path, window: year, binary: binary, config: config) }
        let january = ("2027-01-01T00:00:00+01:00", "2027-01-31T23:59:59+01:00")
        try pair("a year's plan", count: 2_000, window: year, months: 12, targetShare: 0.03, text: true)
        try withDetails(count: 2_000, window: year, config: config, binary: binary, in: folder)
        try pair("a month's plan", count: 10_000, window: january, months: 1, targetShare: 0.05)
        // Scaling: time and memory per reminder should stay flat from 1k to 100k definitions,
        // and a plan of 100k bounded in memory
        // (Remind takes minutes on 100k: not paired).
        for count in [1_000, 100_000] { try pair("scaling, a month's plan", count: count, window: january, months: nil) }
        try pair("scaling, a year's plan", count: 100_000, window: year, months: nil)
    }
}
