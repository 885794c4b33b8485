import DawnletTestSupport
import Foundation
import Testing

/// Undo of each kind restores exactly the state before: the same `today`, the
/// same month total, the same balance, the same calendar.
@Suite struct UndoTests {
    let workspace: Workspace
    var db: String { workspace.db }

    init() throws { workspace = try Workspace() }

    @discardableResult
    func cli(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        try workspace.cli(arguments, sourceLocation: sourceLocation)
    }

    @Test(
        "todo reopen and unskip, event and habit unskip: today is as before, edits of the day kept; undoing what is not marked, or doing it twice, is 0 and says so"
    )
    func occurrences() throws {
        try cli("todo", "add", "Water", "--every", "daily from 2026-11-01")
        try cli("todo", "add", "Tax return", "--due", "2026-12-01")
        try cli("event", "add", "Standup", "--start", "2026-11-02T09:30", "--every", "weekdays")
        try cli("habit", "add", "Walk", "--days", "mon,tue,wed,thu,fri,sat,sun", "--from", "2026-11-01")
        try cli("todo", "edit", "1", "--on", "2026-12-02", "--title", "Water the ferns")
        let before = try cli("today", "--date", "2026-12-01", "--json").stdout
        let editedBefore = try cli("today", "--date", "2026-12-02", "--json").stdout

        try cli("todo", "done", "1", "--on", "2026-12-01")
        try cli("todo", "done", "2")
        try cli("todo", "skip", "1", "--on", "2026-12-02")
        try cli("event", "skip", "1", "--on", "2026-12-01")
        try cli("habit", "skip", "1", "--on", "2026-12-01")
        #expect(try cli("today", "--date", "2026-12-01", "--json").stdout != before)

        #expect(try cli("todo", "reopen", "1", "--on", "2026-12-01").stdout == "todo 1 on 2026-12-01: open again\n")
        try cli("todo", "reopen", "2")
        try cli("todo", "unskip", "1", "--on", "2026-12-02")
        try cli("event", "unskip", "1", "--on", "2026-12-01")
        try cli("habit", "unskip", "1", "--on", "2026-12-01")
        #expect(try cli("today", "--date", "2026-12-01", "--json").stdout == before)
        #expect(try cli("today", "--date", "2026-12-02", "--json").stdout == editedBefore, "the day's edit survives the undo")

        // Undoing what is not so is as idempotent as doing it twice: 0, and it says so.
        #expect(try cli("todo", "reopen", "1", "--on", "2026-12-01").stdout == "todo 1 on 2026-12-01: was not done; nothing changed\n")
        #expect(try cli("event", "unskip", "1", "--on", "2026-12-01").stdout == "event 1 on 2026-12-01: was not skipped; nothing changed\n")
        #expect(try cli("today", "--date", "2026-12-01", "--json").stdout == before)
        try cli("todo", "done", "1", "--on", "2026-12-01")
        #expect(try cli("todo", "done", "1", "--on", "2026-12-01").stdout == "todo 1 on 2026-12-01: already done\n")
    }

    @Test("money unskip: the month's total is as before")
    func money() throws {
        try cli("money", "add", "Rent", "--amount", "-950", "--every", "monthly on day 1 from 2026-01-01")
        let before = try cli("money", "month", "2026-12", "--json").stdout
        try cli("money", "skip", "1", "--on", "2026-12-01")
        #expect(try cli("money", "month", "2026-12", "--json").stdout != before)
        try cli("money", "unskip", "1", "--on", "2026-12-01")
        #expect(try cli("money", "month", "2026-12", "--json").stdout == before)
        #expect(try cli("money", "unskip", "1", "--on", "2026-12-01").stdout == "recurring transaction 1 on 2026-12-01: was not skipped; nothing changed\n")
        #expect(try cli("money", "month", "2026-12", "--json").stdout == before)
    }

    @Test("payment list and delete: the period is unlogged, a debt's balance given back exactly (an overpayment too)")
    func payments() throws {
        try cli("subscription", "add", "Stream", "--amount", "-12.99", "--every", "monthly on day 1 from 2026-01-01")
        try cli("--now", "2026-01-01T12:00Z", "debt", "add", "Card", "--balance", "100", "--minimum", "40", "--day", "3")
        let calendar = try cli("calendar", "2026-02", "--json").stdout
        try cli("subscription", "log", "1", "--on", "2026-02-01")
        try cli("debt", "log", "1", "--on", "2026-02-03", "--amount", "130")
        #expect(
            try cli("payment", "list").stdout == """
                #1  2026-02-01  subscription 1 Stream  -12.99  for 2026-02-01
                #2  2026-02-03  debt 1 Card  -130.00  for 2026-02

                """)
        #expect(
            try cli("payment", "list", "--json").stdout.contains(
                #"{"id":2,"kind":"debt","source_id":1,"source":"Card","period":"2026-02","amount":"-130.00","date":"2026-02-03"}"#))
        #expect(try cli("payment", "delete", "2").stdout == "payment #2 deleted: debt 1 is unlogged for the month 2026-02\n")
        #expect(try cli("debt", "list", "--json").stdout.contains(#""balance":"100.00""#), "130 paid took 100; 100 given back")
        try cli("payment", "delete", "1")
        #expect(try cli("calendar", "2026-02", "--json").stdout == calendar)
        #expect(try cli("payment", "list").stdout == "no payments\n")
        CLIProcess.expectFailure(try CLIProcess.run(["--db", db, "payment", "delete", "1"]), status: 65, mentioning: ["no payment with id 1"])
        // The month can be logged again.
        try cli("debt", "log", "1", "--on", "2026-02-03")
        #expect(try cli("debt", "list", "--json").stdout.contains(#""balance":"60.00""#))
    }

    @Test("payment delete in a debt's month of extra payments: says which was deleted, the month's or an extra one, and which still log the month")
    func extraPayments() throws {
        try cli("--now", "2026-01-01T12:00Z", "debt", "add", "Card", "--balance", "500", "--minimum", "40", "--day", "3")
        try cli("debt", "log", "1", "--on", "2026-02-03")
        try cli("debt", "log", "1", "--on", "2026-02-05", "--amount", "50")
        try cli("debt", "log", "1", "--on", "2026-02-06", "--amount", "20")
        #expect(
            try cli("payment", "delete", "2").stdout
                == "payment #2 deleted: debt 1's extra payment of -50.00 for the month 2026-02; the month stays logged by payments #1 (-40.00) and #3 (-20.00)\n"
        )
        #expect(try cli("calendar", "2026-02", "--json").stdout.contains(#""logged":true"#), "still logged")
        #expect(
            try cli("payment", "delete", "1").stdout
                == "payment #1 deleted: debt 1's payment of -40.00 for the month 2026-02; the month stays logged by payment #3 (-20.00)\n")
        #expect(try cli("calendar", "2026-02", "--json").stdout.contains(#""logged":true"#), "still logged, by the extra payment left")
        #expect(try cli("payment", "delete", "3").stdout == "payment #3 deleted: debt 1 is unlogged for the month 2026-02\n")
        #expect(try cli("calendar", "2026-02", "--json").stdout.contains(#""logged":false"#))
        #expect(try cli("debt", "list", "--json").stdout.contains(#""balance":"500.00""#), "every payment given back")
    }

    @Test("subscription, debt, goal and income delete: gone from lists and the calendar; their payments stay, named deleted")
    func deleteSources() throws {
        try cli("subscription", "add", "Stream", "--amount", "-12.99", "--every", "monthly on day 1 from 2026-01-01")
        try cli("debt", "add", "Card", "--balance", "100", "--minimum", "40", "--day", "3")
        try cli("--now", "2026-01-01T12:00Z", "goal", "add", "Bike", "--target", "800", "--by", "2026-02-20")
        try cli("income", "add", "Salary", "--amount", "3000", "--every", "monthly on day 25 from 2026-01-25")
        try cli("subscription", "log", "1", "--on", "2026-02-01")
        for kind in ["subscription", "debt", "goal", "income"] {
            #expect(try cli(kind, "delete", "1").stdout == "\(kind) 1 deleted\n")
            CLIProcess.expectFailure(try CLIProcess.run(["--db", db, kind, "delete", "1"]), status: 65, mentioning: ["with id 1"])
        }
        #expect(try cli("subscription", "list").stdout == "no subscriptions\n" || !(try cli("subscription", "list").stdout.contains("Stream")))
        #expect(!(try cli("calendar", "2026-02").stdout.contains("Stream")))
        #expect(!(try cli("calendar", "2026-02").stdout.contains("Salary")))
        #expect(try cli("payment", "list").stdout.contains("subscription 1 (deleted)  -12.99"))
        // A new subscription does not take the deleted one's id (nor its payment).
        #expect(try cli("subscription", "add", "Music", "--amount", "-9.99", "--every", "monthly on day 1").stdout == "2\n")
    }
}
