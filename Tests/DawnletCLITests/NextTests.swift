import DawnletTestSupport
import Foundation
import Testing

/// `next`: the next reminder, how long until it, and what needs looking at, as text,
/// JSON and waybar's `{"text","tooltip","class"}`.
@Suite struct NextTests {
    let workspace: Workspace
    init() throws { workspace = try Workspace() }

    func next(at now: String, _ arguments: String...) throws -> CLIResult {
        try workspace.cli(["--tz", "Europe/Berlin", "--now", now, "next"] + arguments)
    }

    func json(_ result: CLIResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
    }

    @Test("nothing due; then a todo: when, what, in how long; soon; late; counts of overdue, missed and failed; waybar's markup escaped")
    func next() throws {
        try CLIProcess.createDatabase(workspace.db)
        #expect(try next(at: "2026-12-01T10:00").stdout == "nothing to remind of in the next 366 days\n")
        let idle = try json(try next(at: "2026-12-01T10:00", "--json"))
        #expect(idle["next"] is NSNull && idle["in_seconds"] is NSNull && idle["overdue"] as? Int == 0)
        #expect(try json(try next(at: "2026-12-01T10:00", "--format", "waybar"))["class"] as? String == "idle")

        try workspace.cli(["todo", "add", "Call <mum> & dad", "--due", "2026-12-01T12:05", "--tz", "Europe/Berlin"])
        try workspace.cli(["todo", "add", "Later", "--due", "2026-12-03T09:00", "--tz", "Europe/Berlin"])
        #expect(try next(at: "2026-12-01T10:00").stdout == "Tue 2026-12-01 12:05  todo #2  Call <mum> & dad  (in 2 h 5 min)\n")
        let answer = try json(try next(at: "2026-12-01T10:00", "--json"))
        let first = try #require(answer["next"] as? [String: Any])
        #expect(first["key"] as? String == "todo:2:2026-12-01:0m" && first["status"] as? String == "pending", "\(first)")
        #expect(answer["in_seconds"] as? Int == 7_500)
        let bar = try json(try next(at: "2026-12-01T10:00", "--format", "waybar"))
        #expect(bar["text"] as? String == "12:05 Call &lt;mum&gt; &amp; dad")
        #expect(bar["tooltip"] as? String == "Tue 2026-12-01 12:05  todo #2  Call &lt;mum&gt; &amp; dad  (in 2 h 5 min)")
        #expect(bar["class"] as? String == "pending")
        #expect(try json(try next(at: "2026-12-01T11:55", "--format", "waybar"))["class"] as? String == "soon")
        // Not sent while nothing ran: at 14:00 it goes out late, and is still the next; the todo
        // itself is overdue since 12:05.
        #expect(
            try next(at: "2026-12-01T14:00").stdout == "Tue 2026-12-01 12:05  todo #2  Call <mum> & dad  (now, 1 h 55 min late)\n1 overdue\n")
        // Past the grace window (12 h) it is missed, not next: the next is the morning digest that
        // lists it overdue, late itself.
        #expect(try next(at: "2026-12-02T10:00").stdout.hasPrefix("Wed 2026-12-02 08:00  digest  Wednesday 2026-12-02: 1 item  (now, 2 h late)\n"))

        // A one-off past its day and not done is overdue; the log's missed and failed are counted.
        let script = """
            import sqlite3,sys; c=sqlite3.connect(sys.argv[1])
            for key,state in (("todo:9:2026-11-30:0m","missed"),("todo:9:2026-11-29:0m","missed"),("todo:9:2026-11-28:0m","failed")):
                c.execute("INSERT INTO deliveries (key, channel, state, kind, title, fire_at, claimed_at) VALUES (?, 'desktop', ?, 'todo', 'x', 0, 0)", (key, state))
            c.commit()
            """
        #expect(try runTool("/usr/bin/python3", ["-c", script, workspace.db], environment: [:]).0 == 0)
        let counted = try next(at: "2026-12-02T10:00")
        #expect(counted.stdout.hasSuffix("\n1 overdue, 2 missed, 1 failed\n"), "\(counted.stdout)")
        let counts = try json(try next(at: "2026-12-02T10:00", "--json"))
        #expect(counts["overdue"] as? Int == 1 && counts["missed"] as? Int == 2 && counts["failed"] as? Int == 1)
        let failedBar = try json(try next(at: "2026-12-02T10:00", "--format", "waybar"))
        #expect(failedBar["class"] as? String == "failed")
        #expect(failedBar["text"] as? String == "08:00 Wednesday 2026-12-02: 1 item · 1 overdue, 2 missed, 1 failed")
        // Acknowledged, one by key and then the rest: counted no more.
        try workspace.cli(["missed", "--clear", "todo:9:2026-11-30:0m"])
        #expect(try json(try next(at: "2026-12-02T10:00", "--json"))["missed"] as? Int == 1)
        try workspace.cli(["missed", "--clear"])
        #expect(try json(try next(at: "2026-12-02T10:00", "--json"))["missed"] as? Int == 0)
        #expect(try next(at: "2026-12-02T10:00").stdout.hasSuffix("\n1 overdue, 1 failed\n"))

        CLIProcess.expectFailure(try CLIProcess.run(["--db", workspace.db, "next", "--format", "polybar"]), status: 2, mentioning: ["--format \"polybar\""])
    }
}
