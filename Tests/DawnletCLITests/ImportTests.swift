import DawnletTestSupport
import Foundation
import Testing

struct ImportToolError: Error, CustomStringConvertible {
    let description: String
}

/// `import`: files made by the real programs (taskwarrior, calcurse, khal, run here in a
/// temporary HOME) and small fixtures of the edge cases, imported through the binary; the items
/// then held, a second import changing nothing, an edited one updating, bad files refused whole.
@Suite struct ImportTests {
    let folder: TemporaryFolder
    let db: String
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Imports")

    init() throws {
        folder = try TemporaryFolder()
        db = folder.path("d.sqlite")
    }

    @discardableResult
    func cli(_ arguments: String..., expect status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        let result = try CLIProcess.run(["--db", db, "--tz", "Europe/Berlin", "--now", "2026-12-05T12:00:00+00:00"] + arguments)
        #expect(result.status == status, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result
    }

    /// Runs a real program with HOME in the temporary folder; fails naming `make deps` when it is missing.
    @discardableResult
    func tool(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw ImportToolError(description: "\(path) is missing: run `make deps` (it installs taskwarrior, calcurse and khal)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        var env: [String: String] = ["PATH": "/usr/bin:/bin", "HOME": folder.url.path, "TZ": "Europe/Berlin", "LANG": "C.UTF-8"]
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ImportToolError(description: "\(path) \(arguments) failed: \(process.terminationStatus)") }
        return String(decoding: data, as: UTF8.self)
    }

    func write(_ text: String, _ name: String) throws -> String {
        let path = folder.path(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The one line that counts what became of everything.
    func tally(_ result: CLIResult) -> String { String(result.stdout.split(separator: "\n").last ?? "") }

    @Test(
        "taskwarrior: task export read as todos (due, tags, priority, annotation as note, recur:monthly as a schedule, done); again: unchanged; a task edited: updated"
    )
    func taskwarrior() throws {
        let env = ["TASKRC": folder.path("taskrc"), "TASKDATA": folder.path("task")]
        try "data.location=\(folder.path("task"))\nconfirmation=no\nrecurrence.confirmation=no\n".write(
            toFile: folder.path("taskrc"), atomically: true, encoding: .utf8)
        // Taskwarrior makes a repeat's instances up to its own clock's now: it runs at the instant
        // the commands here are given (`cli`'s --now), whatever the day the test runs on.
        _ = try tool("/usr/bin/task", ["--version"], environment: env)
        @discardableResult func task(_ arguments: [String]) throws -> String {
            try tool("/usr/bin/faketime", ["2026-12-05 13:00:00", "/usr/bin/task"] + arguments, environment: env)
        }
        try task(["add", "Pay rent", "due:2026-12-10T09:00", "recur:monthly", "+home", "priority:H"])
        try task(["add", "Buy milk", "due:2026-12-07", "+shop", "priority:L"])
        try task(["add", "Every third day", "due:2026-12-07", "recur:3d"])
        try task(["add", "Read the manual"])
        try task(["/milk/", "annotate", "semi-skimmed"])
        try task(["/manual/", "done"])
        let json = try write(try task(["export"]), "tasks.json")
        let first = try cli("import", json, "--from", "taskwarrior", expect: 65)
        #expect(first.stdout.contains("refused   \"Every third day\""))
        #expect(first.stdout.contains("recur:3d is no weekly, monthly or yearly repeat"))
        #expect(first.stderr == "dawnlet-remind: 1 of 6 refused (see above); the rest were imported\n")
        let list = try cli("todo", "list").stdout
        #expect(list.contains("#1  Pay rent  (monthly from 2026-12-10 at 09:00)  [open]  next 2026-12-10"))
        #expect(list.contains("#2  Buy milk  due 2026-12-07  [open]"))
        #expect(list.contains("#3  Read the manual  [done]"))
        let milk = try cli("todo", "show", "2").stdout
        #expect(milk.contains("priority: low (9)") && milk.contains("tags: shop") && milk.contains("semi-skimmed"))
        #expect(try cli("todo", "show", "1").stdout.contains("priority: high (1)"))
        // The same file again: nothing changes.
        #expect(tally(try cli("import", json, "--from", "taskwarrior", expect: 65)) == "imported \(json): 0 new, 0 updated, 3 unchanged, 1 refused, 2 skipped")
        // Edited in taskwarrior: the same todo, moved; a dry run says so and writes nothing.
        try task(["/milk/", "modify", "due:2026-12-09"])
        let edited = try write(try task(["export"]), "tasks.json")
        let dry = try cli("import", edited, "--from", "taskwarrior", "--dry-run", expect: 65)
        #expect(dry.stdout.contains("updated   todo 2  Buy milk"))
        #expect(try cli("todo", "list").stdout.contains("#2  Buy milk  due 2026-12-07  [open]"))
        #expect(try cli("import", edited, "--from", "taskwarrior", expect: 65).stdout.contains("updated   todo 2  Buy milk"))
        #expect(try cli("todo", "list").stdout.contains("#2  Buy milk  due 2026-12-09  [open]"))
    }

    @Test("calcurse: its export (no UIDs) read as events and todos with their times, lengths and weekly repeats; every 2 days refused; again: unchanged")
    func calcurse() throws {
        let data = folder.path("calcurse")
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try """
        12/08/2026 @ 14:30 -> 12/08/2026 @ 15:15 |Dentist
        12/09/2026 @ 09:00 -> 12/09/2026 @ 09:30 {1W} |Standup
        12/10/2026 @ 10:00 -> 12/10/2026 @ 11:00 {2D} |Every other day

        """.write(toFile: data + "/apts", atomically: true, encoding: .utf8)
        try "[1] Write report\n".write(toFile: data + "/todo", atomically: true, encoding: .utf8)
        let ics = try write(try tool("/usr/bin/calcurse", ["-D", data, "--export"]), "calcurse.ics")
        let first = try cli("import", ics, expect: 65)
        #expect(first.stdout.contains("it repeats every 2 days"))
        #expect(tally(first) == "imported \(ics): 3 new, 0 updated, 0 unchanged, 1 refused, 0 skipped")
        let events = try cli("event", "list").stdout
        #expect(events.contains("Standup  (weekly from 2026-12-09 at 09:00)  for 30m"))
        #expect(events.contains("Dentist  on 2026-12-08 14:30  for 45m"))
        let todo = try cli("todo", "show", "1").stdout
        #expect(todo.contains("Write report") && todo.contains("priority: high (1)"))
        #expect(tally(try cli("import", ics, expect: 65)) == "imported \(ics): 0 new, 0 updated, 3 unchanged, 1 refused, 0 skipped")
    }

    @Test("khal: files of its vdir read as events (zone, alarms as reminders, location, note, tags, weekly until); an item deleted here is made again")
    func khal() throws {
        let vdir = folder.path("cal/home")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        let config = try write(
            """
            [calendars]
            [[home]]
            path = \(vdir)
            type = calendar
            [default]
            default_calendar = home
            [locale]
            timeformat = %H:%M
            dateformat = %Y-%m-%d
            longdateformat = %Y-%m-%d
            datetimeformat = %Y-%m-%d %H:%M
            longdatetimeformat = %Y-%m-%d %H:%M
            default_timezone = Europe/Berlin
            local_timezone = Europe/Berlin

            """, "khal.conf")
        let khal = "/usr/bin/khal"
        try tool(khal, ["-c", config, "new", "-l", "Main St 1", "-m", "1h,10m", "-g", "Health", "2026-12-08", "14:30", "15:15", "Dentist", "::", "bring card"])
        try tool(khal, ["-c", config, "new", "-r", "weekly", "-u", "2027-03-01", "2026-12-09", "09:00", "09:30", "Standup"])
        let files = try FileManager.default.contentsOfDirectory(atPath: vdir).sorted().map { vdir + "/" + $0 }
        #expect(files.count == 2)
        for file in files { try cli("import", file) }
        let events = try cli("event", "list").stdout
        #expect(events.contains("Dentist  on 2026-12-08 14:30  for 45m  remind 1h,10m"))
        #expect(events.contains("Standup  (weekly from 2026-12-09 until 2027-02-28 at 09:00)  for 30m"))
        let dentist = try cli("event", "show", events.contains("#1  Dentist") ? "1" : "2").stdout
        #expect(dentist.contains("location: Main St 1") && dentist.contains("bring card") && dentist.contains("tags: health"))
        for file in files { #expect(tally(try cli("import", file)).hasSuffix("0 new, 0 updated, 1 unchanged, 0 refused, 0 skipped")) }
        try cli("event", "delete", "1")
        let again = try cli("import", files[0]).stdout
        #expect(again.contains("new       event 3") && again.contains("was deleted since"))
    }

    @Test("Thunderbird: its files read with their zones kept as the items' own (19:00 London shown 20:00 in Berlin), its alarms as reminders; again: unchanged")
    func thunderbird() throws {
        // Files Thunderbird wrote (its own VTIMEZONE with history, X-MOZ properties, a snoozed todo).
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("DawnletSystemTests/Corpus")
        let files = ["calendars/alarm_thunderbird_2_future.ics", "clients/thunderbird_snoozed_todo.ics"].map { corpus.appendingPathComponent($0).path }
        for file in files { #expect(tally(try cli("import", file)).hasSuffix("1 new, 0 updated, 0 unchanged, 0 refused, 0 skipped")) }
        #expect(try cli("event", "list").stdout.contains("#1  event  on 2024-10-23 19:00  zone Europe/London  for 1h  remind 1m,24m"))
        #expect(try cli("agenda", "--from", "2024-10-23", "--days", "1").stdout.contains("20:00  [ ] event #1  event  (19:00 Europe/London)  until 21:00"))
        #expect(
            try cli("todo", "show", "1", "--json").stdout.contains(#""when":"2021-02-10 09:19","#)
                && (try cli("todo", "show", "1", "--json").stdout.contains(#""zone":"America/Chicago""#)))
        for file in files { #expect(tally(try cli("import", file)).hasSuffix("0 new, 0 updated, 1 unchanged, 0 refused, 0 skipped")) }
    }

    @Test("fixtures: RRULEs that do not fit refused one by one with the reason, the rest imported (COUNT as the last day, BYSETPOS, EXDATE, VALARMs, details)")
    func calendarEdgeCases() throws {
        let ics = Self.fixtures.appendingPathComponent("edge-cases.ics").path
        let result = try cli("import", ics, expect: 65)
        #expect(result.stdout.contains("refused   \"Every other day\" (every-other-day): it repeats every 2 days"))
        #expect(result.stdout.contains("refused   \"Hourly\" (hourly): it repeats hourly, more often than daily"))
        #expect(result.stdout.contains("refused   \"Month end\" (day-31): it repeats on day 31, which some of its months lack"))
        #expect(result.stdout.contains("          left out: an alarm after its due time"))
        #expect(result.stderr == "dawnlet-remind: 3 of 6 refused (see above); the rest were imported\n")
        let events = try cli("event", "list").stdout
        #expect(events.contains("#1  Last day  (monthly on day 31 from 2026-12-31 until 2027-02-28 at 18:00)"))
        #expect(events.contains("#2  Book club  (monthly on 2nd tue from 2026-12-08)"))
        #expect(try cli("event", "show", "2").stdout.contains("tags: reading-group, home"))
        // The EXDATE's Tuesday skipped, the next month's open.
        #expect(try cli("agenda", "--from", "2027-01-12", "--days", "1").stdout.contains("[-] event #2  Book club  (skipped)"))
        #expect(try cli("agenda", "--from", "2027-02-09", "--days", "1").stdout.contains("[ ] event #2  Book club\n"))
        let pills = try cli("todo", "show", "1").stdout
        #expect(pills.contains("Take the pills, morning") && pills.contains("due: 2026-12-07 09:00") && pills.contains("reminders: 15m, 1d"))
        #expect(pills.contains("priority: high (2)") && pills.contains("link: https://example.org/pills") && pills.contains("    With water."))
    }

    @Test("todo.txt with every mark: done, priority, dates, +project and @context as tags, due:, id:; again unchanged; a line edited by its id: updated")
    func todoTxt() throws {
        let path = Self.fixtures.appendingPathComponent("todo.txt").path
        #expect(tally(try cli("import", path, "--from", "todo.txt")) == "imported \(path): 5 new, 0 updated, 0 unchanged, 0 refused, 0 skipped")
        let list = try cli("todo", "list").stdout
        #expect(list.contains("#1  Call mum  due 2026-12-07  [open]"))
        #expect(list.contains("#2  Return library books  [done]"))
        #expect(list.contains("#5  Pay the invoice  due 2026-12-02  [done]"))
        let mum = try cli("todo", "show", "1").stdout
        #expect(mum.contains("priority: high (1)") && mum.contains("tags: family, phone"))
        #expect(try cli("todo", "show", "2").stdout.contains("priority: high (2)"))
        #expect(tally(try cli("import", path, "--from", "todo.txt")) == "imported \(path): 0 new, 0 updated, 5 unchanged, 0 refused, 0 skipped")
        let copy = try write(
            "Water the garden plants id:plants due:2026-12-08\nx 2026-12-04 (A) 2026-12-01 Call mum +family @phone due:2026-12-07\n", "todo.txt")
        let json = try cli("import", copy, "--from", "todo.txt", "--json").stdout
        #expect(json.contains("{\"outcome\":\"updated\",\"kind\":\"todo\",\"id\":3,\"source_id\":\"id:plants\",\"title\":\"Water the garden plants\""))
        #expect(json.contains("{\"outcome\":\"updated\",\"kind\":\"todo\",\"id\":1,"))
        let after = try cli("todo", "list").stdout
        #expect(after.contains("#3  Water the garden plants  due 2026-12-08  [open]") && after.contains("#1  Call mum  due 2026-12-07  [done]"))
    }

    @Test("bad input: a missing file, no iCalendar, no JSON, a huge line, a wrong --from: one line, the right code, no database made")
    func badInput() throws {
        CLIProcess.expectFailure(try cli("import", folder.path("nothing.ics"), expect: 66), status: 66, mentioning: ["no such file"])
        let text = try write("just some words\n", "words.txt")
        CLIProcess.expectFailure(try cli("import", text, expect: 65), status: 65, mentioning: ["no BEGIN:VCALENDAR", "nothing imported"])
        CLIProcess.expectFailure(try cli("import", text, "--from", "taskwarrior", expect: 65), status: 65, mentioning: ["not JSON", "nothing imported"])
        let object = try write("{\"uuid\": \"a\"}", "object.json")
        CLIProcess.expectFailure(try cli("import", object, "--from", "taskwarrior", expect: 65), status: 65, mentioning: ["not a list of tasks"])
        let huge = try write("BEGIN:VCALENDAR\nSUMMARY:" + String(repeating: "a", count: 70_000) + "\nEND:VCALENDAR\n", "huge.ics")
        CLIProcess.expectFailure(try cli("import", huge, expect: 65), status: 65, mentioning: ["line 2 is longer than 64 KiB"])
        let binary = folder.path("binary.txt")
        try Data([0x41, 0x00, 0xFF, 0x0A]).write(to: URL(fileURLWithPath: binary))
        CLIProcess.expectFailure(try cli("import", binary, "--from", "todo.txt", expect: 65), status: 65, mentioning: ["not UTF-8 text"])
        CLIProcess.expectFailure(try cli("import", text, "--from", "csv", expect: 2), status: 2, mentioning: ["--from \"csv\""])
        #expect(!FileManager.default.fileExists(atPath: db))
    }
}
