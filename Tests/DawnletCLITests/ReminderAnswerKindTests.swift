import DawnletTestSupport
import Foundation
import Testing

/// `reminder VERB` speaks per kind: without KEY each verb takes the newest reminder waiting that it
/// fits, and an answer that does not fit says what the reminder is and which answers it takes.
/// The reminders are made to have gone out by writing the delivery log, as `serve` writes it.
@Suite struct ReminderAnswerKindTests {
    let workspace: Workspace

    init() throws {
        workspace = try Workspace()
        try cli(["todo", "add", "Call mum", "--due", "2026-12-01T09:00"], at: "2026-12-01T07:00")
        try cli(["event", "add", "Dentist", "--start", "2026-12-01T10:00"], at: "2026-12-01T07:00")
        try cli(["money", "add", "Rent", "--amount", "-950", "--every", "monthly on day 1"], at: "2026-12-01T07:00")
    }

    /// The binary at `now` (UTC; 10:00, after each reminder went out, unless told).
    @discardableResult
    func cli(_ arguments: [String], at now: String = "2026-12-01T10:00", expect status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> CLIResult
    {
        try workspace.cli(["--now", now] + arguments, expect: status, sourceLocation: sourceLocation)
    }

    /// Rows of the delivery log: each reminder delivered on the desktop at its instant (UTC).
    func delivered(_ reminders: [(key: String, kind: String, title: String, at: String)]) throws {
        let rows = reminders.map { "\($0.key)|\($0.kind)|\($0.title)|\($0.at)" }
        let script = """
            import sqlite3, sys, datetime
            c = sqlite3.connect(sys.argv[1])
            for row in sys.argv[2:]:
                key, kind, title, at = row.split("|")
                t = int(datetime.datetime.fromisoformat(at + "+00:00").timestamp())
                c.execute("INSERT INTO deliveries (key, channel, state, kind, title, fire_at, claimed_at, finished_at) VALUES (?, 'desktop', 'delivered', ?, ?, ?, ?, ?)", (key, kind, title, t, t, t + 1))
            c.commit()
            """
        let (status, text) = try runTool("/usr/bin/python3", ["-c", script, workspace.db] + rows, environment: [:])
        #expect(status == 0, "\(text)")
    }

    /// The day's status of the item of `kind` titled `title`, as `today --json` says it.
    func status(_ kind: String, _ title: String) throws -> String? {
        let day = try #require(
            try JSONSerialization.jsonObject(with: Data(try cli(["today", "--json"]).stdout.utf8)) as? [String: Any])
        let items = try #require(day["items"] as? [[String: Any]])
        return items.first { $0["kind"] as? String == kind && $0["title"] as? String == title }?["status"] as? String
    }

    @Test(
        "without KEY, each verb takes the newest reminder waiting that it fits: done a todo's under a newer event's, paid the bill's; nothing is said done that was not"
    )
    func implicitPerVerb() throws {
        try delivered([
            ("bill:1:2026-12-01:0m", "bill", "Rent", "2026-12-01T08:00"),
            ("todo:1:2026-12-01:0m", "todo", "Call mum", "2026-12-01T09:00"),
            ("event:1:2026-12-01:10m", "event", "Dentist", "2026-12-01T09:50"),
        ])
        let done = try cli(["reminder", "done"])
        #expect(done.stdout == "done: todo:1:2026-12-01:0m\n")
        #expect(done.stderr == "done: todo:1:2026-12-01:0m \"Call mum\"\n")
        #expect(try status("todo", "Call mum") == "done")

        let paid = try cli(["reminder", "paid"])
        #expect(paid.stdout == "paid bill 1 on 2026-12-01: bill:1:2026-12-01:0m\n", "the bill's, under the newer event's")
        #expect(paid.stderr == "paid: bill:1:2026-12-01:0m \"Rent\"\n")

        // Only the event's waits: nothing to be done, and nothing said done.
        let none = try cli(["reminder", "done"], expect: 65)
        #expect(none.stdout.isEmpty)
        #expect(
            none.stderr
                == "dawnlet-remind: the one reminder waiting cannot be done (an event's reminder takes skip, snooze or dismiss); see reminder list\n")
        let log = try cli(["reminder", "log"], expect: 65)
        #expect(log.stderr.contains("cannot be logged") && !log.stderr.contains("logged:"), "\(log.stderr)")
        #expect(try status("event", "Dentist") == "open")

        let skipped = try cli(["reminder", "skip"])
        #expect(skipped.stdout == "skipped: event:1:2026-12-01:10m\n")
        #expect(try status("event", "Dentist") == "skipped")
        let after = try cli(["reminder", "done"], expect: 65)
        #expect(after.stderr == "dawnlet-remind: no reminder is waiting for an answer (reminder list)\n")
    }

    @Test("without KEY, snooze takes the newest reminder but a digest, dismiss the newest of all; with none it fits, one line and exit 65")
    func implicitSnoozeAndDismiss() throws {
        try delivered([
            ("todo:1:2026-12-01:0m", "todo", "Call mum", "2026-12-01T08:30"),
            ("digest:2026-12-01", "digest", "Tuesday 2026-12-01: 1 item", "2026-12-01T09:00"),
        ])
        let paid = try cli(["reminder", "paid"], expect: 65)
        #expect(paid.stdout.isEmpty)
        #expect(
            paid.stderr
                == "dawnlet-remind: none of the 2 reminders waiting can be paid (a morning digest takes dismiss; a todo's reminder takes done, skip, snooze or dismiss); see reminder list\n"
        )
        let snoozed = try cli(["reminder", "snooze", "--for", "1h"])
        #expect(snoozed.stdout == "snoozed until 2026-12-01T11:00:00+00:00: todo:1:2026-12-01:0m\n", "the todo's, under the newer digest's")
        #expect(snoozed.stderr == "snooze: todo:1:2026-12-01:0m \"Call mum\"\n")
        let none = try cli(["reminder", "snooze", "--for", "1h"], expect: 65)
        #expect(none.stdout.isEmpty)
        #expect(none.stderr == "dawnlet-remind: the one reminder waiting cannot be snoozed (a morning digest takes dismiss); see reminder list\n")
        let dismissed = try cli(["reminder", "dismiss"])
        #expect(dismissed.stdout == "dismissed: digest:2026-12-01\n")
        #expect(dismissed.stderr == "dismiss: digest:2026-12-01 \"Tuesday 2026-12-01: 1 item\"\n")
        let after = try cli(["reminder", "dismiss"], expect: 65)
        #expect(after.stdout.isEmpty && after.stderr == "dawnlet-remind: no reminder is waiting for an answer (reminder list)\n")
    }

    @Test("an answer that does not fit says what the reminder is and the answers it takes, per kind, with its article")
    func refusalPerKind() throws {
        try cli(["income", "add", "Salary", "--amount", "2500", "--every", "monthly on day 1"], at: "2026-12-01T07:00")
        try delivered([
            ("digest:2026-12-01", "digest", "Tuesday 2026-12-01: 2 items", "2026-12-01T08:00"),
            ("bill:1:2026-12-01:0m", "bill", "Rent", "2026-12-01T08:00"),
            ("income:1:2026-12-01:0m", "income", "Salary", "2026-12-01T08:00"),
            ("todo:1:2026-12-01:0m", "todo", "Call mum", "2026-12-01T09:00"),
            ("event:1:2026-12-01:10m", "event", "Dentist", "2026-12-01T09:50"),
        ])
        let cases: [(verb: String, key: String, message: String)] = [
            (
                "paid", "todo:1:2026-12-01:0m",
                "todo:1:2026-12-01:0m is a todo's reminder, which is not paid: answer it with reminder done, skip, snooze or dismiss"
            ),
            (
                "log", "todo:1:2026-12-01:0m",
                "todo:1:2026-12-01:0m is a todo's reminder, which is not logged: answer it with reminder done, skip, snooze or dismiss"
            ),
            (
                "done", "event:1:2026-12-01:10m",
                "event:1:2026-12-01:10m is an event's reminder, which is not done: answer it with reminder skip, snooze or dismiss"
            ),
            (
                "paid", "event:1:2026-12-01:10m",
                "event:1:2026-12-01:10m is an event's reminder, which is not paid: answer it with reminder skip, snooze or dismiss"
            ),
            (
                "done", "bill:1:2026-12-01:0m",
                "bill:1:2026-12-01:0m is a bill's reminder, which is not done: answer it with reminder paid, skip, snooze or dismiss"
            ),
            (
                "log", "bill:1:2026-12-01:0m",
                "bill:1:2026-12-01:0m is a bill's reminder, which is not logged: answer it with reminder paid, skip, snooze or dismiss"
            ),
            (
                "skip", "income:1:2026-12-01:0m",
                "income:1:2026-12-01:0m is an income's reminder, which is not skipped: answer it with reminder snooze or dismiss"
            ),
            (
                "paid", "digest:2026-12-01",
                "digest:2026-12-01 is a morning digest, which is not paid: answer it with reminder dismiss; its items are answered on their own reminders, or with their own commands"
            ),
        ]
        for (verb, key, message) in cases {
            let refused = try cli(["reminder", verb, key], expect: 65)
            #expect(refused.stdout.isEmpty)
            #expect(refused.stderr == "dawnlet-remind: \(message)\n", "\(verb) \(key)")
        }
        let snooze = try cli(["reminder", "snooze", "digest:2026-12-01", "--for", "1h"], expect: 65)
        #expect(snooze.stderr.contains("is a morning digest, which is not snoozed: answer it with reminder dismiss"), "\(snooze.stderr)")
        // Refused, each stays as it was, waiting.
        #expect(try status("todo", "Call mum") == "open" && status("event", "Dentist") == "open")
        let waiting = try cli(["reminder", "list"]).stdout
        #expect(waiting.split(separator: "\n").count == 5, "\(waiting)")
    }
}
