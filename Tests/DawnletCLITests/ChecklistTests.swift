import DawnletTestSupport
import Foundation
import Testing

/// A todo's checklist: added, checked by number or text, shown, counted in agenda and in the
/// reminder's body, reset on a repeating todo's next occurrence, exported as subtasks, and refused
/// where it does not belong.
@Suite struct ChecklistTests {
    let folder: TemporaryFolder
    let db: String

    init() throws {
        folder = try TemporaryFolder()
        db = folder.path("d.sqlite")
    }

    /// The binary at `now` (UTC).
    @discardableResult
    func cli(_ now: String, _ arguments: String..., expect status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        let result = try CLIProcess.run(["--db", db, "--tz", "UTC", "--now", now] + arguments)
        #expect(result.status == status, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result
    }

    @Test("a weekly todo's checklist: checked by number and by text on the next occurrence, shown, counted; the occurrence after starts unchecked")
    func weeklyResets() throws {
        // Tuesday 2026-12-01; the todo is on Mondays.
        let tuesday = "2026-12-01T10:00:00Z"
        try cli(tuesday, "todo", "add", "Pack", "--every", "weekly on mon at 09:00", "--check", "passport", "--check", "charger", "--check", "socks")
        let checked = try cli(tuesday, "todo", "check", "1", "2")
        #expect(checked.stdout == "todo 1 on 2026-12-07: [x] 2 charger  (1 of 3 done)\n")
        #expect(checked.stderr.contains("2026-12-07, its next open occurrence"), "\(checked.stderr)")
        try cli(tuesday, "todo", "check", "1", "passport")
        #expect(try cli(tuesday, "todo", "check", "1", "passport").stdout.contains("already checked"))
        #expect(
            try cli(tuesday, "todo", "show", "1").stdout == """
                todo #1  Pack
                  due: weekly on mon from 2026-12-01 at 09:00
                  checklist on 2026-12-07: 2 of 3 done
                    [x] 1  passport
                    [x] 2  charger
                    [ ] 3  socks

                """)
        #expect(
            try cli(tuesday, "todo", "show", "1", "--json").stdout.contains(
                #""checklist":{"occurrence":"2026-12-07","done":2,"total":3,"items":[{"number":1,"text":"passport","checked":true},"#
                    + #"{"number":2,"text":"charger","checked":true},{"number":3,"text":"socks","checked":false}]}"#))
        #expect(try cli(tuesday, "agenda", "--days", "7").stdout.contains("09:00  [ ] todo  #1  Pack  (2 of 3 done)\n"))
        #expect(try cli(tuesday, "agenda", "--days", "7", "--json").stdout.contains(#""checklist":"2 of 3 done""#))
        // Unchecked again, then the next week: its own state, all unchecked.
        #expect(try cli(tuesday, "todo", "uncheck", "1", "2").stdout == "todo 1 on 2026-12-07: [ ] 2 charger  (1 of 3 done)\n")
        let nextWeek = "2026-12-08T10:00:00Z"
        #expect(try cli(nextWeek, "todo", "show", "1").stdout.contains("  checklist on 2026-12-14: 0 of 3 done\n    [ ] 1  passport\n"))
        #expect(try cli(nextWeek, "agenda", "--from", "2026-12-07", "--days", "8").stdout.contains("09:00  [ ] todo  #1  Pack  (1 of 3 done)\n"))
        #expect(try cli(nextWeek, "agenda", "--from", "2026-12-14", "--days", "1").stdout.contains("09:00  [ ] todo  #1  Pack  (0 of 3 done)\n"))
        // --on names an occurrence; an entry removed takes its checks with it, the others keep their numbers' order.
        try cli(nextWeek, "todo", "check", "1", "socks", "--on", "2026-12-21")
        #expect(try cli(nextWeek, "todo", "edit", "1", "--no-check", "1", "--check", "keys").stdout.contains(#"checklist entry "passport" removed"#))
        #expect(try cli("2026-12-21T08:00:00Z", "todo", "show", "1").stdout.contains("1 of 3 done\n    [ ] 1  charger\n    [x] 2  socks\n    [ ] 3  keys\n"))
    }

    @Test("a one-off todo has one state; the reminder's body counts it; deleting the todo deletes its checklist")
    func oneOff() throws {
        let now = "2026-12-01T10:00:00Z"
        try cli(now, "todo", "add", "Trip", "--due", "2026-12-03T08:00", "--check", "tickets", "--check", "snacks")
        #expect(try cli(now, "todo", "check", "1", "snacks").stdout == "todo 1: [x] 2 snacks  (1 of 2 done)\n")
        #expect(try cli(now, "todo", "show", "1").stdout.contains("  checklist: 1 of 2 done\n"))
        // The body of its reminder, as `preview` words a digest's lines: a date-only todo's.
        try cli(now, "todo", "add", "Shop", "--due", "2026-12-02", "--check", "milk")
        #expect(try cli(now, "preview", "--days", "2").stdout.contains("· todo: Shop 0 of 1 done"))
        try cli(now, "todo", "delete", "1")
        let left = try python(
            "print(c.execute('SELECT count(*) FROM todo_checklist WHERE todo_id = 1').fetchone()[0], c.execute('SELECT count(*) FROM todo_checklist_checks').fetchone()[0])"
        )
        #expect(left == "0 0")
    }

    /// A Python script run on the database as `c`.
    func python(_ script: String) throws -> String {
        let (status, output) = try runTool(
            "/usr/bin/python3", ["-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1])\n" + script, db], environment: [:])
        #expect(status == 0, "\(output)")
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(
        "bad checklist input is refused with why, and nothing is written",
        arguments: [
            (["todo", "add", "X", "--check", ""], 2, "the checklist entry is empty"),
            (["todo", "add", "X", "--check", String(repeating: "a", count: 201)], 2, "longer than 200"),
            (["todo", "add", "X", "--check", "a", "--check", "a"], 2, "already has the entry"),
            (["todo", "add", "X", "--check", "line\nbreak"], 2, "control character"),
            (["event", "add", "X", "--start", "2026-12-02", "--check", "a"], 2, "an event has none"),
            (["habit", "add", "X", "--days", "daily", "--check=a"], 2, "a habit has none"),
            (["event", "check", "1", "1"], 2, "an event has none"),
        ])
    func refused(_ arguments: [String], _ status: Int32, _ words: String) throws {
        let result = try CLIProcess.run(["--db", db] + arguments)
        CLIProcess.expectFailure(result, status: status, mentioning: [words])
        #expect(!FileManager.default.fileExists(atPath: db), "nothing written")
    }

    @Test("an entry that does not exist, a todo without a checklist, an edit with --on: refused with why")
    func refusedOnATodo() throws {
        let now = "2026-12-01T10:00:00Z"
        try cli(now, "todo", "add", "Pack", "--due", "2026-12-03", "--check", "passport")
        try cli(now, "todo", "add", "Bare")
        CLIProcess.expectFailure(try cli(now, "todo", "check", "1", "2", expect: 65), status: 65, mentioning: ["no checklist entry \"2\"", "1 to 1"])
        CLIProcess.expectFailure(try cli(now, "todo", "check", "1", "0", expect: 65), status: 65, mentioning: ["no checklist entry \"0\""])
        CLIProcess.expectFailure(try cli(now, "todo", "uncheck", "1", "Passport", expect: 65), status: 65, mentioning: ["exact text"])
        CLIProcess.expectFailure(try cli(now, "todo", "check", "2", "1", expect: 65), status: 65, mentioning: ["todo 2 has no checklist"])
        CLIProcess.expectFailure(try cli(now, "todo", "check", "9", "1", expect: 65), status: 65, mentioning: ["no todo with id 9"])
        CLIProcess.expectFailure(try cli(now, "todo", "edit", "1", "--no-check", "5", expect: 65), status: 65, mentioning: ["no checklist entry \"5\""])
        CLIProcess.expectFailure(
            try cli(now, "todo", "edit", "1", "--on", "2026-12-03", "--check", "x", expect: 2), status: 2, mentioning: ["not --check"])
        #expect(try cli(now, "todo", "show", "1").stdout.contains("  checklist: 0 of 1 done\n    [ ] 1  passport\n"), "nothing changed")
    }

    @Test("exported as subtasks: a VTODO a file, RELATED-TO its todo, COMPLETED when checked on the current occurrence; icalendar reads them")
    func exported() throws {
        try Repository.require(Repository.python, "the Python venv with icalendar")
        let now = "2026-12-01T10:00:00Z"
        try cli(now, "todo", "add", "Pack", "--every", "weekly on mon at 09:00", "--check", "passport", "--check", "charger, cable")
        try cli(now, "todo", "check", "1", "2")
        let out = folder.path("out")
        try cli(now, "export", "--to", out)
        let script = """
            import sys, os, json, icalendar
            found = {}
            for name in sorted(os.listdir(sys.argv[1])):
                cal = icalendar.Calendar.from_ical(open(os.path.join(sys.argv[1], name), 'rb').read())
                for todo in cal.walk('VTODO'):
                    related = todo.get('RELATED-TO')
                    found[name] = {'uid': str(todo['UID']), 'summary': str(todo['SUMMARY']), 'status': str(todo.get('STATUS', '')),
                                   'parent': str(related) if related is not None else None,
                                   'reltype': related.params.get('RELTYPE') if related is not None else None,
                                   'completed': todo.decoded('COMPLETED').isoformat() if 'COMPLETED' in todo else None}
            print(json.dumps(found, sort_keys=True))
            """
        let (status, output) = try runTool(Repository.python, ["-c", script, out], environment: ["LANG": "C.UTF-8"])
        #expect(status == 0, "\(output)")
        let files = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: [String: Any]])
        #expect(files.count == 3, "\(files.keys)")
        let parent = try #require(files.first { !$0.key.contains("-item-") }?.value["uid"] as? String)
        let items = files.filter { $0.key.contains("-item-") }.map(\.value).sorted { ($0["summary"] as? String ?? "") > ($1["summary"] as? String ?? "") }
        #expect(items.map { $0["summary"] as? String } == ["passport", "charger, cable"])
        #expect(items.map { $0["parent"] as? String } == [parent, parent])
        #expect(items.map { $0["reltype"] as? String } == ["PARENT", "PARENT"])
        #expect(items.map { $0["status"] as? String } == ["NEEDS-ACTION", "COMPLETED"])
        #expect(items[1]["completed"] as? String == "2026-12-01T10:00:00+00:00")
        #expect(items.allSatisfy { ($0["uid"] as? String)?.hasPrefix(String(parent.prefix { $0 != "@" }) + "-item-") == true })
        // Exported again: the same files, none written; the todo is not mistaken for changed or deleted.
        #expect(try cli(now, "export", "--to", out).stdout.contains("0 files written, 3 unchanged, 0 removed"))
        #expect(try cli(now, "todo", "list").stdout.contains("#1  Pack"))
        // Checked on another device after the todo last changed here (by the real clock, as SQLite
        // stamps changes): applied here on that occurrence.
        let stamp = DateFormatter()
        (stamp.dateFormat, stamp.timeZone, stamp.locale) = ("yyyyMMdd'T'HHmmss'Z'", TimeZone(identifier: "UTC"), Locale(identifier: "en_US_POSIX"))
        let later = stamp.string(from: Date().addingTimeInterval(60))
        let passport = try #require(files.first { $0.value["summary"] as? String == "passport" }?.key)
        let path = out + "/" + passport
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "STATUS:NEEDS-ACTION", with: "STATUS:COMPLETED\r\nLAST-MODIFIED:\(later)")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let again = try cli("2026-12-01T12:00:00Z", "export", "--to", out)
        #expect(again.stderr.contains(#"checklist entry "passport" checked on another device"#), "\(again.stderr)")
        #expect(try cli("2026-12-01T12:00:00Z", "todo", "show", "1").stdout.contains("2 of 2 done"))
        // An entry removed here: its file goes; the todo deleted: all of them.
        try cli(now, "todo", "edit", "1", "--no-check", "1")
        #expect(try cli(now, "export", "--to", out).stdout.contains("1 removed"))
        #expect(!FileManager.default.fileExists(atPath: path))
        try cli(now, "todo", "delete", "1")
        try cli(now, "export", "--to", out)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)
    }
}

extension ServeTests {
    @Test("a todo's reminder counts its checklist: 'Todo due at 08:00: 1 of 2 done'")
    func checklistCounted() throws {
        let script = "import sys; open(sys.argv[1],'a').write('%s %r\\\\n' % (sys.argv[2], sys.argv[3]))"
        try """
        { timeZone: "UTC", graceWindow: "12h", reminders: { todo: ["0m"] }, route: { default: ["command"] },
          channels: { command: { argv: ["/usr/bin/env", "python3", "-c", "\(script)", "\(fired)", "{key}", "{body}"], timeout: "5s" } } }
        """.write(toFile: config, atomically: true, encoding: .utf8)
        try cli("--now", "2026-11-30T12:00", "todo", "add", "Pack", "--due", "2026-12-01T08:00", "--check", "passport", "--check", "charger")
        try cli("--now", "2026-11-30T12:00", "todo", "check", "1", "charger")
        let server = try Server(db: db, config: config, start: "2026-12-01 07:59:58")
        let got = waitForLines(1, seconds: 15)
        let (status, log) = try server.stop()
        #expect(status == 0)
        #expect(got == ["todo:1:2026-12-01:0m 'Todo due at 08:00: 1 of 2 done'"], "\(got)\n\(log)")
    }
}
