import DawnletTestSupport
import Foundation
import Testing

/// Edit everything: the series or one occurrence, lists showing the item as it
/// now is, and a changed schedule keeping the rows of dates it still produces.
@Suite struct EditTests {
    let workspace: Workspace
    var db: String { workspace.db }

    init() throws { workspace = try Workspace(globals: ["--now", "2026-12-01T07:00Z", "--tz", "UTC"]) }

    @discardableResult
    func cli(_ arguments: String..., expect status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        try workspace.cli(arguments, expect: status, sourceLocation: sourceLocation)
    }

    func agenda(_ days: Int = 5) throws -> String { try cli("agenda", "--days", String(days)).stdout }

    @Test("--channel on add and edit: the item's reminders go by its own channels over the route; --no-channel goes back; a bad or unset channel is refused")
    func itemChannels() throws {
        func channels(_ key: String) throws -> [String] {
            let text = try cli("preview", "--from", "2026-12-01", "--to", "2026-12-03", "--json").stdout
            let reminders = (try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["reminders"] as? [[String: Any]] ?? []
            return reminders.first { $0["key"] as? String == key }?["channels"] as? [String] ?? []
        }
        try cli("todo", "add", "Call mum", "--due", "2026-12-01T09:00", "--channel", "command,desktop,command")
        try cli("todo", "add", "Bins", "--due", "2026-12-01T10:00")
        #expect(try channels("todo:1:2026-12-01:0m") == ["command", "desktop"], "its own, once each, over the route")
        #expect(try channels("todo:2:2026-12-01:0m") == ["desktop"], "the route")
        #expect(try cli("todo", "edit", "2", "--channel", "command").stdout == "todo 2: Bins  due 2026-12-01 10:00  by command\n")
        #expect(try channels("todo:2:2026-12-01:0m") == ["command"])
        try cli("todo", "edit", "1", "--no-channel")
        #expect(try channels("todo:1:2026-12-01:0m") == ["desktop"])
        try cli("habit", "add", "Run", "--days", "tue", "--at", "07:30", "--channel", "command")
        #expect(try channels("habit:1:2026-12-01:0m") == ["command"])
        let bad = try cli("todo", "add", "x", "--channel", "desktop,pigeon", expect: 2)
        #expect(bad.stderr.hasPrefix("dawnlet-remind: --channel \"desktop,pigeon\": \"pigeon\" is not a channel (desktop, command, email)\n"), "\(bad.stderr)")
        let unset = try cli("todo", "edit", "1", "--channel", "email", expect: 78)
        #expect(unset.stderr == "dawnlet-remind: --channel email: channels.email is not set up in the config\n")
        try cli("todo", "edit", "1", "--channel", "command", "--no-channel", expect: 2)
    }

    @Test("a series edited to a new schedule keeps the rows of dates it still produces; the others are history, back when it produces them again")
    func straddlingRows() throws {
        try cli("todo", "add", "Water", "--every", "daily from 2026-11-30 at 08:00")
        try cli("todo", "done", "1", "--on", "2026-12-01")
        try cli("todo", "skip", "1", "--on", "2026-12-02")
        try cli("todo", "edit", "1", "--on", "2026-12-04", "--title", "Water the ferns")
        let daily = try agenda()
        #expect(try cli("todo", "edit", "1", "--every", "weekly on wed,fri").stdout == "todo 1: Water  (weekly on wed,fri from 2026-11-30 at 08:00)\n")
        #expect(
            try agenda() == """
                2026-12-01 Tuesday
                  nothing

                2026-12-02 Wednesday
                  08:00  [-] todo  #1  Water  (skipped)

                2026-12-03 Thursday
                  nothing

                2026-12-04 Friday
                  08:00  [ ] todo  #1  Water the ferns

                2026-12-05 Saturday
                  nothing

                """)
        // Daily again: Tuesday's done was kept as history and counts again.
        try cli("todo", "edit", "1", "--every", "daily")
        #expect(try agenda() == daily)
    }

    @Test("--at changes the series' time everywhere: the list, the agenda and the schedule text agree")
    func time() throws {
        try cli("todo", "add", "Stretch", "--every", "daily from 2026-11-30 at 08:00")
        try cli("todo", "edit", "1", "--at", "09:15")
        #expect(try cli("todo", "list").stdout == "#1  Stretch  (daily from 2026-11-30 at 09:15)  [open]  next 2026-12-01\n")
        #expect(try agenda(1).contains("09:15  [ ] todo  #1  Stretch"))
        try cli("todo", "edit", "1", "--no-time")
        #expect(try cli("todo", "list").stdout == "#1  Stretch  (daily from 2026-11-30)  [open]  next 2026-12-01\n")
    }

    @Test("a one-off todo: --due moves it (a done mark goes along), --every makes it repeat, --once back; reminders set and cleared")
    func oneOff() throws {
        try cli("todo", "add", "Call", "--due", "2026-12-02T10:00", "--remind", "10m")
        try cli("todo", "done", "1")
        try cli("todo", "edit", "1", "--due", "fri", "--title", "Call back")
        #expect(try cli("todo", "list").stdout == "#1  Call back  due 2026-12-04 10:00  remind 10m  [done]\n")
        try cli("todo", "edit", "1", "--every", "weekly on mon", "--remind", "1h", "--remind", "5m")
        #expect(try cli("todo", "list").stdout == "#1  Call back  (weekly on mon from 2026-12-04 at 10:00)  remind 1h,5m  [open]  next 2026-12-07\n")
        try cli("todo", "edit", "1", "--once", "--no-remind")
        #expect(try cli("todo", "list").stdout == "#1  Call back  due 2026-12-07 10:00  [open]\n")
    }

    @Test("an event: start, all day, duration, once; a habit: name, days, time")
    func eventAndHabit() throws {
        try cli("event", "add", "Standup", "--start", "2026-11-30T09:30", "--every", "weekdays", "--duration", "15m")
        try cli("event", "edit", "1", "--start", "2026-12-02T10:00", "--duration", "1h30m", "--title", "Planning")
        #expect(try cli("event", "list").stdout == "#1  Planning  (weekdays from 2026-11-30 at 10:00)  for 1h30m\n")
        try cli("event", "edit", "1", "--once", "--all-day")
        #expect(try cli("event", "list").stdout == "#1  Planning  on 2026-12-01  for 1h30m\n")
        try cli("habit", "add", "Walk", "--days", "mon,wed", "--at", "07:00", "--from", "2026-11-30")
        try cli("habit", "edit", "1", "--name", "Run", "--days", "tue,thu", "--no-time")
        #expect(try cli("habit", "list").stdout.hasPrefix("#1  Run  (weekly on tue,thu from 2026-11-30)"))
        #expect(try agenda(1).contains("[ ] habit #1  Run"))
    }

    @Test("money, subscription, income, debt and goal edits")
    func money() throws {
        try cli("money", "add", "Rent", "--amount", "-950", "--every", "monthly on day 1 from 2026-01-01")
        try cli("money", "month", "2027-01")
        try cli("money", "edit", "1", "--amount", "-1000", "--name", "New rent")
        #expect(try cli("money", "month", "2027-01").stdout.contains("2027-01-01      -1000.00  New rent"))
        try cli("subscription", "add", "Stream", "--amount", "-12.99", "--every", "monthly on day 2 from 2026-01-02")
        try cli("subscription", "edit", "1", "--every", "monthly on day 5")
        #expect(try cli("subscription", "list").stdout.contains("(monthly on day 5 from 2026-01-02)"), "the anchor is kept")
        try cli("income", "add", "Salary", "--amount", "3000", "--every", "monthly on day 25 from 2026-01-25")
        try cli("income", "edit", "1", "--amount", "3100")
        #expect(try cli("income", "list").stdout.contains("3100.00"))
        try cli("debt", "add", "Card", "--balance", "100", "--minimum", "40", "--day", "3")
        try cli("debt", "edit", "1", "--day", "9", "--balance", "80", "--minimum", "20")
        #expect(
            try cli("debt", "list").stdout == "#1  Card  balance 80.00, minimum payment -20.00 on day 9; paid 0.00 so far, 4 months to payoff at the minimum\n")
        try cli("goal", "add", "Bike", "--target", "800")
        try cli("goal", "edit", "1", "--by", "2027-06-01", "--target", "900")
        #expect(try cli("goal", "list").stdout.hasPrefix("#1  Bike  saved 0.00 of 900.00 (0%), 900.00 to go by 2027-06-01"))
    }

    @Test("what edit refuses: nothing to change, both of a pair, more than title and time for one occurrence, an unknown id; what is already so is no error")
    func refusals() throws {
        try cli("todo", "add", "Water", "--every", "daily")
        for (arguments, words) in [
            (["todo", "edit", "1"], ["nothing to change"]),
            (["todo", "edit", "1", "--at", "09:00", "--no-time"], ["give --at or --no-time, not both"]),
            (["todo", "edit", "1", "--every", "daily", "--once"], ["give --every or --once, not both"]),
            (["todo", "edit", "1", "--on", "2026-12-02", "--due", "tomorrow"], ["with --on only --title and --at apply (not --due)"]),
            (["debt", "edit", "1", "--minimum", "0"], ["a debt's minimum payment is money you pay: write an amount above zero"]),
            (["goal", "edit", "1"], ["nothing to change"]),
        ] {
            CLIProcess.expectFailure(try CLIProcess.run(["--db", db] + arguments), status: 2, mentioning: words)
        }
        // What is asked is already so: no error, nothing written, and it says so.
        let same = try CLIProcess.run(["--db", db, "todo", "edit", "1", "--title", "Water"])
        #expect(same.status == 0 && same.stdout.isEmpty && same.stderr == "todo 1: already so; nothing changed\n", "\(same)")
        CLIProcess.expectFailure(try CLIProcess.run(["--db", db, "todo", "edit", "9", "--title", "x"]), status: 65, mentioning: ["no todo with id 9"])
        CLIProcess.expectFailure(try CLIProcess.run(["--db", db, "income", "edit", "3", "--name", "x"]), status: 65, mentioning: ["no income with id 3"])
    }
}
