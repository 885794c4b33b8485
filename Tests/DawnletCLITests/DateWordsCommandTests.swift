import DawnletTestSupport
import Foundation
import Testing

/// Dates as people type them, through the binary: resolved in the configured zone at `--now`,
/// echoed when a word was read.
@Suite struct DateWordsCommandTests {
    let workspace: Workspace

    init() throws { workspace = try Workspace() }

    func run(_ arguments: String...) throws -> CLIResult { try CLIProcess.run(["--db", workspace.db] + arguments) }

    @Test("across a year end: 23:30 UTC on Dec 31 is already Jan 1 in Berlin, so tomorrow is Jan 2; said on stderr")
    func yearEnd() throws {
        let added = try run("--tz", "Europe/Berlin", "--now", "2026-12-31T23:30Z", "todo", "add", "Party", "--due", "tomorrow")
        #expect(added.status == 0 && added.stdout == "1\n")
        #expect(added.stderr == "todo 1: due Sat 2027-01-02\n")
        let utc = try run("--tz", "UTC", "--now", "2026-12-31T23:30Z", "todo", "add", "Same instant", "--due", "tomorrow")
        #expect(utc.stderr == "todo 2: due Fri 2027-01-01\n")
        // An ISO date needs no echo.
        #expect(try run("todo", "add", "Plain", "--due", "2027-01-05").stderr.isEmpty)
        #expect(
            try run("--now", "2026-12-31T23:30Z", "todo", "list").stdout
                == "#1  Party  due 2027-01-02  [open]\n#2  Same instant  due 2027-01-01  [open]\n#3  Plain  due 2027-01-05  [open]\n")
    }

    @Test("on the spring-forward day: \"today 02:30\" is that day, and fires after the gap, at 03:30 CEST")
    func dstDay() throws {
        // 00:30 UTC on Mar 29 is 01:30 CET, half an hour before the clocks jump.
        let added = try run("--tz", "Europe/Berlin", "--now", "2026-03-29T00:30Z", "todo", "add", "Meds", "--due", "today 02:30")
        #expect(added.stderr == "todo 1: due Sun 2026-03-29 02:30\n", "\(added.stderr)")
        let preview = try run("--tz", "Europe/Berlin", "--now", "2026-03-29T00:30Z", "preview", "--days", "1", "--json").stdout
        #expect(preview.contains(#""fire_at":"2026-03-29T03:30:00+02:00""#), "\(preview)")
    }

    @Test("spoken dates and 12-hour times through the binary, echoed as read; a numeric date whose order is a guess is 2 with why")
    func spoken() throws {
        let now = "2026-12-01T10:00Z"
        #expect(try run("--now", now, "todo", "add", "Gifts", "--due", "dec 24 9am").stderr == "todo 1: due Thu 2026-12-24 09:00\n")
        #expect(try run("--now", now, "todo", "add", "Review", "--due", "in 3 days at noon").stderr == "todo 2: due Fri 2026-12-04 12:00\n")
        #expect(try run("--now", now, "event", "add", "Retro", "--start", "next week 2:30pm").stderr == "event 1: starts Mon 2026-12-07 14:30\n")
        #expect(try run("--now", now, "todo", "add", "Rent", "--due", "end of month").stderr == "todo 3: due Thu 2026-12-31\n")
        #expect(try run("--now", now, "todo", "list").stdout.contains("#1  Gifts  due 2026-12-24 09:00"))
        CLIProcess.expectFailure(
            try run("--now", now, "todo", "add", "X", "--due", "03/04"), status: 2, mentioning: ["could be day/month or month/day", "YYYY-MM-DD"])
        CLIProcess.expectFailure(try run("--now", now, "todo", "add", "X", "--due", "feb 30"), status: 2, mentioning: ["February has no day 30"])
        CLIProcess.expectFailure(try run("--now", now, "todo", "add", "X", "--due", "tomorrow 13pm"), status: 2, mentioning: [#""13pm" is not a time"#])
        #expect(try run("--now", now, "todo", "list").stdout.split(separator: "\n").count == 3, "nothing added by a refusal")
    }

    @Test("a series that ends: --until (as people type it) on add, shown with the schedule, changed or taken away by edit; refused where nothing would be left")
    func until() throws {
        let now = "2026-12-01T10:00Z"
        #expect(try run("--now", now, "todo", "add", "Course", "--every", "weekly on tue at 18:00", "--until", "dec 22").status == 0)
        #expect(try run("--now", now, "todo", "list").stdout.contains("#1  Course  (weekly on tue from 2026-12-01 until 2026-12-22 at 18:00)"))
        let preview = try run("--now", now, "preview", "--days", "60", "--json").stdout
        #expect(preview.contains("todo:1:2026-12-22:0m") && !preview.contains("todo:1:2026-12-29:0m"), "\(preview)")
        #expect(try run("--now", now, "todo", "edit", "1", "--until", "2027-01-05").status == 0)
        #expect(try run("--now", now, "todo", "list").stdout.contains("(weekly on tue from 2026-12-01 until 2027-01-05 at 18:00)"))
        #expect(try run("--now", now, "todo", "edit", "1", "--no-until").status == 0)
        #expect(try run("--now", now, "todo", "list").stdout.contains("(weekly on tue from 2026-12-01 at 18:00)"))
        #expect(try run("--now", now, "habit", "add", "Run", "--days", "mon", "--until", "end of month").stderr.isEmpty)
        #expect(try run("--now", now, "habit", "list").stdout.contains("until 2026-12-31"))
        try run("--now", now, "todo", "add", "Once").expectSuccess()
        CLIProcess.expectFailure(try run("--now", now, "todo", "edit", "2", "--until", "tomorrow"), status: 2, mentioning: ["does not repeat"])
        CLIProcess.expectFailure(
            try run("--now", now, "event", "add", "Y", "--start", "2026-12-01T09:00", "--every", "daily from 2026-12-10", "--until", "dec 5"),
            status: 2, mentioning: ["--until 2026-12-05 is before the schedule's first day 2026-12-10"])
        CLIProcess.expectFailure(try run("--now", now, "todo", "edit", "1", "--until", "dec 5", "--no-until"), status: 2, mentioning: ["not both"])
    }

    @Test("verbs take words too, and say the date they acted on; today --date tomorrow; an unreadable word is 2 with examples")
    func verbs() throws {
        #expect(try run("todo", "add", "Water", "--every", "daily from 2026-11-01").status == 0)
        #expect(try run("--now", "2026-12-01T10:00Z", "todo", "done", "1", "--on", "fri").stdout == "todo 1 on 2026-12-04: done\n")
        #expect(try run("--now", "2026-12-01T10:00Z", "todo", "skip", "1", "--on", "+1w").stdout == "todo 1 on 2026-12-08: skipped\n")
        #expect(try run("--now", "2026-12-03T10:00Z", "today", "--date", "tomorrow").stdout.hasPrefix("2026-12-04 Friday\n         [x] todo  #1  Water"))
        #expect(try run("--now", "2026-12-01T10:00Z", "habit", "add", "Walk", "--days", "mon", "--from", "next mon").stderr == "habit 1: from Mon 2026-12-07\n")
        #expect(try run("--now", "2026-12-01T10:00Z", "goal", "add", "Bike", "--target", "800", "--by", "+2m").stderr == "goal 1: by Mon 2027-02-01\n")
        CLIProcess.expectFailure(
            try run("todo", "add", "X", "--due", "frday"), status: 2,
            mentioning: [#"--due "frday" is not a date"#, "tomorrow", "dec 24", "in 3 days", "+3d", "9am"])
        CLIProcess.expectFailure(try run("todo", "done", "1", "--on", "someday"), status: 2, mentioning: [#"--on "someday" is not a date"#])
        CLIProcess.expectFailure(try run("--now", "soon", "today"), status: 2, mentioning: [#"--now "soon""#])
        CLIProcess.expectFailure(try run("--now", "2026-12-01T10:00Z", "serve"), status: 2, mentioning: ["--now does not apply to serve"])
    }
}
