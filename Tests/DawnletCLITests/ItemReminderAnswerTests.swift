import DawnletTestSupport
import Foundation
import Testing

/// An item's own commands answer its reminders as `reminder …` would: `todo done`, `event skip`,
/// `money paid`, `subscription log`, the deletes. The reminders are made to have gone out by
/// writing the delivery log as `serve` writes it (with each row's item id); what each command
/// recorded is read back from it.
@Suite struct ItemReminderAnswerTests {
    let workspace: Workspace

    init() throws {
        workspace = try Workspace()
    }

    /// The binary at `now` (UTC; 10:00, after the reminders went out, unless told).
    @discardableResult
    func cli(_ arguments: [String], at now: String = "2026-12-01T10:00", expect status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> CLIResult
    {
        try workspace.cli(["--now", now] + arguments, expect: status, sourceLocation: sourceLocation)
    }

    /// Rows of the delivery log: each reminder delivered at its instant (UTC) on the desktop and by
    /// email, with an answer already given by a button when one is said (`key|kind|title|at[|answer]`).
    func delivered(_ rows: [String]) throws {
        let script = """
            import sqlite3, sys, datetime
            c = sqlite3.connect(sys.argv[1])
            for row in sys.argv[2:]:
                key, kind, title, at, *response = row.split("|")
                t = int(datetime.datetime.fromisoformat(at + "+00:00").timestamp())
                item = int(key.split(":")[1]) if kind != "digest" else None
                for channel in ("desktop", "email"):
                    answer = (response or [None])[0]
                    c.execute("INSERT INTO deliveries (key, channel, state, kind, title, fire_at, claimed_at, finished_at, item_id, answer, answered_from, response) "
                        "VALUES (?, ?, 'delivered', ?, ?, ?, ?, ?, ?, ?, ?, ?)", (key, channel, kind, title, t, t, t + 1, item, answer, answer and "button", answer))
            c.commit()
            """
        let (status, text) = try runTool("/usr/bin/python3", ["-c", script, workspace.db] + rows, environment: [:])
        #expect(status == 0, "\(text)")
    }

    /// Runs SQL on the database (python's sqlite3; the binary has no such command) and gives its rows as `a|b` lines.
    func sql(_ statement: String) throws -> [String] {
        let script = """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            for row in c.execute(sys.argv[2]): print("|".join("" if v is None else str(v) for v in row))
            c.commit()
            """
        let (status, text) = try runTool("/usr/bin/python3", ["-c", script, workspace.db, statement], environment: [:])
        #expect(status == 0, "\(text)")
        return text.split(separator: "\n").map(String.init)
    }

    /// Each reminder's response on the desktop and by email, as `key: desktop, email`.
    func responses() throws -> [String: String] {
        var found: [String: [String]] = [:]
        for line in try sql("SELECT key, response FROM deliveries ORDER BY key, channel") {
            let parts = line.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
            found[String(parts[0]), default: []].append(parts.count > 1 ? String(parts[1]) : "")
        }
        return found.mapValues { $0.joined(separator: ", ") }
    }

    /// The keys `reminder list --json` says wait, newest first.
    func waiting(at now: String = "2026-12-01T10:00") throws -> [String] {
        let root = try #require(try JSONSerialization.jsonObject(with: Data(try cli(["reminder", "list", "--json"], at: now).stdout.utf8)) as? [String: Any])
        return (root["waiting"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String }
    }

    @Test(
        "todo done, habit done and event skip answer that occurrence's reminders on every channel, as reminder done would; another occurrence and an answer given already stay; reopen takes it back"
    )
    func occurrences() throws {
        try cli(["todo", "add", "Call mum", "--due", "2026-12-01T09:00"], at: "2026-11-29T07:00")
        try cli(["todo", "add", "Water", "--every", "daily at 09:30"], at: "2026-11-29T07:00")
        try cli(["habit", "add", "Run", "--days", "daily", "--at", "07:30"], at: "2026-11-29T07:00")
        try cli(["event", "add", "Standup", "--start", "2026-12-01T09:45"], at: "2026-11-29T07:00")
        try cli(["todo", "add", "Tax", "--due", "2026-12-01T08:00"], at: "2026-11-29T07:00")
        try delivered([
            "todo:2:2026-11-30:0m|todo|Water|2026-11-30T09:30", "habit:1:2026-12-01:0m|habit|Run|2026-12-01T07:30",
            "todo:3:2026-12-01:0m|todo|Tax|2026-12-01T08:00|dismissed", "todo:1:2026-12-01:0m|todo|Call mum|2026-12-01T09:00",
            "todo:2:2026-12-01:0m|todo|Water|2026-12-01T09:30", "event:1:2026-12-01:10m|event|Standup|2026-12-01T09:35",
        ])
        #expect(try waiting().count == 5)

        let done = try cli(["todo", "done", "1"])
        #expect(done.stdout == "todo 1 on 2026-12-01: done\n")
        #expect(done.stderr == "todo 1 on 2026-12-01 done: reminder todo:1:2026-12-01:0m answered\n")
        #expect(try responses()["todo:1:2026-12-01:0m"] == "done, done", "every channel")
        // A repeating todo: today's occurrence, not yesterday's.
        try cli(["todo", "done", "2"])
        try cli(["habit", "done", "1"])
        let skipped = try cli(["event", "skip", "1"])
        #expect(skipped.stderr == "event 1 on 2026-12-01 skipped: reminder event:1:2026-12-01:10m answered\n")
        let answered = try responses()
        #expect(answered["todo:2:2026-12-01:0m"] == "done, done" && answered["todo:2:2026-11-30:0m"] == ", ")
        #expect(answered["habit:1:2026-12-01:0m"] == "done, done" && answered["event:1:2026-12-01:10m"] == "skipped, skipped")
        #expect(try waiting() == ["todo:2:2026-11-30:0m"])

        // Answered already (dismissed on the desktop): that answer stays, and nothing is said.
        let tax = try cli(["todo", "done", "3"])
        #expect(tax.stderr.isEmpty, "\(tax.stderr)")
        #expect(try responses()["todo:3:2026-12-01:0m"] == "dismissed, dismissed")
        // Asked twice: nothing more to answer.
        #expect(try cli(["todo", "done", "1"]).stderr.isEmpty)

        let reopened = try cli(["todo", "reopen", "1"])
        #expect(reopened.stdout == "todo 1 on 2026-12-01: open again\n")
        #expect(reopened.stderr == "todo 1 on 2026-12-01 open again: reminder todo:1:2026-12-01:0m waits again\n")
        #expect(try waiting() == ["todo:1:2026-12-01:0m", "todo:2:2026-11-30:0m"])
        // What the person answered is not taken back by an undo of another answer.
        try cli(["event", "unskip", "1"])
        #expect(try waiting() == ["event:1:2026-12-01:10m", "todo:1:2026-12-01:0m", "todo:2:2026-11-30:0m"])
        try cli(["todo", "reopen", "3"])
        #expect(try responses()["todo:3:2026-12-01:0m"] == "dismissed, dismissed")
    }

    @Test(
        "a deleted item's reminders stop waiting, answered as deleted (a snooze called off): todo, bill and subscription; reminder done then says nothing waits, not that the todo is gone"
    )
    func deletes() throws {
        try cli(["todo", "add", "Call mum", "--due", "2026-12-01T09:00"], at: "2026-11-29T07:00")
        try cli(["money", "add", "Rent", "--amount", "-950", "--every", "monthly on day 1"], at: "2026-11-29T07:00")
        try cli(["subscription", "add", "Stream", "--amount", "-12.99", "--every", "monthly on day 1"], at: "2026-11-29T07:00")
        try delivered([
            "bill:1:2026-12-01:0m|bill|Rent|2026-12-01T08:00", "subscription:1:2026-12-01:0m|subscription|Stream|2026-12-01T08:00",
            "todo:1:2026-12-01:0m|todo|Call mum|2026-12-01T09:00",
        ])
        _ = try sql(
            "UPDATE deliveries SET snoozed_until = 1796122800, answer = 'snoozed:1796122800', answered_from = 'button', response = 'snoozed until 2026-12-01T11:00:00Z' WHERE key LIKE 'todo:%'"
        )
        #expect(try cli(["reminder", "list", "--snoozed"]).stdout.contains("todo:1:2026-12-01:0m"))

        let deleted = try cli(["todo", "delete", "1"])
        #expect(deleted.stdout == "todo 1 deleted\n")
        #expect(deleted.stderr == "todo 1 deleted: reminder todo:1:2026-12-01:0m answered\n")
        #expect(
            try sql("SELECT DISTINCT answer, answered_from, response, snoozed_until FROM deliveries WHERE key LIKE 'todo:%'")
                == ["deleted|item-command|its item was deleted|"])
        #expect(try cli(["reminder", "list", "--snoozed"]).stdout == "nothing snoozed\n")
        try cli(["money", "delete", "1"])
        try cli(["subscription", "delete", "1"])
        let answered = try responses()
        let gone = "its item was deleted, its item was deleted"
        #expect(answered["bill:1:2026-12-01:0m"] == gone && answered["subscription:1:2026-12-01:0m"] == gone)
        #expect(try cli(["reminder", "list"]).stdout == "nothing waiting for an answer\n")
        let none = try cli(["reminder", "done"], expect: 65)
        #expect(none.stderr == "dawnlet-remind: no reminder is waiting for an answer (reminder list)\n")
    }

    @Test(
        "money paid without --on pays the occurrence due most recently and answers the digest that listed it; paid twice, skipped, not an occurrence, no such bill are refused; money unpaid takes it back"
    )
    func paidAndUnpaid() throws {
        try cli(["money", "add", "Rent", "--amount", "-950", "--every", "monthly on day 1"], at: "2026-11-01T07:00")
        try cli(["money", "add", "Gym", "--amount", "-30", "--every", "monthly on day 30"], at: "2026-11-01T07:00")
        try delivered([
            "digest:2026-11-30|digest|Monday 2026-11-30: 1 item|2026-11-30T08:00", "digest:2026-12-01|digest|Tuesday 2026-12-01: 1 item|2026-12-01T08:00",
        ])

        let paid = try cli(["money", "paid", "1"], at: "2026-12-03T10:00")
        #expect(paid.stdout == "recurring transaction 1 on 2026-12-01: paid\n")
        #expect(
            paid.stderr
                == "recurring transaction 1: 2026-12-01, its occurrence due most recently\nrecurring transaction 1 on 2026-12-01 paid: reminder digest:2026-12-01 answered\n"
        )
        #expect(try responses()["digest:2026-12-01"] == "paid bill 1 on 2026-12-01, paid bill 1 on 2026-12-01", "as Paid on the digest records it")
        #expect(try waiting(at: "2026-12-03T10:00") == ["digest:2026-11-30"], "the digest of the day before listed the gym, not the rent")
        #expect(try cli(["money", "month", "2026-12"]).stdout.contains("2026-12-01       -950.00  Rent  (paid)"))

        let twice = try cli(["money", "paid", "1"], at: "2026-12-03T10:00", expect: 65)
        #expect(twice.stdout.isEmpty)
        #expect(
            twice.stderr
                == "dawnlet-remind: recurring transaction 1 on 2026-12-01 (its occurrence due most recently) is paid already: money unpaid 1 --on 2026-12-01 undoes it; another occurrence is paid with --on DATE\n"
        )
        let other = try cli(["money", "paid", "1", "--on", "2026-12-02"], at: "2026-12-03T10:00", expect: 65)
        #expect(other.stderr == "dawnlet-remind: 2026-12-02 is not an occurrence of recurring transaction 1 (monthly on day 1 from 2026-11-01)\n")
        #expect(try cli(["money", "paid", "9"], expect: 65).stderr == "dawnlet-remind: no recurring transaction with id 9\n")
        #expect(try cli(["money", "paid", "rent"], expect: 2).stderr.hasPrefix("dawnlet-remind: \"rent\" is not an id"))
        // A month with no reminder waiting: paid, and nothing more said.
        let november = try cli(["money", "paid", "1", "--on", "2026-11-01"], at: "2026-12-03T10:00")
        #expect(november.stdout == "recurring transaction 1 on 2026-11-01: paid\n" && november.stderr.isEmpty)

        let unpaid = try cli(["money", "unpaid", "1"], at: "2026-12-03T10:00")
        #expect(unpaid.stdout == "recurring transaction 1 on 2026-12-01: no longer paid\n")
        #expect(
            unpaid.stderr
                == "recurring transaction 1: 2026-12-01, its latest paid occurrence\nrecurring transaction 1 on 2026-12-01 no longer paid: reminder digest:2026-12-01 waits again\n"
        )
        #expect(try waiting(at: "2026-12-03T10:00") == ["digest:2026-12-01", "digest:2026-11-30"])
        #expect(!(try cli(["money", "month", "2026-12"]).stdout.contains("(paid)")))
        #expect(try cli(["money", "unpaid", "1", "--on", "2026-12-01"]).stdout == "recurring transaction 1 on 2026-12-01: was not paid; nothing changed\n")
        try cli(["money", "unpaid", "1"], at: "2026-12-03T10:00")
        let none = try cli(["money", "unpaid", "1"], at: "2026-12-03T10:00", expect: 65)
        #expect(none.stderr == "dawnlet-remind: recurring transaction 1 has no paid occurrence within a year of today (2026-12-03); give --on DATE\n")

        // Skipped: answered as reminder skip would, and not paid until unskipped.
        try cli(["money", "skip", "1", "--on", "2026-12-01"], at: "2026-12-03T10:00")
        #expect(try responses()["digest:2026-12-01"] == "skipped bill 1 on 2026-12-01, skipped bill 1 on 2026-12-01")
        let skipped = try cli(["money", "paid", "1"], at: "2026-12-03T10:00", expect: 65)
        #expect(
            skipped.stderr
                == "dawnlet-remind: recurring transaction 1 on 2026-12-01 (its occurrence due most recently) is skipped: money unskip 1 --on 2026-12-01 first, to pay it\n"
        )
        try cli(["money", "unskip", "1", "--on", "2026-12-01"], at: "2026-12-03T10:00")
        #expect(try waiting(at: "2026-12-03T10:00") == ["digest:2026-12-01", "digest:2026-11-30"])
    }

    @Test("with bills reminded three days ahead, money paid takes the occurrence that digest listed, not last month's; a digest of another day waits on")
    func paidAhead() throws {
        let config = workspace.folder.path("config.json5")
        try #"{ reminders: { bill: ["3d"] } }"#.write(toFile: config, atomically: true, encoding: .utf8)
        try cli(["--config", config, "money", "add", "Rent", "--amount", "-950", "--every", "monthly on day 1"], at: "2026-11-01T07:00")
        try delivered(["digest:2026-11-27|digest|Friday: 1 item|2026-11-27T08:00", "digest:2026-11-28|digest|Saturday: 1 item|2026-11-28T08:00"])
        let paid = try cli(["--config", config, "money", "paid", "1"], at: "2026-11-28T10:00")
        #expect(paid.stdout == "recurring transaction 1 on 2026-12-01: paid\n")
        #expect(
            paid.stderr
                == "recurring transaction 1: 2026-12-01, its next occurrence, reminded since 2026-11-28\nrecurring transaction 1 on 2026-12-01 paid: reminder digest:2026-11-28 answered\n"
        )
        #expect(try responses()["digest:2026-11-27"] == ", ")
    }

    @Test(
        "subscription log, debt log and goal log answer the digest that listed the renewal, the month's due date, the deadline, once it lists no other line to answer; an extra payment and another period answer nothing"
    )
    func payments() throws {
        try cli(["subscription", "add", "Stream", "--amount", "-12.99", "--every", "monthly from 2026-12-01"], at: "2026-11-20T07:00")
        try cli(["debt", "add", "Card", "--balance", "500", "--minimum", "50", "--day", "1"], at: "2026-11-20T07:00")
        try cli(["goal", "add", "Bike", "--target", "900", "--by", "2026-12-08"], at: "2026-11-20T07:00")
        try delivered(["digest:2026-12-01|digest|Tuesday 2026-12-01: 3 items|2026-12-01T08:00"])
        func reset() throws { _ = try sql("UPDATE deliveries SET answer = NULL, answered_from = NULL, response = NULL") }

        // The debt's month is still to log: the digest waits, its renewal line answered.
        let subscription = try cli(["subscription", "log", "1"])
        #expect(subscription.stderr == "", "\(subscription.stderr)")
        #expect(try responses()["digest:2026-12-01"] == ", ")
        #expect(try waiting() == ["digest:2026-12-01"])

        // Its last line: the digest is answered.
        try cli(["debt", "log", "1"])
        #expect(
            try responses()["digest:2026-12-01"]
                == "logged payment #2: debt 1, -50.00 for the month 2026-12, logged payment #2: debt 1, -50.00 for the month 2026-12")
        try reset()
        let extra = try cli(["debt", "log", "1", "--amount", "20"])
        #expect(extra.stdout.contains("an extra payment") && extra.stderr.isEmpty, "\(extra.stderr)")
        #expect(try waiting() == ["digest:2026-12-01"])

        let goal = try cli(["goal", "log", "1", "--amount", "100"])
        #expect(goal.stderr == "payment #4 logged: reminder digest:2026-12-01 answered\n")
        #expect(try responses()["digest:2026-12-01"] == "logged payment #4: goal 1, -100.00, logged payment #4: goal 1, -100.00")

        // A renewal whose digest did not go out: logged, nothing answered.
        try reset()
        #expect(try cli(["subscription", "log", "1", "--on", "2026-12-01"], at: "2027-01-02T10:00", expect: 65).stderr.contains("already logged"))
        let january = try cli(["subscription", "log", "1", "--on", "2027-01-01"], at: "2027-01-02T10:00")
        #expect(january.stderr.isEmpty, "\(january.stderr)")
    }

    @Test("reminder done without KEY takes the newest reminder that can be done: past a newer event's, and past one whose todo is gone")
    func implicitDone() throws {
        try cli(["todo", "add", "Call mum", "--due", "2026-12-01T09:00"], at: "2026-11-29T07:00")
        try cli(["event", "add", "Dentist", "--start", "2026-12-01T10:00"], at: "2026-11-29T07:00")
        // todo 7 was deleted before deleting answered its reminders: its row is all that is left.
        try delivered([
            "todo:1:2026-12-01:0m|todo|Call mum|2026-12-01T09:00", "event:1:2026-12-01:10m|event|Dentist|2026-12-01T09:50",
            "todo:7:2026-12-01:0m|todo|Gone|2026-12-01T09:55",
        ])
        #expect(try waiting() == ["event:1:2026-12-01:10m", "todo:1:2026-12-01:0m"])
        let done = try cli(["reminder", "done"])
        #expect(done.stdout == "done: todo:1:2026-12-01:0m\n")
        #expect(done.stderr == "done: todo:1:2026-12-01:0m \"Call mum\"\n")
        #expect(try responses()["todo:1:2026-12-01:0m"] == "done, done")
    }

    @Test("money paid and unpaid are in help, the man page and the completions")
    func documented() throws {
        let help = try CLIProcess.run(["money", "paid", "--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("usage: dawnlet-remind money paid ID [--on DATE]\n"), "\(help.stdout)")
        #expect(try CLIProcess.run(["help", "money"]).stdout.contains("dawnlet-remind money unpaid ID [--on DATE]"))
        #expect(try CLIProcess.run(["man-page"]).stdout.contains("money paid"))
        let bash = try CLIProcess.run(["completions", "bash"]).stdout
        #expect(bash.contains("unskip paid unpaid delete") || bash.contains("paid unpaid"), "\(bash.prefix(200))")
    }
}
