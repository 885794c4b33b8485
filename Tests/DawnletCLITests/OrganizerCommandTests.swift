import DawnletTestSupport
import Foundation
import Testing

/// The day organizer from outside: the built binary on a database in a temporary folder.
@Suite struct OrganizerCommandTests {
    let folder: TemporaryFolder
    let db: String

    init() throws {
        folder = try TemporaryFolder()
        db = folder.path("data/dawnlet.sqlite")
        try FileManager.default.createDirectory(atPath: folder.path("data"), withIntermediateDirectories: true)
    }

    @discardableResult
    func cli(_ arguments: String..., expect status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        // The present fixed: "today", a habit's first day and what is overdue do not follow the clock.
        let result = try CLIProcess.run(["--db", db, "--now", "2026-12-01T12:00:00+00:00"] + arguments)
        #expect(result.status == status, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result
    }

    func json(_ result: CLIResult) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return try #require(object as? [String: Any])
    }

    func todayItems(_ day: String) throws -> [[String: Any]] {
        let document = try json(try cli("today", "--date", day, "--json"))
        #expect(document["date"] as? String == day)
        return try #require(document["items"] as? [[String: Any]])
    }

    @Test("add prints the id; skip this Tuesday and the series carries on")
    func skipTuesday() throws {
        #expect(try cli("todo", "add", "Take out bins", "--every", "weekly on tue from 2026-11-03").stdout == "1\n")
        #expect(try cli("todo", "add", "Water plants", "--every", "weekly on tue,fri from 2026-11-03").stdout == "2\n")
        try cli("todo", "skip", "1", "--on", "2026-12-01")
        let skipped = try todayItems("2026-12-01")
        #expect(skipped.map { $0["definition_id"] as? Int } == [1, 2])
        #expect(skipped.map { $0["status"] as? String } == ["skipped", "open"])
        #expect(skipped.map { $0["source"] as? String } == ["stored", "virtual"])
        let next = try todayItems("2026-12-08")
        #expect(next.map { $0["status"] as? String } == ["open", "open"])
        // Asking again regenerates nothing.
        #expect(try todayItems("2026-12-01").map { $0["status"] as? String } == ["skipped", "open"])
        let text = try cli("today", "--date", "2026-12-01").stdout
        #expect(text.contains("[-] todo  #1  Take out bins  (skipped)"))
    }

    @Test("done and skip without --on: today's occurrence, else the next open one, named on stderr; a habit is not done ahead")
    func doneWithoutOn() throws {
        try cli("todo", "add", "Bins", "--every", "weekly on thu")
        try cli("todo", "add", "Water", "--every", "daily")
        let done = try cli("todo", "done", "1")
        #expect(done.stdout == "todo 1 on 2026-12-03: done\n")
        #expect(done.stderr == "todo 1: 2026-12-03, its next open occurrence (today, 2026-12-01, is not one)\n", "\(done.stderr)")
        #expect(try cli("todo", "list").stdout.contains("[open]  next 2026-12-10"))
        #expect(try cli("todo", "skip", "1").stdout == "todo 1 on 2026-12-10: skipped\n")
        #expect(try cli("todo", "reopen", "1").stdout == "todo 1 on 2026-12-03: open again\n")
        let today = try cli("todo", "done", "2")
        #expect(today.stdout == "todo 2 on 2026-12-01: done\n" && today.stderr.isEmpty, "\(today.stderr)")
        try cli("habit", "add", "Swim", "--days", "thu")
        let habit = try cli("habit", "done", "1", expect: 65)
        #expect(habit.stderr.contains("2026-12-01 is not an occurrence of habit 1") && habit.stderr.contains("give --on DATE"), "\(habit.stderr)")
        #expect(try cli("habit", "skip", "1").stdout == "habit 1 on 2026-12-03: skipped\n")
    }

    @Test("a timed todo is overdue from its time: today, agenda, todo list and next's count; a kept answer of today reads it overdue past its time")
    func overdueFromItsTime() throws {
        let runtime = folder.path("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        func run(_ now: String, _ arguments: String...) throws -> String {
            let result = try CLIProcess.run(["--db", db, "--tz", "UTC", "--now", "2026-12-01T\(now)Z"] + arguments, environment: ["XDG_RUNTIME_DIR": runtime])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout
        }
        try cli("todo", "add", "Call the bank", "--due", "2026-12-01T18:41", "--tz", "UTC")
        try cli("todo", "add", "Later", "--due", "2026-12-01T21:00", "--tz", "UTC")
        let before = try run("18:40", "today")
        #expect(before.contains("[ ] todo  #1  Call the bank\n"), "\(before)")
        #expect(try run("18:40", "todo", "list").contains("Call the bank  due 2026-12-01 18:41  [open]"))
        #expect(try run("18:40", "next", "--json").contains(#""overdue":0"#))
        let after = try run("18:41", "today")
        #expect(after.contains("[ ] todo  #1  Call the bank  OVERDUE since 18:41\n") && after.contains("#2  Later\n"), "\(after)")
        #expect(try run("18:42", "agenda", "--days", "1").contains("Call the bank  OVERDUE since 18:41"))
        #expect(try run("18:41", "todo", "list").contains("Call the bank  due 2026-12-01 18:41  [overdue]"))
        #expect(try run("18:41", "todo", "list", "--overdue").contains("Call the bank") && !(try run("18:41", "todo", "list", "--overdue").contains("Later")))
        let next = try run("18:41", "next", "--json")
        #expect(next.contains(#""overdue":1"#), "\(next)")
        #expect(try run("18:41", "today", "--json").contains(#""title":"Call the bank","time":"18:41","status":"open","overdue":true"#))
    }

    @Test("add with --every and a date says what was made: the date it counts from and its first occurrence")
    func addSaysFirst() throws {
        let todo = try cli("todo", "add", "x", "--every", "weekly on thu", "--due", "fri")
        #expect(todo.stderr == "todo 1: weekly on thu from 2026-12-04; first occurrence Thu 2026-12-10\n", "\(todo.stderr)")
        let event = try cli("event", "add", "y", "--every", "monthly on day 31", "--start", "2026-12-01T09:00")
        #expect(event.stderr == "event 1: monthly on day 31 from 2026-12-01; first occurrence Thu 2026-12-31\n", "\(event.stderr)")
        // Without --every, the date as before.
        #expect(try cli("todo", "add", "z", "--due", "fri").stderr == "todo 2: due Fri 2026-12-04\n")
    }

    @Test(
        "habit streaks from the stored entries: a skipped day does not break one, a missed day does, today still open does not; kept across an edit of the days"
    )
    func habitStreaks() throws {
        // 2026-12-01 is a Tuesday; seen from Thursday 2026-12-10.
        func run(_ arguments: String...) throws -> String {
            let result = try CLIProcess.run(["--db", db, "--tz", "UTC", "--now", "2026-12-10T12:00Z"] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout
        }
        _ = try run("habit", "add", "Walk", "--days", "daily", "--from", "2026-12-01")
        for day in ["01", "02", "03", "05", "06", "07", "09"] { _ = try run("habit", "done", "1", "--on", "2026-12-\(day)") }
        _ = try run("habit", "skip", "1", "--on", "2026-12-08")
        // Today (the 10th) still open: the run of the 5th–9th, the 8th skipped, stands.
        #expect(try run("habit", "list") == "#1  Walk  (daily from 2026-12-01)  streak 4, longest 4; this week 2 of 7\n")
        _ = try run("habit", "done", "1")
        #expect(try run("habit", "list", "--json").contains(#""streak":{"current":5,"longest":5,"week_done":3,"week_planned":7}"#))
        // The days changed to weekdays: the weekend kept before still counts as kept.
        _ = try run("habit", "edit", "1", "--days", "weekdays")
        #expect(try run("habit", "list").hasSuffix("streak 5, longest 5; this week 3 of 5\n"))
        // A missed planned day breaks the run, seen from the day after.
        let later = try CLIProcess.run(["--db", db, "--tz", "UTC", "--now", "2026-12-12T12:00Z", "habit", "list"]).stdout
        #expect(later.hasSuffix("streak 0, longest 5; this week 3 of 5\n"), "\(later)")
    }

    @Test("a week with no day of a habit's planned says so, not \"1 of 0\": added after its day, or kept only off its days; more kept than planned said apart")
    func habitWeekWithoutPlannedDays() throws {
        // Thursday 2026-12-03: this week's Monday is before either habit begins.
        func run(_ arguments: String...) throws -> String {
            let result = try CLIProcess.run(["--db", db, "--tz", "UTC", "--now", "2026-12-03T12:00Z"] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout
        }
        _ = try run("habit", "add", "Walk", "--days", "daily")
        _ = try run("habit", "done", "1")
        _ = try run("habit", "edit", "1", "--days", "mon")
        _ = try run("habit", "add", "Read", "--days", "mon")
        #expect(
            try run("habit", "list") == """
                #1  Walk  (weekly on mon from 2026-12-03)  streak 1, longest 1; this week 1 kept, none planned
                #2  Read  (weekly on mon from 2026-12-03)  streak 0, longest 0; this week none planned

                """)
        #expect(try run("dashboard").contains("  Walk  streak 1, longest 1; this week 1 kept, none planned\n"))
        #expect(try run("habit", "list", "--json").contains(#""streak":{"current":1,"longest":1,"week_done":1,"week_planned":0}"#))
        // Kept on more days than it now has this week: the two apart, not "2 of 1".
        _ = try run("habit", "add", "Stretch", "--days", "daily", "--from", "2026-11-30")
        for day in ["01", "02"] { _ = try run("habit", "done", "3", "--on", "2026-12-\(day)") }
        _ = try run("habit", "edit", "3", "--days", "tue")
        #expect(try run("habit", "list").contains("#3  Stretch  (weekly on tue from 2026-11-30)  streak 2, longest 2; this week 2 kept, 1 planned\n"))
    }

    @Test("habit --days takes daily and weekdays, as schedules say them")
    func habitDayWords() throws {
        try cli("habit", "add", "Meds", "--days", "daily", "--at", "08:30")
        try cli("habit", "add", "Standup notes", "--days", "weekdays")
        // Saturday 2026-12-05: the daily one only; Monday: both.
        #expect(try todayItems("2026-12-05").map { $0["title"] as? String } == ["Meds"])
        #expect(try todayItems("2026-12-07").map { $0["title"] as? String }.sorted { ($0 ?? "") < ($1 ?? "") } == ["Meds", "Standup notes"])
        try cli("habit", "edit", "1", "--days", "Weekdays")
        #expect(try todayItems("2026-12-05").isEmpty)
        try cli("habit", "add", "x", "--days", "fortnightly", expect: 2)
    }

    @Test("today: timed items in order, the overdue one-off marked and kept, done marked")
    func today() throws {
        try cli("todo", "add", "Pay rent", "--due", "2026-11-25")
        try cli("todo", "add", "Call mum", "--due", "2026-12-01T18:00", "--remind", "1h", "--remind", "1d")
        try cli("event", "add", "Standup", "--start", "2026-11-02T09:30", "--duration", "15m", "--every", "weekdays")
        try cli("habit", "add", "Run", "--days", "mon,tue,fri", "--at", "07:00")
        try cli("habit", "done", "1", "--on", "2026-12-01", expect: 0)
        let items = try todayItems("2026-12-01")
        #expect(items.map { $0["title"] as? String } == ["Run", "Standup", "Call mum", "Pay rent"])
        #expect(items.map { $0["time"] as? String } == ["07:00", "09:30", "18:00", nil])
        #expect(items.map { $0["status"] as? String } == ["done", "open", "open", "open"])
        #expect(items.map { $0["overdue"] as? Bool } == [false, false, false, true])
        #expect(items.map { $0["kind"] as? String } == ["habit", "event", "todo", "todo"])
        try cli("todo", "done", "1")
        #expect(try todayItems("2026-12-01").count == 3)
        let list = try json(try cli("todo", "list", "--json"))
        let todos = try #require(list["todos"] as? [[String: Any]])
        #expect(todos.map { $0["reminders"] as? [String] } == [[], ["1h", "1d"]])
    }

    @Test("editing one instance leaves the series alone; without --on the series changes")
    func edit() throws {
        try cli("event", "add", "Standup", "--start", "2026-11-30T09:30", "--every", "weekdays")
        try cli("event", "edit", "1", "--on", "2026-12-01", "--at", "11:00", "--title", "Standup (late)")
        try cli("event", "edit", "1", "--title", "Daily")
        #expect(try todayItems("2026-12-01").map { $0["title"] as? String } == ["Standup (late)"])
        #expect(try todayItems("2026-12-01").map { $0["time"] as? String } == ["11:00"])
        #expect(try todayItems("2026-12-02").map { $0["title"] as? String } == ["Daily"])
        try cli("event", "delete", "1")
        #expect(try todayItems("2026-12-01").isEmpty)
    }

    @Test("money month: materialised once, skipped rows out of the total")
    func moneyMonth() throws {
        try cli("money", "add", "Rent", "--amount", "-950", "--every", "monthly on day 1 from 2026-01-01")
        try cli("money", "add", "Stream", "--amount", "-12.99", "--every", "monthly on day 31 from 2026-01-01")
        try cli("money", "add", "Salary", "--amount", "2500.00", "--every", "monthly on last fri from 2026-01-01")
        try cli("money", "skip", "2", "--on", "2026-02-28")
        let first = try cli("money", "month", "2026-02", "--json").stdout
        let second = try cli("money", "month", "2026-02", "--json").stdout
        #expect(first == second)
        #expect(
            first
                == #"{"month":"2026-02","lines":[{"date":"2026-02-01","kind":"bill","definition_id":1,"occurrence_id":2,"name":"Rent","amount":"-950.00","status":"posted"},{"date":"2026-02-27","kind":"bill","definition_id":3,"occurrence_id":3,"name":"Salary","amount":"2500.00","status":"posted"},{"date":"2026-02-28","kind":"bill","definition_id":2,"occurrence_id":1,"name":"Stream","amount":"-12.99","status":"skipped"}],"in":"2500.00","out":"-950.00","net":"1550.00"}"#
                + "\n")
        let text = try cli("money", "month", "2026-02").stdout
        #expect(text.contains("2026-02-28        -12.99  Stream  (skipped)"))
        #expect(text.hasSuffix("  in               2500.00\n  out              -950.00\n  net              1550.00\n"), "\(text)")
    }

    @Test(
        "bad input: one clear line, the right exit code, nothing lost",
        arguments: [
            (["todo", "done", "42"], 65, ["no todo with id 42"]),
            (["todo", "done", "x"], 2, ["\"x\" is not an id"]),
            (["todo", "add", "A", "--due", "2026-02-30"], 2, ["2026-02-30", "2026-02 has no day 30: it has 28 days", "YYYY-MM-DD, today"]),
            (["todo", "add", "A", "--due", "tomorrow 13pm"], 2, ["\"13pm\" is not a time: write it as 24-hour HH:MM", "9am", "tomorrow 09:00"]),
            (["todo", "done", "1", "--on", "2026-13-01"], 2, ["there is no month 13"]),
            (["todo", "skip", "1", "--on", "2026-12-02"], 65, ["2026-12-02 is not an occurrence of todo 1"]),
            (["money", "add", "Rent", "--amount", "ten", "--every", "monthly"], 2, ["\"ten\" is not an amount"]),
            (["money", "add", "Rent", "--amount", "12.345", "--every", "monthly"], 2, ["12.345"]),
            (["money", "skip", "1", "--on", "2026-12-02"], 65, ["no recurring transaction with id 1"]),
            (["money", "month", "2026-13"], 2, ["2026-13"]),
            (["todo", "add", ""], 2, ["empty"]),
            (["todo", "add", "two\nlines"], 2, ["control character"]),
            (["todo", "add", "A", "--remind", "soon"], 2, ["soon"]),
            (["event", "add", "A", "--start", "2026-12-01", "--duration", "forever"], 2, ["forever"]),
            (["habit", "add", "Run", "--days", "mon,funday"], 2, ["funday"]),
            (["todo", "edit", "1"], 2, ["nothing to change"]),
            (["todo", "frobnicate"], 2, ["unknown todo command"]),
        ] as [([String], Int32, [String])])
    func badInput(_ arguments: [String], _ status: Int32, _ words: [String]) throws {
        try cli("todo", "add", "Bins", "--every", "weekly on tue from 2026-11-03")
        let before = try cli("todo", "list", "--json").stdout
        let result = try CLIProcess.run(["--db", db] + arguments)
        CLIProcess.expectFailure(result, status: status, mentioning: words)
        #expect(try cli("todo", "list", "--json").stdout == before)
    }

    @Test("a file that is not a database: refused with 65 and left byte-for-byte untouched")
    func notADatabase() throws {
        let path = folder.path("notes.txt")
        let bytes = Data("these are my notes, not a database\n".utf8 + Data(repeating: 0x41, count: 5000))
        try bytes.write(to: URL(fileURLWithPath: path))
        let result = try CLIProcess.run(["--db", path, "todo", "add", "x"])
        CLIProcess.expectFailure(result, status: 65, mentioning: ["not a dawnlet database", path])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test("a database from a newer version: refused with 65, naming both versions")
    func newerVersion() throws {
        try cli("todo", "add", "x")
        let python = "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('PRAGMA user_version = 99'); c.commit()"
        let p = try Process.run(URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", "-c", python, db])
        p.waitUntilExit()
        let result = try CLIProcess.run(["--db", db, "todo", "list"])
        CLIProcess.expectFailure(result, status: 65, mentioning: ["schema version 99", "upgrade"])
    }

    @Test("a database locked by another writer: waits, then exit 1 with a clear line; the write is not lost later")
    func locked() throws {
        try cli("todo", "add", "x")
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = [
            "python3", "-c",
            """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute('BEGIN IMMEDIATE')
            print('locked', flush=True)
            time.sleep(float(sys.argv[2]))
            """, db, "7",
        ]
        let out = Pipe()
        holder.standardOutput = out
        try holder.run()
        defer { holder.terminate(); holder.waitUntilExit() }
        _ = out.fileHandleForReading.availableData  // "locked": the lock is held from here on
        let start = Date()
        let result = try CLIProcess.run(["--db", db, "todo", "add", "y"])
        CLIProcess.expectFailure(result, status: 1, mentioning: ["locked by another process"])
        #expect(Date().timeIntervalSince(start) >= 4.5)
        holder.terminate()
        holder.waitUntilExit()
        #expect(try cli("todo", "add", "y").stdout == "2\n")
    }

    @Test("a read-only folder: exit 1 naming the folder, nothing created")
    func readOnlyFolder() throws {
        let locked = folder.path("locked")
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.url.path)
        // The default database's folders are made; here they cannot be.
        let result = try CLIProcess.run(["todo", "add", "x"], environment: ["XDG_DATA_HOME": locked + "/sub"], as: "65534")
        CLIProcess.expectFailure(result, status: 1, mentioning: ["cannot create folder", "Permission denied"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: locked).isEmpty)
    }

    @Test("the default database lives under $XDG_DATA_HOME, private")
    func xdgDefault() throws {
        let data = folder.path("xdg")
        let result = try CLIProcess.run(["todo", "add", "x"], environment: ["XDG_DATA_HOME": data])
        #expect(result.status == 0)
        #expect(try mode(data + "/dawnlet") == 0o700)
        #expect(try mode(data + "/dawnlet/dawnlet.sqlite") == 0o600)
    }
}
