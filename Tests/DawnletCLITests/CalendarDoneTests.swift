import DawnletTestSupport
import Foundation
import Testing

/// Done on a calendar todo's reminder is done everywhere: written into its writable calendar as
/// Thunderbird and Tasks.org write it, so its owner and every other device read it as completed.
@Suite struct CalendarDoneTests {
    let workspace: Workspace
    let vdir: String
    let config: String

    init() throws {
        var workspace = try Workspace()
        vdir = workspace.folder.path("tasks")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        config = workspace.folder.path("config.json5")
        try "{ timeZone: \"UTC\", calendars: [ { name: \"tasks\", path: \"\(vdir)\", readOnly: false } ] }"
            .write(toFile: config, atomically: true, encoding: .utf8)
        workspace.globals = ["--config", config, "--now", "2026-12-01T13:00Z"]
        self.workspace = workspace
    }

    @discardableResult
    func cli(_ arguments: String..., expect status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        try workspace.cli(arguments, expect: status, sourceLocation: sourceLocation)
    }

    /// A todo of the calendar, due at 13:00 with an alarm at 12:50, whose reminder went out then, as
    /// serve records it (unless not `delivered`); `rule` makes it repeat. Its key and file.
    func deliveredTodo(_ uid: String, rule: String? = nil, delivered: Bool = true) throws -> (key: String, file: String) {
        let file = "\(vdir)/\(uid).ics"
        try """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tasks.org//android//EN\r\n\
        BEGIN:VTODO\r\nUID:\(uid)\r\nSUMMARY:Call the plumber\r\nDTSTART:20261201T130000Z\r\nDUE:20261201T130000Z\r\n\
        \(rule.map { "RRULE:\($0)\r\n" } ?? "")STATUS:NEEDS-ACTION\r\nX-APPLE-SORT-ORDER:7\r\n\
        BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT10M\r\nDESCRIPTION:x\r\nEND:VALARM\r\nEND:VTODO\r\n\
        END:VCALENDAR\r\n
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let instance = rule == nil ? "" : ":20261201T130000Z"
        let key = "ics:tasks:\(uid)\(instance):alarm:2026-12-01T12:50:00"
        let script =
            "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"INSERT INTO deliveries (key, channel, state, kind, title, fire_at, claimed_at, finished_at) VALUES (?, 'desktop', 'delivered', 'calendar', 'Call the plumber', 1796129400, 1796129400, 1796129401)\", (sys.argv[2],)); c.commit()"
        try cli("todo", "add", "placeholder")
        guard delivered else { return (key, file) }
        let (status, text) = try runTool("/usr/bin/python3", ["-c", script, workspace.db, key], environment: [:])
        #expect(status == 0, "\(text)")
        return (key, file)
    }

    @Test(
        "reminder done on a calendar todo writes STATUS:COMPLETED, COMPLETED and PERCENT-COMPLETE:100 into its file; no plan has it since, here or on another device"
    )
    func doneCompletes() throws {
        let (key, file) = try deliveredTodo("plumber@example.org")
        // Another device's plan of the same file (a database of its own), before its alarm.
        let other = workspace.folder.path("other.sqlite")
        try CLIProcess.createDatabase(other)
        func plannedElsewhere() throws -> Bool {
            let preview = try CLIProcess.run(["--db", other, "--config", config, "--now", "2026-12-01T12:00Z", "preview", "--json", "--days", "1"])
            return preview.stdout.contains("plumber@example.org")
        }
        #expect(try plannedElsewhere())
        let done = try cli("reminder", "done", key)
        #expect(done.stdout == "completed in \(file): \(key)\n", "\(done.stdout)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        for line in ["STATUS:COMPLETED", "COMPLETED:20261201T130000Z", "PERCENT-COMPLETE:100", "X-APPLE-SORT-ORDER:7", "SUMMARY:Call the plumber"] {
            #expect(text.contains("\r\n\(line)\r\n"), "\(line): \(text)")
        }
        #expect(!text.contains("NEEDS-ACTION"), "\(text)")
        #expect(try !plannedElsewhere(), "completed: no device plans it")
    }

    @Test("reminder done on an instance of a repeating calendar todo completes that instance (its override), and no other")
    func repeatingInstance() throws {
        let (key, file) = try deliveredTodo("pills@example.org", rule: "FREQ=DAILY")
        let done = try cli("reminder", "done", key)
        #expect(done.stdout == "completed in \(file): \(key)\n", "\(done.stdout)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("\r\nRECURRENCE-ID:20261201T130000Z\r\n") && text.components(separatedBy: "STATUS:COMPLETED").count == 2, "\(text)")
        let other = workspace.folder.path("other.sqlite")
        try CLIProcess.createDatabase(other)
        let preview = try CLIProcess.run(["--db", other, "--config", config, "--now", "2026-12-01T12:00Z", "preview", "--json", "--days", "2"]).stdout
        #expect(!preview.contains("pills@example.org:20261201T130000Z"), "\(preview)")
        #expect(preview.contains("pills@example.org:20261202T130000Z"), "the next one still reminds: \(preview)")
    }

    @Test(
        "another machine's todo answered here before any reminder of it went out: Done completes it in its calendar all the same; a read-only calendar's is refused, saying why"
    )
    func unsentDone() throws {
        let (key, file) = try deliveredTodo("later@example.org", delivered: false)
        #expect(try cli("reminder", "list").stdout == "nothing waiting for an answer\n")
        let done = try cli("--now", "2026-12-01T11:00Z", "reminder", "done", key)
        #expect(done.stdout == "completed in \(file): \(key)\n", "\(done.stdout)")
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("\r\nSTATUS:COMPLETED\r\n"))

        try "{ timeZone: \"UTC\", calendars: [ { name: \"tasks\", path: \"\(vdir)\" } ] }".write(toFile: config, atomically: true, encoding: .utf8)
        let (other, _) = try deliveredTodo("other@example.org", delivered: false)
        let refused = try cli("--now", "2026-12-01T11:00Z", "reminder", "done", other, expect: 65)
        #expect(
            refused.stderr == "dawnlet-remind: no reminder \(other) went out here, and calendar tasks is read-only: nothing to answer it in\n",
            "\(refused.stderr)")
    }
}

extension CalendarDoneTests {
    @Test(
        "a calendar's todos in the terminal: todo list lists them with their calendar and key, the completions offer the key, and reminder done|skip by that key closes each in its file — a repeating one's instance only"
    )
    func itemKeys() throws {
        // A single todo due at 13:00 (now) and a daily one; no reminder of either went out here.
        let (_, single) = try deliveredTodo("plumber@example.org", delivered: false)
        let (_, daily) = try deliveredTodo("pills@example.org", rule: "FREQ=DAILY", delivered: false)
        let list = try cli("--now", "2026-12-01T13:30Z", "--color", "never", "todo", "list").stdout
        #expect(
            list.contains("calendar tasks  Call the plumber  due 2026-12-01 13:00  [overdue]  (ics:tasks:plumber@example.org)\n")
                && list.contains("calendar tasks  Call the plumber  due 2026-12-01 13:00  [overdue]  (ics:tasks:pills@example.org:20261201T130000Z)\n"),
            "\(list)")
        let json = try cli("--now", "2026-12-01T13:30Z", "todo", "list", "--json").stdout
        #expect(
            json.contains("\"calendar_todos\":[")
                && json.contains("{\"calendar\":\"tasks\",\"uid\":\"plumber@example.org\",\"key\":\"ics:tasks:plumber@example.org\""), "\(json)")
        #expect(try cli("todo", "list", "--done").stdout.contains("calendar tasks") == false, "a calendar todo listed is never done")
        let offered = try cli("completions", "ids", "reminder").stdout
        #expect(
            offered.contains("ics:tasks:plumber@example.org\tCall the plumber\n") && offered.contains("ics:tasks:pills@example.org:20261201T130000Z\t"),
            "\(offered)")

        // bash breaks a UID at @: its script puts the key back together and completes what follows.
        let typed = ["--db", workspace.db, "--config", config, "reminder", "done", "ics", ":", "tasks", ":", "pills", "@", "ex"]
        let completed = try CompletionsTests.bash(typed, scripts: try TemporaryFolder())
        #expect(completed.count == 1 && completed[0].hasPrefix("example.org:2026"), "\(completed)")

        let done = try cli("--now", "2026-12-01T13:30Z", "reminder", "done", "ics:tasks:plumber@example.org")
        #expect(done.stdout == "completed in \(single): ics:tasks:plumber@example.org\n", "\(done.stdout)")
        // The daily one by its key without an instance: today's occurrence, skipped (cancelled there).
        let skipped = try cli("--now", "2026-12-01T13:30Z", "reminder", "skip", "ics:tasks:pills@example.org")
        #expect(skipped.stdout == "skipped (cancelled there) in \(daily): ics:tasks:pills@example.org\n", "\(skipped.stdout)")
        let text = try String(contentsOfFile: daily, encoding: .utf8)
        #expect(text.contains("\r\nRECURRENCE-ID:20261201T130000Z\r\n") && text.components(separatedBy: "STATUS:CANCELLED").count == 2, "\(text)")
        let after = try cli("--now", "2026-12-01T13:30Z", "--color", "never", "todo", "list").stdout
        #expect(!after.contains("plumber@example.org") && after.contains("(ics:tasks:pills@example.org:20261202T130000Z)"), "\(after)")

        let unknown = try cli("reminder", "done", "ics:tasks:nobody", expect: 2)
        #expect(unknown.stderr.contains("\"ics:tasks:nobody\" is neither a reminder key nor a calendar item's"), "\(unknown.stderr)")
    }
}
