import DawnletCore
import DawnletStore
import DawnletTestSupport
import Foundation

/// `today` and `money month` as a person runs them: a fresh `dawnlet-remind` process each call
/// (cold start included) on a database of 10,000 definitions and a year of stored rows.
enum OrganizerBench {
    static func run(binary: String) throws {
        let scratch = try BenchFolder("bench")
        defer { scratch.finish() }
        let folder = scratch.url
        let path = folder.appendingPathComponent("dawnlet.sqlite").path
        let today = CivilDate(year: 2026, month: 11, day: 30) ?? CivilDate(dayNumber: 0)
        var remindFile = ""
        let populated = ContinuousClock().measure { remindFile = populate(path: path, today: today) }
        print(
            "organizer: database of 10,000 definitions (1,250 each of todos, events, habits, bills, subscriptions, debts, goals, income;"
                + " every todo and event with a note, a location and two tags)")
        print(String(format: "  populated in %.1f s (a year of stored rows, 12 money months loaded)", seconds(populated)))

        // Nothing is kept for these, whatever the shell that runs the bench has set.
        let runtime = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }
        unsetenv("XDG_RUNTIME_DIR")
        defer { if let runtime { setenv("XDG_RUNTIME_DIR", runtime, 1) } }
        for (label, arguments) in [
            ("today --date 2026-11-30 --json, nothing kept (no XDG_RUNTIME_DIR)", ["today", "--date", "2026-11-30", "--json"]),
            ("agenda --from 2026-11-30, nothing kept", ["agenda", "--from", "2026-11-30"]),
            ("money month 2026-11 --json", ["money", "month", "2026-11", "--json"]),
            ("money month 2027-11 --json (first load: materialises 1,250 rows)", ["money", "month", "2027-11", "--json"]),
            ("preview --days 30 --json", ["--tz", "Europe/Berlin", "preview", "--now", "2026-11-30T07:00", "--days", "30", "--json"]),
            // A status bar runs it every few seconds: here with no serve running, so it
            // plans (the status bar's case is `nextWhileServing`); `--help` opens no database: the floor.
            ("next --format waybar, no serve running (it plans)", ["--tz", "Europe/Berlin", "--now", "2026-11-30T07:00", "next", "--format", "waybar"]),
            ("--help (no database: the process's own floor)", ["--help"]),
        ] {
            var times: [Double] = []
            for _ in 0..<15 { times.append(try timeProcess(binary, ["--db", path] + arguments)) }
            times.sort()
            let target = label.hasPrefix("preview") ? "< 100 ms" : label.hasPrefix("--help") ? "< 5 ms" : "< 50 ms"
            if label.hasPrefix("preview") {
                let output = folder.appendingPathComponent("preview.json").path
                _ = try timeProcess(binary, ["--db", path] + arguments, stdout: output)
                let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
                print("  preview plans \(text.components(separatedBy: "{\"key\":").count - 1) reminders (\(text.utf8.count / 1024) KiB of JSON)")
            }
            print(
                String(
                    format: "  %@: median %.1f ms, worst %.1f ms per call, cold process included (target: %@)",
                    label, times[times.count / 2] * 1000, times[times.count - 1] * 1000,
                    label.contains("nothing kept") ? "< 50 ms; the 5 ms target is the kept answer's, below" : target))
        }
        try againstRemind(binary: binary, large: (path, remindFile), today: today, in: folder)
        try keptAnswers(binary: binary, database: path, in: folder)
        try nextWhileServing(binary: binary, database: path, in: folder)
    }

    /// `today --json` and `agenda` as a status bar or a shell prompt runs them: again and again,
    /// with XDG_RUNTIME_DIR set, so each call after the first prints the answer the one before
    /// kept while nothing it was read from has changed (`AnswerCache`).
    static func keptAnswers(binary: String, database: String, in folder: URL) throws {
        let runtime = folder.appendingPathComponent("kept").path
        mkdir(runtime, 0o700)
        setenv("XDG_RUNTIME_DIR", runtime, 1)
        defer { unsetenv("XDG_RUNTIME_DIR") }
        for (label, arguments) in [
            ("today --date 2026-11-30 --json", ["today", "--date", "2026-11-30", "--json"]),
            ("agenda --from 2026-11-30 (7 days)", ["agenda", "--from", "2026-11-30"]),
        ] {
            let first = try timeProcess(binary, ["--db", database] + arguments)
            var times: [Double] = []
            for _ in 0..<15 { times.append(try timeProcess(binary, ["--db", database] + arguments)) }
            times.sort()
            print(
                String(
                    format:
                        "  %@, answer kept in XDG_RUNTIME_DIR: median %.1f ms, worst %.1f ms per call, cold process included (target: ≤ 5 ms); the first call, which makes and keeps it, %.1f ms",
                    label, times[times.count / 2] * 1000, times[times.count - 1] * 1000, first * 1000))
        }
    }

    /// `next --format waybar` as a status bar runs it: every few seconds while `serve` runs on the
    /// database, reading what the runner published. On the real clock, with a command
    /// channel that succeeds (`/bin/true`), so nothing waits for a retry.
    static func nextWhileServing(binary: String, database: String, in folder: URL) throws {
        let runtime = folder.appendingPathComponent("runtime").path
        let config = folder.appendingPathComponent("serve.json5").path
        mkdir(runtime, 0o700)
        try #"{ channels: { command: { argv: ["/bin/true"] } } }"#.write(toFile: config, atomically: true, encoding: .utf8)
        setenv("XDG_RUNTIME_DIR", runtime, 1)
        defer { unsetenv("XDG_RUNTIME_DIR") }
        let server = try RunnerBench.spawn(binary, ["--db", database, "--config", config, "serve"], faketime: nil)
        defer { RunnerBench.terminate(server) }
        let arguments = ["--db", database, "--config", config, "next", "--format", "waybar"]
        let answer = folder.appendingPathComponent("next.json").path
        let deadline = ContinuousClock.now + .seconds(120)
        // Published once the first plan is made and what was late at the start has gone out.
        while ContinuousClock.now < deadline {
            _ = try timeProcess(binary, ["--db", database, "--config", config, "next", "--json"], stdout: answer)
            if ((try? String(contentsOfFile: answer, encoding: .utf8)) ?? "").contains(#""from":"serve""#) { break }
            usleep(50_000)
        }
        guard ((try? String(contentsOfFile: answer, encoding: .utf8)) ?? "").contains(#""from":"serve""#) else {
            print("bench: serve published nothing for next within 120 s")
            exit(1)
        }
        // In turns with an exec of /bin/true: the least any program started this way costs.
        var (times, floor): ([Double], [Double]) = ([], [])
        for _ in 0..<21 {
            times.append(try timeProcess(binary, arguments))
            floor.append(try timeProcess("/bin/true", []))
        }
        times.sort()
        floor.sort()
        print(
            String(
                format:
                    "  next --format waybar, serve running (it reads what the runner published): min %.1f ms, median %.1f ms, max %.1f ms per call (target: < 5 ms); /bin/true in turns: min %.1f ms, median %.1f ms, max %.1f ms; %.2fx /bin/true (target ≤ 1.5)",
                times[0] * 1000, times[times.count / 2] * 1000, times[times.count - 1] * 1000, floor[0] * 1000, floor[floor.count / 2] * 1000,
                floor[floor.count - 1] * 1000, times[times.count / 2] / floor[floor.count / 2]))
    }

    /// A year's database, begun a year ago (its reminders of the past are of its time): as a
    /// person who has kept their days in it since then has it.
    /// What a person's item holds beside its time: a note of three lines, a location, two tags.
    static func details(_ i: Int) -> ItemDetails {
        ItemDetails(
            note: "Bring the blue folder (item \(i)).\nAsk about the invoice from last month.\nhttps://example.org/items/\(i)",
            location: "Room \(i % 40)", tags: [["work", "home", "errands"][i % 3], "batch-\(i % 7)"])
    }

    /// `each` of every kind (1,250: 10,000 definitions); returns the same items as Remind lines
    /// (`REM ... MSG title`), for the file `remind -q` is paired on.
    @discardableResult
    static func populate(path: String, today: CivilDate, each: Int = 1250) -> String {
        var remind: [String] = []
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func on(_ date: CivilDate) -> String { "\(date.day) \(months[date.month - 1]) \(date.year)" }
        func days(_ mask: UInt8) -> String { WeekdaySet(rawValue: mask).map { $0.shortName.capitalized }.joined(separator: " ") }
        do {
            let store = try Store(path: path, began: Zone.utc.resolve(WallTime(hour: 0, minute: 0)!, on: today.adding(days: -365)).instant)
            var rng = SeededRandom(seed: 7)
            let weekly = { (days: UInt8) in Schedule(rule: .weekly(interval: 1, days: WeekdaySet(rawValue: days)), anchor: today.adding(days: -365)) }
            for i in 0..<each {
                let repeating = i % 2 == 0
                let todoDate = repeating ? nil : today.adding(days: Int.random(in: -30...60, using: &rng))
                let todoDays = repeating ? UInt8.random(in: 1...127, using: &rng) : 0
                let id = try store.items.addItem(
                    kind: .todo, title: "Todo \(i)", date: todoDate, time: nil, schedule: repeating ? weekly(todoDays) : nil,
                    reminders: [.minutes(10)], details: details(i), today: today)
                remind.append("REM \(todoDate.map(on) ?? days(todoDays)) MSG Todo \(i)")
                if i % 10 == 0 && repeating { try storeAYear(store, .todo, id, from: today.adding(days: -365), &rng) }
                let eventDate = today.adding(days: -Int.random(in: 0...365, using: &rng))
                let eventDays = i % 4 == 0 ? 0 : UInt8.random(in: 1...127, using: &rng)
                let event = try store.items.addItem(
                    kind: .event, title: "Event \(i)", date: eventDate, time: WallTime(hour: 8 + i % 10, minute: 0),
                    schedule: i % 4 == 0 ? nil : weekly(eventDays), durationMinutes: 30, reminders: [.minutes(10)], details: details(i), today: today)
                remind.append("REM \(i % 4 == 0 ? on(eventDate) : days(eventDays)) AT \(8 + i % 10):00 DURATION 0:30 MSG Event \(i)")
                if i % 10 == 0 { try storeAYear(store, .event, event, from: today.adding(days: -365), &rng) }
                let habitDays = UInt8.random(in: 1...127, using: &rng)
                let habit = try store.items.addItem(
                    kind: .habit, title: "Habit \(i)", date: nil, time: WallTime(hour: 7, minute: 0), schedule: weekly(habitDays), today: today)
                remind.append("REM \(days(habitDays)) AT 7:00 MSG Habit \(i)")
                if i % 10 == 0 { try storeAYear(store, .habit, habit, from: today.adding(days: -365), &rng) }
                // Bills, renewals and debt payments on a day of each month; income on its last Friday.
                for kind in ["Bill", "Subscription", "Debt"] { remind.append("REM \(1 + i % 31) MSG \(kind) \(i)") }
                remind.append("REM \(on(today.adding(days: i % 400))) MSG Goal \(i)")
                remind.append("REM Fri 1 --7 MSG Income \(i)")
                _ = try store.money.addRecurringTransaction(
                    name: "Bill \(i)", amount: Amount(minorUnits: -Int64.random(in: 100...100_000, using: &rng)),
                    schedule: Schedule(rule: .monthlyOnDay(interval: 1, day: 1 + i % 31), anchor: today.adding(days: -365)),
                    today: today)
                _ = try store.sources.addSubscription(
                    name: "Subscription \(i)", amount: Amount(minorUnits: -Int64.random(in: 100...5_000, using: &rng)),
                    schedule: Schedule(rule: .monthlyOnDay(interval: 1, day: 1 + i % 31), anchor: today.adding(days: -400)),
                    today: today)
                _ = try store.sources.addDebt(
                    name: "Debt \(i)", balance: Amount(minorUnits: 100_000), minimum: Amount(minorUnits: 2_500),
                    day: 1 + i % 31, today: today)
                _ = try store.sources.addGoal(name: "Goal \(i)", target: Amount(minorUnits: 500_000), by: today.adding(days: i % 400), today: today)
                _ = try store.sources.addIncome(
                    name: "Income \(i)", amount: Amount(minorUnits: 250_000),
                    schedule: Schedule(rule: .monthlyOnWeekday(interval: 1, ordinal: .last, weekday: .friday), anchor: today.adding(days: -400)),
                    today: today)
            }
            for offset in -11...0 {
                let c = today.components
                let index = c.year * 12 + c.month - 1 + offset
                if let month = YearMonth(year: index / 12, month: index % 12 + 1) { _ = try store.money.loadMonth(month) }
            }
        } catch {
            print("bench: cannot populate \(path): \(error)")
            exit(1)
        }
        return remind.joined(separator: "\n") + "\n"
    }

    /// Marks every occurrence of the definition over the past year done or skipped.
    static func storeAYear(_ store: Store, _ kind: ItemKind, _ id: Int64, from start: CivilDate, _ rng: inout SeededRandom) throws {
        let definition = try store.items.definition(kind, id: id)
        guard let schedule = definition.schedule else { return }
        for date in schedule.occurrences(in: start...start.adding(days: 365), defaultAnchor: start) {
            try store.items.setOccurrence(kind, definitionID: id, date: date, status: Bool.random(using: &rng) ? .skipped : (kind == .event ? .open : .done))
        }
    }

    /// Wall time of one run of the binary, spawned with posix_spawn and reaped with waitpid
    /// (Foundation's Process polls for the child's exit and would add its own latency).
    static func timeProcess(_ binary: String, _ arguments: [String], stdout: String = "/dev/null") throws -> Double {
        try measureProcess(binary, arguments, stdout: stdout)
    }

    /// Peak resident memory (KiB) of one run, by GNU time (`time -f %M`): it forks from a small
    /// process, while a child spawned from this one (vfork) would be charged this one's pages.
    static func peakMemory(_ binary: String, _ arguments: [String], stdout: String = "/dev/null", in folder: URL) throws -> Int {
        let report = folder.appendingPathComponent("time-report").path
        try measureProcess("/usr/bin/time", ["-f", "%M", "-o", report, binary] + arguments, stdout: stdout)
        return Int(((try? String(contentsOfFile: report, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Wall time of one run.
    @discardableResult
    static func measureProcess(_ binary: String, _ arguments: [String], stdout: String = "/dev/null") throws -> Double {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([binary] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let start = ContinuousClock.now
        let rc = posix_spawn(&pid, binary, &actions, nil, argv, environ)
        guard rc == 0 else {
            print("bench: cannot start \(binary): \(String(cString: strerror(rc)))")
            exit(1)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let elapsed = seconds(ContinuousClock.now - start)
        guard status == 0 else {
            print("bench: \(arguments.joined(separator: " ")) failed (wait status \(status))")
            exit(1)
        }
        return elapsed
    }
}
