import DawnletTestSupport
import Foundation
import Testing

/// Money starts when it exists, from outside: nothing of an item before it was added (or before
/// the start given), in every view and in the figures kept of a closed month; no goal dated in the
/// past; no payment from before its debt or goal.
@Suite struct MoneyStartCommandTests {
    let workspace: Workspace
    init() throws { workspace = try Workspace(globals: ["--now", "2026-12-10T12:00Z", "--tz", "UTC"]) }

    @discardableResult
    func cli(_ arguments: String..., expect status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        try workspace.cli(arguments, expect: status, sourceLocation: sourceLocation)
    }

    /// Runs `script` with Python's sqlite3 on the database (`sys.argv[1]`); what it printed.
    func python(_ script: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let (status, output) = try runTool(
            "/usr/bin/python3", ["-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1])\n" + script, workspace.db], environment: [:])
        #expect(status == 0, "\(output)", sourceLocation: sourceLocation)
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(
        "a debt added today is in no earlier month: not in money month, calendar, agenda or dashboard, nor in last month's kept figures; a start given earlier wins"
    )
    func debtAddedToday() throws {
        try cli("money", "add", "Rent", "--amount", "-950", "--every", "monthly on day 1 from 2026-09-01")
        try cli("debt", "add", "Card", "--balance", "500", "--minimum", "50", "--day", "3")
        try cli("subscription", "add", "Stream", "--amount", "-15.49", "--every", "monthly on day 2")
        try cli("income", "add", "Salary", "--amount", "3200", "--every", "monthly on day 25")

        #expect(try cli("money", "month", "2025-06", "--json").stdout == #"{"month":"2025-06","lines":[],"in":"0.00","out":"0.00","net":"0.00"}"# + "\n")
        let november = try cli("money", "month", "2026-11").stdout
        #expect(
            november == """
                2026-11
                  2026-11-01       -950.00  Rent
                  in                  0.00
                  out              -950.00
                  net              -950.00

                """, "\(november)")
        // Its payment day this month came before it was added: first due next month.
        let december = try cli("money", "month", "2026-12", "--json").stdout
        #expect(!december.contains("Card") && !december.contains("Stream") && december.contains(#""name":"Salary""#), "\(december)")
        let january = try cli("money", "month", "2027-01").stdout
        #expect(january.contains("2027-01-02        -15.49  Stream  (subscription #1, due)\n"), "\(january)")
        #expect(january.contains("2027-01-03        -50.00  Card  (debt #1, due)\n"), "\(january)")

        #expect(try cli("calendar", "2026-11", "--json").stdout == #"{"month":"2026-11","events":[]}"# + "\n")
        #expect(!(try cli("calendar", "2026-12").stdout.contains("Card")))
        #expect(try cli("calendar", "2027-01").stdout.contains("2027-01-03  debt         #1  Card  -50.00"))
        #expect(!(try cli("agenda", "--from", "2026-12-03", "--days", "1").stdout.contains("Card")))

        // Last month is a record of November as it was: the rent alone, and no balance of a debt
        // that did not exist at its end; nor is this month's payment flagged unlogged.
        let dashboard = try cli("dashboard", "--json").stdout
        #expect(dashboard.contains(#""last_month":{"month":"2026-11","in":"0.00","out":"-950.00","net":"-950.00"}"#), "\(dashboard)")
        #expect(dashboard.contains(#""name":"Card","balance":"500.00","last_month":null,"trend":"""#), "\(dashboard)")
        #expect(!dashboard.contains("is not logged"), "\(dashboard)")
        let text = try cli("dashboard").stdout
        #expect(text.contains("2026-12: in 3200.00, out -950.00, net 2250.00 ↑ (2026-11: net -950.00)\n"), "\(text)")
        #expect(text.contains("  Card  balance 500.00\n"), "\(text)")
        // November ended before the database began: worked out, not kept.
        #expect(try python("print(c.execute('SELECT count(*) FROM month_snapshots').fetchone()[0])") == "0")

        // Paid today, in the month it was added: listed on the day it was paid, not before.
        try cli("debt", "log", "1")
        let paid = try cli("money", "month", "2026-12").stdout
        #expect(paid.contains("  2026-12-10        -50.00  Card  (debt #1, logged)\n"), "\(paid)")
        #expect(!paid.contains("2026-12-01        -50.00"), "\(paid)")
    }

    @Test(
        "a month that ended before the database began is kept by no one: last month's figures count a bill back-dated into it after the first look, whatever a version before kept"
    )
    func monthBeforeTheDatabase() throws {
        try cli("debt", "add", "Card", "--balance", "500", "--minimum", "50", "--day", "3")
        let first = try cli("dashboard", "--json").stdout
        #expect(first.contains(#""last_month":{"month":"2026-11","in":"0.00","out":"0.00","net":"0.00"}"#), "\(first)")
        // Typed in after that first look: a rent paid since January.
        try cli("money", "add", "Rent", "--amount", "-950", "--every", "monthly on day 1 from 2026-01-01")
        let november = #""last_month":{"month":"2026-11","in":"0.00","out":"-950.00","net":"-950.00"}"#
        let dashboard = try cli("dashboard", "--json").stdout
        #expect(dashboard.contains(november), "\(dashboard)")
        let text = try cli("dashboard").stdout
        #expect(text.contains("2026-12: in 0.00, out -950.00, net -950.00 → (2026-11: net -950.00)\n"), "\(text)")
        #expect(try python("print(c.execute('SELECT count(*) FROM month_snapshots').fetchone()[0])") == "0")
        // A row of November kept at the first look, as the versions before kept it, is not read.
        _ = try python(
            "c.execute(\"INSERT INTO month_snapshots (month, taken_at, money_in, money_out, debts) VALUES ('2026-11', 0, '0', '0', '')\"); c.commit()")
        let again = try cli("dashboard", "--json").stdout
        #expect(again.contains(november), "\(again)")
    }

    @Test("goal add and goal edit refuse a date before today: 65 and one line saying so; today and later are taken")
    func goalDateInThePast() throws {
        for arguments in [["goal", "add", "Bike", "--target", "900", "--by", "2026-12-09"], ["goal", "add", "Bike", "--target", "900", "--by", "yesterday"]] {
            CLIProcess.expectFailure(
                try CLIProcess.run(["--db", workspace.db] + workspace.globals + arguments), status: 65,
                mentioning: ["--by 2026-12-09 is before today (2026-12-10)", "today or later"])
        }
        #expect(!FileManager.default.fileExists(atPath: workspace.db), "nothing was written")
        try cli("goal", "add", "Bike", "--target", "900", "--by", "today")
        CLIProcess.expectFailure(
            try CLIProcess.run(["--db", workspace.db] + workspace.globals + ["goal", "edit", "1", "--by", "2026-11-30", "--target", "1000"]), status: 65,
            mentioning: ["--by 2026-11-30 is before today (2026-12-10)"])
        #expect(try cli("goal", "list").stdout.hasPrefix("#1  Bike  saved 0.00 of 900.00 (0%), 900.00 to go by 2026-12-10"), "nothing of the edit was kept")
        try cli("goal", "edit", "1", "--by", "2027-03-01")
        #expect(try cli("goal", "list").stdout.contains("by 2027-03-01"))
    }

    @Test("a payment dated before its debt or goal was added is refused, naming the day it was added; from that day on it is taken")
    func paymentBeforeItExisted() throws {
        try cli("debt", "add", "Card", "--balance", "500", "--minimum", "50", "--day", "3")
        try cli("goal", "add", "Bike", "--target", "900")
        for (arguments, words) in [
            (["debt", "log", "1", "--on", "2026-12-09"], ["debt 1 was added on 2026-12-10", "a payment on 2026-12-09"]),
            (["debt", "log", "1", "--on", "2025-06-01", "--amount", "20"], ["debt 1 was added on 2026-12-10", "2025-06-01"]),
            (["goal", "log", "1", "--amount", "10", "--on", "2026-12-01"], ["goal 1 was added on 2026-12-10", "2026-12-01"]),
        ] {
            CLIProcess.expectFailure(try CLIProcess.run(["--db", workspace.db] + workspace.globals + arguments), status: 65, mentioning: words)
        }
        #expect(try cli("payment", "list").stdout == "no payments\n")
        #expect(try cli("debt", "list").stdout.hasPrefix("#1  Card  balance 500.00"))
        #expect(try cli("debt", "log", "1", "--on", "2026-12-10").stdout.hasPrefix("payment #1: debt 1, -50.00 on 2026-12-10"))
        #expect(try cli("goal", "log", "1", "--amount", "10", "--on", "2026-12-10").stdout.hasPrefix("payment #2: goal 1, -10.00 on 2026-12-10"))
        // A subscription's start given before the day it was added wins: its periods from then are loggable.
        try cli("subscription", "add", "Music", "--amount", "-5", "--every", "monthly on day 5 from 2026-01-05")
        #expect(try cli("subscription", "log", "1", "--on", "2026-06-05").stdout.hasPrefix("payment #3: subscription 1, -5.00 on 2026-06-05"))
    }

    @Test(
        "opened by this version, a database whose closed months were kept with a debt's figures from before it was added drops those rows, keeps the rest, and makes last month's again right"
    )
    func mendsKeptMonths() throws {
        func at(_ now: String, _ arguments: String...) throws {
            let result = try CLIProcess.run(["--db", workspace.db, "--tz", "UTC", "--now", now] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        try at("2026-10-15T12:00Z", "money", "add", "Rent", "--amount", "-950", "--every", "monthly on day 1 from 2026-08-01")
        try at("2026-10-15T12:00Z", "debt", "add", "Loan", "--balance", "300", "--minimum", "20", "--day", "3")
        try at("2026-12-10T12:00Z", "debt", "add", "Card", "--balance", "500", "--minimum", "50", "--day", "20")
        // The rows the versions before kept (a debt due every month), at the schema before the mend: November
        // with Card, added after it ended; October with Loan's payment due on the 3rd, before it
        // was added on the 15th; September and August right, the last naming a debt deleted since.
        _ = try python(
            """
            rows = [('2026-11', '0', '-102000', '1:30000,2:50000'), ('2026-10', '0', '-97000', '1:30000'),
                    ('2026-09', '0', '-95000', ''), ('2026-08', '0', '-96000', '7:1000')]
            c.executemany('INSERT INTO month_snapshots (month, taken_at, money_in, money_out, debts) VALUES (?, 0, ?, ?, ?)', rows)
            # The schema as it was then: the columns the migrations after it add, taken away.
            for trigger in ('deliveries_answered_insert', 'deliveries_answered_update'): c.execute(f'DROP TRIGGER {trigger}')
            for column in ('answer', 'answered_from', 'missed_reason', 'answered_at'): c.execute(f'ALTER TABLE deliveries DROP COLUMN {column}')
            c.execute('ALTER TABLE calendar_exports DROP COLUMN held_since')
            c.execute('ALTER TABLE month_snapshots DROP COLUMN health')
            for table in ('todos', 'events'):
                for column in ('note', 'location', 'url', 'priority', 'tags', 'zone'): c.execute(f'ALTER TABLE {table} DROP COLUMN {column}')
            for table in ('calendar_seen', 'deleted_elsewhere', 'imports', 'todo_checklist_checks', 'todo_checklist'): c.execute(f'DROP TABLE {table}')
            c.execute('ALTER TABLE calendar_exports DROP COLUMN kept')
            for table in ('todos', 'todo_occurrences', 'events', 'event_occurrences'):
                for event in ('insert', 'update', 'delete'): c.execute(f'DROP TRIGGER {table}_{event}_changed_at')
            c.execute('ALTER TABLE item_changes DROP COLUMN version')
            c.execute('PRAGMA user_version = 20')
            c.commit()
            """)
        // Any command opens (and so mends) it; this one reads only.
        try at("2026-12-10T12:00Z", "debt", "list")
        #expect(try python("print([r[0] for r in c.execute('SELECT month FROM month_snapshots ORDER BY month')])") == "['2026-08', '2026-09']")
        #expect(try python("print(c.execute('PRAGMA user_version').fetchone()[0] > 20)") == "True")
        // November made again from what is stored: the rent and Loan's payment due on the 3rd.
        let dashboard = try cli("dashboard", "--json").stdout
        #expect(dashboard.contains(#""last_month":{"month":"2026-11","in":"0.00","out":"-970.00","net":"-970.00"}"#), "\(dashboard)")
        #expect(
            try python("print(list(c.execute(\"SELECT money_out, debts FROM month_snapshots WHERE month = '2026-11'\")))") == "[('-97000', '1:30000')]")
    }
}
