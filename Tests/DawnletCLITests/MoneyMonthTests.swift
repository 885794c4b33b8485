import DawnletTestSupport
import Foundation
import Testing

/// A month's whole cashflow (`money month`) and one-off transactions, from outside: every line of
/// money of the month from every source, its totals checked against a sum made apart from the
/// program, over its own JSON.
@Suite struct MoneyMonthTests {
    let workspace: Workspace
    init() throws { workspace = try Workspace(globals: ["--now", "2026-12-20T12:00Z", "--tz", "UTC"]) }

    @discardableResult
    func cli(_ arguments: String..., expect status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        try workspace.cli(arguments, expect: status, sourceLocation: sourceLocation)
    }

    /// In, out and net of a `money month --json` document, summed by Python's Decimal over its
    /// lines (skipped ones left out), as the three strings the document should hold.
    func independentTotals(_ json: String) throws -> [String] {
        let script = """
            import json, sys
            from decimal import Decimal
            doc = json.loads(sys.stdin.read())
            amounts = [Decimal(l["amount"]) for l in doc["lines"] if l["status"] != "skipped"]
            got_in = sum((a for a in amounts if a > 0), Decimal("0.00"))
            got_out = sum((a for a in amounts if a < 0), Decimal("0.00"))
            print(f"{got_in:.2f} {got_out:.2f} {got_in + got_out:.2f}")
            """
        let input = workspace.folder.path("month.json")
        try json.write(toFile: input, atomically: true, encoding: .utf8)
        let (status, output) = try runTool("/bin/sh", ["-c", "python3 -c \"$1\" < \"$2\"", "sh", script, input], environment: ["PATH": "/usr/bin:/bin"])
        #expect(status == 0, "\(output)")
        return output.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    @Test(
        "money month lists every line of the month — bills, a one-off, renewals, debt payments, income — with statuses, and totals in, out and net that an independent sum agrees with"
    )
    func wholeMonth() throws {
        try cli("money", "add", "Rent", "--amount", "-950", "--every", "monthly on day 1 from 2026-01-01")
        try cli("money", "add", "Gym", "--amount", "-30.10", "--every", "monthly on day 5 from 2026-01-05")
        try cli("money", "add", "New bike", "--amount", "-480.55", "--on", "2026-12-15")
        try cli("money", "add", "Refund", "--amount", "19.99", "--on", "2026-11-30")
        try cli("subscription", "add", "Stream", "--amount", "15.49", "--every", "monthly on day 2 from 2026-01-02")
        try cli("--now", "2026-11-01T12:00Z", "debt", "add", "Card", "--balance", "500", "--minimum", "40", "--day", "3")
        try cli("income", "add", "Salary", "--amount", "3200", "--every", "monthly on day 25 from 2026-01-25")
        try cli("goal", "add", "Holiday", "--target", "900", "--by", "2026-12-24")
        try cli("money", "skip", "2", "--on", "2026-12-05")
        try cli("subscription", "log", "1", "--on", "2026-12-02")
        try cli("debt", "log", "1", "--on", "2026-12-03", "--amount", "55.25")

        let text = try cli("money", "month", "2026-12").stdout
        #expect(
            text == """
                2026-12
                  2026-12-01       -950.00  Rent
                  2026-12-02        -15.49  Stream  (subscription #1, logged)
                  2026-12-03        -55.25  Card  (debt #1, logged)
                  2026-12-05        -30.10  Gym  (skipped)
                  2026-12-15       -480.55  New bike
                  2026-12-25       3200.00  Salary  (income #1, due)
                  in               3200.00
                  out             -1501.29
                  net              1698.71

                """, "\(text)")
        let json = try cli("money", "month", "2026-12", "--json").stdout
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect([document["in"], document["out"], document["net"]].compactMap { $0 as? String } == (try independentTotals(json)))
        let lines = try #require(document["lines"] as? [[String: Any]])
        #expect(
            lines.map { "\($0["kind"]!) \($0["status"]!)" } == [
                "bill posted", "subscription logged", "debt logged", "bill skipped", "bill posted", "income due",
            ])
        #expect(!json.contains("Holiday"), "a goal is no flow of money")
        // November holds the one-off refund, and nothing of December's one-off.
        let november = try cli("money", "month", "2026-11", "--json").stdout
        #expect(november.contains(#""name":"Refund","amount":"19.99","status":"posted""#) && !november.contains("New bike"), "\(november)")
        #expect(try independentTotals(november) == ["3219.99", "-1035.59", "2184.40"], "\(november)")
        #expect(november.hasSuffix(#""in":"3219.99","out":"-1035.59","net":"2184.40"}"# + "\n"), "\(november)")
    }

    @Test("a one-off transaction: added with --on, listed, on the agenda, moved by edit, skipped and unskipped, made recurring, deleted")
    func oneOff() throws {
        #expect(try cli("money", "add", "New bike", "--amount", "-480", "--on", "2026-12-22").stdout == "1\n")
        CLIProcess.expectFailure(
            try CLIProcess.run(["--db", workspace.db, "money", "add", "x", "--amount", "-1", "--on", "2026-12-22", "--every", "monthly"]), status: 2,
            mentioning: ["give --every or --on, not both"])
        CLIProcess.expectFailure(
            try CLIProcess.run(["--db", workspace.db, "money", "add", "x", "--amount", "-1"]), status: 2, mentioning: ["--on DATE for a one-off"])
        #expect(try cli("money", "list").stdout == "#1  New bike  -480.00  (once on 2026-12-22)\n")
        #expect(try cli("money", "list", "--json").stdout.contains(#""schedule":null,"once":"2026-12-22""#))
        #expect(try cli("agenda", "--from", "2026-12-22", "--days", "1").stdout.contains("[ ] bill  #1  New bike  -480.00"))
        #expect(try cli("money", "month", "2026-12").stdout.contains("2026-12-22       -480.00  New bike\n"))
        // Moved: its row goes with it.
        try cli("money", "edit", "1", "--on", "2026-12-28")
        let moved = try cli("money", "month", "2026-12").stdout
        #expect(moved.contains("2026-12-28       -480.00  New bike\n") && !moved.contains("2026-12-22"), "\(moved)")
        CLIProcess.expectFailure(
            try CLIProcess.run(["--db", workspace.db, "money", "skip", "1", "--on", "2026-12-22"]), status: 65, mentioning: ["once on 2026-12-28"])
        try cli("money", "skip", "1", "--on", "2026-12-28")
        #expect(try cli("money", "month", "2026-12", "--json").stdout.hasSuffix(#""net":"0.00"}"# + "\n"))
        try cli("money", "unskip", "1", "--on", "2026-12-28")
        #expect(try cli("money", "month", "2026-12", "--json").stdout.hasSuffix(#""net":"-480.00"}"# + "\n"))
        // Recurring from here on.
        try cli("money", "edit", "1", "--every", "monthly on day 28 from 2026-12-28")
        #expect(try cli("money", "list").stdout == "#1  New bike  -480.00  (monthly on day 28 from 2026-12-28)\n")
        #expect(try cli("money", "month", "2027-01").stdout.contains("2027-01-28       -480.00  New bike"))
        try cli("money", "delete", "1")
        #expect(try cli("money", "list").stdout == "no recurring transactions\n")
        // A recurring one made a one-off keeps its past rows: they are history.
        try cli("money", "add", "Rent", "--amount", "-950", "--every", "monthly on day 1 from 2026-10-01")
        try cli("money", "month", "2026-10")
        try cli("money", "edit", "2", "--on", "2026-12-28")
        #expect(try cli("money", "month", "2026-10").stdout.contains("2026-10-01       -950.00  Rent\n"))
        #expect(try cli("money", "list").stdout == "#2  Rent  -950.00  (once on 2026-12-28)\n")
    }

    @Test("a payment stays in its month's cashflow when its subscription is paused or its debt deleted since")
    func paymentsOfGoneSources() throws {
        try cli("subscription", "add", "Music", "--amount", "10.99", "--every", "monthly on day 14 from 2026-01-14")
        try cli("--now", "2026-11-01T12:00Z", "debt", "add", "Card", "--balance", "500", "--minimum", "40", "--day", "3")
        try cli("subscription", "log", "1", "--on", "2026-12-14")
        try cli("debt", "log", "1", "--on", "2026-12-03")
        try cli("subscription", "pause", "1")
        try cli("debt", "delete", "1")
        let month = try cli("money", "month", "2026-12").stdout
        // On the day it was paid: the debt's due day went with it.
        #expect(month.contains("2026-12-03        -40.00  (deleted)  (debt #1, logged)\n"), "\(month)")
        #expect(month.contains("2026-12-14        -10.99  Music  (subscription #1, logged)\n"), "\(month)")
        #expect(month.contains("  out               -50.99\n"), "\(month)")
    }
}

extension MoneyMonthTests {
    @Test(
        "goals: goal log records what is put towards one; goal list shows saved, target, percent and a month's pace to its date; payment delete undoes; its reminder says how far off"
    )
    func goalProgress() throws {
        try cli("--now", "2026-12-01T12:00Z", "goal", "add", "Bike", "--target", "900", "--by", "2027-06-01")
        try cli("goal", "add", "Rainy day", "--target", "1000")
        #expect(
            try cli("goal", "log", "1", "--amount", "150", "--on", "2026-12-05").stdout
                == "payment #1: goal 1, -150.00 on 2026-12-05; saved 150.00 of 900.00 (16%), 750.00 to go\n")
        try cli("goal", "log", "1", "--amount", "-50")
        CLIProcess.expectFailure(try CLIProcess.run(["--db", workspace.db, "goal", "log", "1"]), status: 65, mentioning: ["give --amount"])
        CLIProcess.expectFailure(
            try CLIProcess.run(["--db", workspace.db, "goal", "log", "1", "--amount", "+5"]), status: 2, mentioning: ["money you pay"])
        CLIProcess.expectFailure(
            try CLIProcess.run(["--db", workspace.db, "goal", "log", "9", "--amount", "5"]), status: 65, mentioning: ["no goal with id 9"])
        // December to June: seven months for the 700.00 left.
        #expect(
            try cli("goal", "list").stdout == """
                #1  Bike  saved 200.00 of 900.00 (22%), 700.00 to go by 2027-06-01; 100.00 a month to reach it
                #2  Rainy day  saved 0.00 of 1000.00 (0%), 1000.00 to go

                """)
        #expect(try cli("goal", "list", "--json").stdout.contains(#""saved":"200.00","percent":22,"per_month":"100.00""#))
        #expect(try cli("payment", "list").stdout.contains("#2  2026-12-20  goal 1 Bike  -50.00  for 2026-12-20"))
        // Its reminder a week before its date, and on it, says how far off it is.
        let preview = try cli("preview", "--from", "2027-05-25", "--to", "2027-06-01").stdout
        #expect(preview.contains("goal: Bike (2027-06-01) saved 200.00 of 900.00 (22%), 700.00 to go"), "\(preview)")
        #expect(try cli("payment", "delete", "2").stdout == "payment #2 deleted: goal 1 has 50.00 less saved\n")
        #expect(try cli("goal", "list").stdout.hasPrefix("#1  Bike  saved 150.00 of 900.00 (16%), 750.00 to go by 2027-06-01; 107.15 a month"))
        // Reached: no pace, and said so.
        try cli("goal", "log", "1", "--amount", "800")
        #expect(try cli("goal", "list").stdout.hasPrefix("#1  Bike  saved 950.00 of 900.00 (100%), reached by 2027-06-01\n"))
    }

    @Test(
        "debts: an extra payment in a month is taken and says so, the minimum twice is not; debt list shows paid so far and months to payoff; money month lists the extra"
    )
    func debtProgress() throws {
        try cli("--now", "2026-12-01T12:00Z", "debt", "add", "Card", "--balance", "500", "--minimum", "40", "--day", "3")
        try cli("debt", "log", "1", "--on", "2026-12-03")
        CLIProcess.expectFailure(
            try CLIProcess.run(["--db", workspace.db, "debt", "log", "1"]), status: 65, mentioning: ["already logged for the month 2026-12", "--amount"])
        #expect(
            try cli("debt", "log", "1", "--on", "2026-12-10", "--amount", "100").stdout
                == "payment #2: debt 1, -100.00 on 2026-12-10, for the month 2026-12; an extra payment, after payment #1 this month\n")
        #expect(
            try cli("debt", "list").stdout
                == "#1  Card  balance 360.00, minimum payment -40.00 on day 3; paid 140.00 so far, 9 months to payoff at the minimum\n")
        #expect(try cli("debt", "list", "--json").stdout.contains(#""paid":"140.00","months_to_payoff":9"#))
        let month = try cli("money", "month", "2026-12").stdout
        #expect(month.contains("2026-12-03        -40.00  Card  (debt #1, logged)\n  2026-12-10       -100.00  Card  (debt #1, extra)\n"), "\(month)")
        #expect(month.contains("-140.00"))
        // Deleting the extra gives its 100.00 back; the month stays logged.
        try cli("payment", "delete", "2")
        #expect(try cli("debt", "list").stdout.hasPrefix("#1  Card  balance 460.00"))
        try cli("debt", "log", "1", "--amount", "460")
        #expect(try cli("debt", "list").stdout.hasSuffix("paid 500.00 so far  paid off\n"))
    }
}

extension MoneyMonthTests {
    @Test(
        "dashboard: today, the week's payments, this month against last month's snapshot (kept across an edit of the series), debts, goals, habits, the month's health rating against last month's kept one, and flags; its figures agree with money month"
    )
    func dashboard() throws {
        func at(_ now: String, _ arguments: String...) throws -> String {
            let result = try CLIProcess.run(["--db", workspace.db, "--tz", "UTC", "--now", now] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout
        }
        let november = "2026-11-05T12:00Z", december = "2026-12-10T12:00Z"
        _ = try at(november, "money", "add", "Rent", "--amount", "-950", "--every", "monthly on day 1 from 2026-09-01")
        _ = try at("2026-11-01T12:00Z", "debt", "add", "Card", "--balance", "500", "--minimum", "40", "--day", "3")
        _ = try at(november, "goal", "add", "Bike", "--target", "900", "--by", "2027-06-01")
        _ = try at(november, "income", "add", "Salary", "--amount", "3200", "--every", "monthly on day 25 from 2026-09-25")
        _ = try at(november, "money", "month", "2026-10")
        _ = try at(november, "money", "month", "2026-11")
        _ = try at("2026-11-10T12:00Z", "debt", "log", "1", "--on", "2026-11-03")
        _ = try at(december, "habit", "add", "Walk", "--days", "daily", "--from", "2026-12-07")
        _ = try at(december, "habit", "done", "1", "--on", "2026-12-08")
        _ = try at(december, "todo", "add", "Old", "--due", "2026-12-01")
        _ = try at(december, "money", "add", "Gift", "--amount", "-30", "--on", "2026-12-14")
        _ = try at(december, "money", "edit", "1", "--amount", "-1000")
        let text = try at(december, "dashboard")
        #expect(
            text == """
                Thursday 2026-12-10
                today: 1 open, 1 overdue
                next 7 days:
                  2026-12-14  bill         Gift  -30.00
                2026-12: in 3200.00, out -1070.00, net 2130.00 ↓ (2026-11: net 2210.00)
                debts:
                  Card  balance 460.00 → (end of 2026-11: 460.00)
                goals:
                  Bike  saved 0.00 of 900.00 (0%), 900.00 to go
                habits:
                  Walk  streak 0, longest 1; this week 1 of 7
                health: 43 ↓ (2026-11: 75): bills 100 (1 of 1 paid), debts 0 (0 of 1 payments logged), goals 0 (0 of 1 on pace), habits 33 (1 of 3 days kept), todos 80 (1 overdue)
                flags:
                  ! 1 todo overdue
                  ! Rent on 2026-12-01: -1000.00, more than its usual -950.00
                  ! Bike: 0.00 saved, 151.44 by now to reach 900.00 by 2027-06-01
                  ! Card: the payment due 2026-12-03 is not logged

                """, "\(text)")
        // Last month's figures are the snapshot: November's row changed since does not move them.
        let (status, output) = try runTool(
            "/usr/bin/python3",
            [
                "-c",
                "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"UPDATE transactions SET amount_minor=-200000 WHERE date='2026-11-01'\"); c.commit()",
                workspace.db,
            ],
            environment: [:])
        #expect(status == 0, "\(output)")
        #expect(try at(december, "money", "month", "2026-11", "--json").contains(#""net":"1160.00""#))
        let json = try at(december, "dashboard", "--json")
        #expect(json.contains(#""last_month":{"month":"2026-11","in":"3200.00","out":"-990.00","net":"2210.00"}"#), "\(json)")
        // This month's figures are money month's, to the cent.
        let month = try at(december, "money", "month", "2026-12", "--json")
        #expect(month.hasSuffix(#""in":"3200.00","out":"-1070.00","net":"2130.00"}"# + "\n"), "\(month)")
        #expect(json.contains(#""in":"3200.00","out":"-1070.00","net":"2130.00","trend":"↓""#), "\(json)")
        #expect(
            json.contains(
                #""health":{"score":43,"trend":"↓","last_month":75,"parts":[{"name":"bills","score":100,"detail":"1 of 1 paid"},"#
                    + #"{"name":"debts","score":0,"detail":"0 of 1 payments logged"},{"name":"goals","score":0,"detail":"0 of 1 on pace"},"#
                    + #"{"name":"habits","score":33,"detail":"1 of 3 days kept"},{"name":"todos","score":80,"detail":"1 overdue"}]}"#), "\(json)")
        // Last month's rating is the one kept as it closed, read, never worked out again.
        let (edited, editOutput) = try runTool(
            "/usr/bin/python3",
            ["-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"UPDATE month_snapshots SET health=91\"); c.commit()", workspace.db],
            environment: [:])
        #expect(edited == 0, "\(editOutput)")
        #expect(try at(december, "dashboard", "--json").contains(#""health":{"score":43,"trend":"↓","last_month":91,"#))
        #expect(try at(december, "dashboard").contains("health: 43 ↓ (2026-11: 91): "))
        // A what-if ahead of the clock shows that month's figures but keeps no snapshot of it.
        let ahead = try at("2027-09-02T12:00Z", "dashboard", "--json")
        #expect(ahead.contains(#""last_month":{"month":"2027-08""#), "\(ahead)")
        let (kept, rows) = try runTool(
            "/usr/bin/python3",
            [
                "-c", "import sqlite3,sys; print([r[0] for r in sqlite3.connect(sys.argv[1]).execute('SELECT month FROM month_snapshots ORDER BY month')])",
                workspace.db,
            ],
            environment: [:])
        #expect(kept == 0 && rows.contains("['2026-11']"), "\(rows)")
    }
}
