import DawnletCore
import DawnletTestSupport
import Foundation
import Testing

/// The money calendar, logging, the config file and `preview`, from outside.
@Suite struct PlannerCommandTests {
    let folder: TemporaryFolder
    let db: String

    init() throws {
        folder = try TemporaryFolder()
        db = folder.path("dawnlet.sqlite")
    }

    @discardableResult
    func cli(_ arguments: [String], expect status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        let result = try CLIProcess.run(["--db", db] + arguments)
        #expect(result.status == status, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result
    }

    func cli(_ arguments: String..., expect status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        try cli(arguments, expect: status, sourceLocation: sourceLocation)
    }

    func snapshot(_ name: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots/\(name)")
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// Writes rows the way an older version did: an income source stored without an anchor.
    func sql(_ statement: String) throws {
        let p = try Process.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            arguments: ["python3", "-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()", db, statement])
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
    }

    @Test("the four-source month: a clamped debt day, a paid-off debt, paused and logged subscriptions, an income without an anchor")
    func calendar() throws {
        // Added at the start of the year: money starts when it exists.
        let january = ["--now", "2026-01-01T12:00Z"]
        try cli(january + ["debt", "add", "Card", "--balance", "1000", "--minimum", "50", "--day", "31"])
        try cli(january + ["debt", "add", "Loan", "--balance", "200", "--minimum", "20", "--day", "5"])
        try cli("debt", "pay-off", "2")
        try cli(january + ["goal", "add", "Holiday", "--target", "2000", "--by", "2026-02-20"])
        try cli(january + ["goal", "add", "Car", "--target", "9000", "--by", "2026-08-01"])
        try cli("income", "add", "Salary", "--amount", "3000", "--every", "monthly on last fri from 2026-01-01")
        try sql("INSERT INTO income_sources (name, amount_minor, schedule, created) VALUES ('Old', 100, 'monthly on day 10', '2025-01-01')")
        try cli("subscription", "add", "Stream", "--amount", "-12.99", "--every", "monthly on day 15 from 2026-01-15")
        try cli("subscription", "add", "Gym", "--amount", "-30", "--every", "monthly on day 1 from 2026-01-01")
        try cli("subscription", "pause", "2")
        try cli("subscription", "log", "1", "--on", "2026-02-16")

        let feb = try cli("calendar", "2026-02", "--json").stdout
        #expect(
            feb
                == #"{"month":"2026-02","events":["#
                + #"{"definition_id":1,"kind":"subscription","date":"2026-02-15","name":"Stream","amount":"-12.99","loggable":true,"logged":true,"payment_id":1},"#
                + #"{"definition_id":1,"kind":"goal","date":"2026-02-20","name":"Holiday","amount":"2000.00","loggable":false,"logged":false},"#
                + #"{"definition_id":1,"kind":"income","date":"2026-02-27","name":"Salary","amount":"3000.00","loggable":false,"logged":false},"#
                + #"{"definition_id":1,"kind":"debt","date":"2026-02-28","name":"Card","amount":"-50.00","loggable":true,"logged":false}]}"#
                + "\n")
        let april = try cli("calendar", "2026-04", "--json").stdout
        #expect(april.contains(#""kind":"debt","date":"2026-04-30""#))
        #expect(!april.contains("Holiday") && !april.contains("Loan") && !april.contains("Gym") && !april.contains("Old"))
        #expect(april.contains(#""kind":"subscription","date":"2026-04-15","name":"Stream","amount":"-12.99","loggable":true,"logged":false"#))

        let text = try cli("calendar", "2026-02").stdout
        #expect(text.contains(" 20G "))
        #expect(text.contains(" 28D "))
        #expect(text.contains("2026-02-15  subscription #1  Stream  -12.99  logged (payment #1 on 2026-02-16)"))
        #expect(try cli("income", "list").stdout.contains("#2  Old  1.00  (monthly on day 10)  no anchor date: not projected"))
    }

    @Test(
        "one sign convention for every money kind: what is paid negative, received positive, sizes above zero; the other sign refused; shown the same in every view"
    )
    func signConvention() throws {
        for (arguments, words) in [
            (
                ["subscription", "add", "S", "--amount", "+15.49", "--every", "monthly on day 1"],
                ["a subscription's price is money you pay: write -15.49 (or 15.49 without a sign)"]
            ),
            (["subscription", "add", "S", "--amount", "0", "--every", "monthly on day 1"], ["money you pay"]),
            (["income", "add", "I", "--amount", "-3200", "--every", "monthly on day 25"], ["income is money you receive, written 3200.00"]),
            (["goal", "add", "G", "--target", "-5"], ["a goal's target is an amount above zero"]),
            (["debt", "add", "D", "--balance", "-100", "--minimum", "40", "--day", "3"], ["a debt's balance (what you owe) is an amount above zero"]),
            (["debt", "add", "D", "--balance", "100", "--minimum", "500", "--day", "3"], ["--minimum 500.00 is more than the balance 100.00"]),
            (["debt", "add", "D", "--balance", "100", "--minimum", "+40", "--day", "3"], ["a debt's minimum payment is money you pay"]),
            (["money", "add", "R", "--amount", "0", "--every", "monthly on day 1"], ["is not zero"]),
        ] {
            CLIProcess.expectFailure(try CLIProcess.run(["--db", db] + arguments), status: 2, mentioning: words)
        }
        // Unsigned where the kind says the way: stored and shown by the convention.
        try cli("subscription", "add", "Stream", "--amount", "15.49", "--every", "monthly on day 1 from 2026-01-01")
        try cli("--now", "2026-01-01T12:00Z", "debt", "add", "Card", "--balance", "100", "--minimum", "-75", "--day", "3")
        try cli("income", "add", "Salary", "--amount", "+3200", "--every", "monthly on day 25 from 2026-01-25")
        #expect(try cli("subscription", "list").stdout == "#1  Stream  -15.49  (monthly on day 1 from 2026-01-01)\n")
        #expect(
            try cli("debt", "list").stdout == "#1  Card  balance 100.00, minimum payment -75.00 on day 3; paid 0.00 so far, 2 months to payoff at the minimum\n"
        )
        #expect(try cli("income", "list").stdout.contains("#1  Salary  3200.00"))
        #expect(try cli("subscription", "log", "1", "--on", "2026-02-01").stdout.hasPrefix("payment #1: subscription 1, -15.49 on 2026-02-01"))
        #expect(try cli("debt", "log", "1", "--on", "2026-02-03", "--amount", "75").stdout.hasPrefix("payment #2: debt 1, -75.00 on 2026-02-03"))
        let calendar = try cli("calendar", "2026-02").stdout
        for shown in ["subscription #1  Stream  -15.49", "debt         #1  Card  -75.00", "income       #1  Salary  3200.00"] {
            #expect(calendar.contains(shown), "\(shown) in \(calendar)")
        }
        let agenda = try cli("agenda", "--from", "2026-02-03", "--days", "1").stdout
        #expect(agenda.contains("#1  Card  -75.00"), "\(agenda)")
        let payments = try cli("payment", "list", "--json").stdout
        #expect(payments.contains(#""amount":"-15.49""#) && payments.contains(#""amount":"-75.00""#), "\(payments)")
        #expect(try cli("debt", "list", "--json").stdout.contains(#""balance":"25.00","minimum":"-75.00""#))
        // Edits by the same convention; a minimum above the balance is refused.
        CLIProcess.expectFailure(try CLIProcess.run(["--db", db, "subscription", "edit", "1", "--amount", "+16"]), status: 2, mentioning: ["money you pay"])
        CLIProcess.expectFailure(
            try CLIProcess.run(["--db", db, "debt", "edit", "1", "--minimum", "50"]), status: 65, mentioning: ["more than the balance 25.00"])
        try cli("subscription", "edit", "1", "--amount", "16")
        #expect(try cli("subscription", "list").stdout.contains("Stream  -16.00"))
    }

    @Test("logging twice in one period is refused for a subscription, and for a debt's minimum, naming the payment; the next period is allowed")
    func logging() throws {
        try cli("subscription", "add", "Stream", "--amount", "-12.99", "--every", "monthly on day 31 from 2026-01-31")
        try cli("--now", "2026-01-01T12:00Z", "debt", "add", "Card", "--balance", "100", "--minimum", "40", "--day", "31")
        #expect(
            try cli("subscription", "log", "1", "--on", "2026-02-28").stdout
                == "payment #1: subscription 1, -12.99 on 2026-02-28, for the period 2026-02-28 to 2026-03-30\n")
        let again = try CLIProcess.run(["--db", db, "subscription", "log", "1", "--on", "2026-03-30"])
        CLIProcess.expectFailure(again, status: 65, mentioning: ["already logged", "payment #1", "2026-02-28"])
        try cli("subscription", "log", "1", "--on", "2026-03-31")

        try cli("debt", "log", "1", "--on", "2026-02-03")
        let twice = try CLIProcess.run(["--db", db, "debt", "log", "1", "--on", "2026-02-27"])
        CLIProcess.expectFailure(
            twice, status: 65, mentioning: ["debt 1 is already logged for the month 2026-02", "payment #3", "give --amount for an extra payment"])
        try cli("debt", "log", "1", "--on", "2026-03-03")
        // Two payments of 40 leave 20; the calendar still shows the debt, logged in February.
        #expect(try cli("debt", "list", "--json").stdout.contains(#""balance":"20.00""#))
        #expect(
            try cli("calendar", "2026-02", "--json").stdout.contains(
                #""kind":"debt","date":"2026-02-28","name":"Card","amount":"-40.00","loggable":true,"logged":true"#))
        // Before the first renewal there is no period to log.
        CLIProcess.expectFailure(
            try CLIProcess.run(["--db", db, "subscription", "log", "1", "--on", "2026-01-01"]), status: 65,
            mentioning: ["no renewal"])
        // Paid off: no longer due, but the months logged stay, marked, in the calendar and the agenda.
        try cli("debt", "pay-off", "1")
        #expect(!(try cli("calendar", "2026-04", "--json").stdout.contains("Card")))
        #expect(
            try cli("calendar", "2026-02", "--json").stdout.contains(
                #""kind":"debt","date":"2026-02-28","name":"Card","amount":"-40.00","loggable":true,"logged":true"#))
        let text = try cli("calendar", "2026-03").stdout
        #expect(text.contains("#1  Card") && text.contains("logged"), "\(text)")
        #expect(try cli("agenda", "--from", "2026-03-31", "--days", "1").stdout.contains("[x] debt"))
    }

    @Test(
        "payments are money paid: shown negative, written -130 or 130; +, zero and a date ahead refused; over a debt's balance clears it and says by how much; paid off or paused: 65"
    )
    func paymentRules() throws {
        try cli("subscription", "add", "Stream", "--amount", "-12.99", "--every", "monthly on day 1 from 2026-01-01")
        try cli("--now", "2026-01-01T12:00Z", "debt", "add", "Card", "--balance", "100", "--minimum", "40", "--day", "3")
        for amount in ["+100", "0", "0.00"] {
            CLIProcess.expectFailure(
                try CLIProcess.run(["--db", db, "debt", "log", "1", "--on", "2026-02-03", "--amount", amount]), status: 2,
                mentioning: ["a payment is money you pay: write "])
            CLIProcess.expectFailure(
                try CLIProcess.run(["--db", db, "subscription", "log", "1", "--on", "2026-02-01", "--amount", amount]),
                status: 2, mentioning: ["a payment is money you pay"])
        }
        // Money is logged when it was paid, not ahead (as a habit is done on its day).
        let ahead = String(ISO8601.format(Instant(Date()).adding(seconds: 3 * 86_400), utcOffset: 0).prefix(10))
        CLIProcess.expectFailure(
            try CLIProcess.run(["--db", db, "debt", "log", "1", "--on", ahead, "--amount", "20"]), status: 65,
            mentioning: ["\(ahead) is in the future: a payment is logged on the day it is made, or after"])
        // Nothing of those was logged: the month's one payment is still free, the balance whole.
        #expect(try cli("debt", "list", "--json").stdout.contains(#""balance":"100.00""#))
        #expect(
            try cli("debt", "log", "1", "--on", "2026-02-03", "--amount", "130").stdout
                == "payment #1: debt 1, -130.00 on 2026-02-03, for the month 2026-02; debt 1 is paid off (30.00 more than its balance of 100.00)\n")
        #expect(try cli("debt", "list", "--json").stdout.contains(#""balance":"0.00""#))
        CLIProcess.expectFailure(
            try CLIProcess.run(["--db", db, "debt", "log", "1", "--on", "2026-03-03"]), status: 65,
            mentioning: ["debt 1 is paid off"])
        try cli("subscription", "pause", "1")
        CLIProcess.expectFailure(
            try CLIProcess.run(["--db", db, "subscription", "log", "1", "--on", "2026-02-01"]), status: 65,
            mentioning: ["subscription 1 is paused"])
        try cli("subscription", "resume", "1")
        #expect(try cli("subscription", "log", "1", "--on", "2026-02-01").stdout.hasPrefix("payment #2: subscription 1, -12.99 on 2026-02-01"))
        #expect(try cli("payment", "list").stdout.contains("#2  2026-02-01  subscription 1 Stream  -12.99  for 2026-02-01"))
        // A habit is not done ahead of its day.
        try cli("habit", "add", "Walk", "--days", "mon,tue,wed,thu,fri,sat,sun")
        CLIProcess.expectFailure(
            try CLIProcess.run(["--db", db, "habit", "done", "1", "--on", ahead]), status: 65,
            mentioning: ["is in the future"])
        try cli("habit", "done", "1")
    }

    @Test("read-only commands never create a database: 66 naming the path; a write neither, into a folder not there; the first write creates it")
    func readOnlyNeverCreates() throws {
        let missing = folder.path("mistyped/path/dawnlet.sqlite")
        for command in [["today"], ["preview"], ["todo", "list"], ["money", "month", "2026-12"], ["missed"], ["debt", "list"]] {
            CLIProcess.expectFailure(try CLIProcess.run(["--db", missing] + command), status: 66, mentioning: ["no database at \(missing)"])
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("mistyped")))
        let doctor = try CLIProcess.run(["--db", missing, "doctor"])
        #expect(doctor.stdout.contains("not created yet"), "\(doctor.stdout)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("mistyped")))
        CLIProcess.expectFailure(try CLIProcess.run(["--db", missing, "todo", "add", "First"]), status: 66, mentioning: ["no folder"])
        #expect(!FileManager.default.fileExists(atPath: folder.path("mistyped")))
        try FileManager.default.createDirectory(atPath: folder.path("mistyped/path"), withIntermediateDirectories: true)
        #expect(try CLIProcess.run(["--db", missing, "todo", "add", "First"]).status == 0)
        #expect(try CLIProcess.run(["--db", missing, "today"]).status == 0)
    }

    @Test("preview --to DATE includes that day, as occurrences --to does")
    func previewToDate() throws {
        try cli("todo", "add", "Late", "--due", "2026-12-03T23:30")
        let text = try cli("--tz", "UTC", "preview", "--now", "2026-12-01T00:00Z", "--from", "2026-12-01", "--to", "2026-12-03").stdout
        #expect(text.contains("Late"), "\(text)")
        let before = try cli("--tz", "UTC", "preview", "--now", "2026-12-01T00:00Z", "--from", "2026-12-01", "--to", "2026-12-03T23:00").stdout
        #expect(!before.contains("Late"))
        // Date words, as every date option takes them: today (Tue) to thu is the same window.
        #expect(try cli("--tz", "UTC", "--now", "2026-12-01T00:00Z", "preview", "--from", "today", "--to", "thu").stdout == text)
        #expect(try cli("--tz", "UTC", "--now", "2026-12-01T00:00Z", "preview", "--from", "today", "--to", "thu 23:00").stdout == before)
        CLIProcess.expectFailure(
            try CLIProcess.run(["--db", db, "preview", "--from", "someday", "--to", "thu"]), status: 2, mentioning: ["--from \"someday\" is not a date or time"]
        )
    }

    @Test("preview: a week across the spring-forward change in Europe/Berlin")
    func previewBerlin() throws {
        try populateBerlin()
        let text = try cli("--tz", "Europe/Berlin", "preview", "--now", "2026-03-25T12:00", "--from", "2026-03-26T00:00", "--to", "2026-03-31T00:00").stdout
        #expect(text == (try snapshot("preview-berlin-spring.txt")))
    }

    @Test("preview --all adds what is suppressed, with the reason; --json has every reminder's documented keys")
    func previewAll() throws {
        try populateBerlin()
        let result = try cli(
            "--tz", "Europe/Berlin", "preview", "--now", "2026-03-25T12:00", "--from", "2026-03-28T00:00",
            "--to", "2026-03-29T12:00", "--all", "--json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let reminders = try #require(document["reminders"] as? [[String: Any]])
        #expect(
            reminders.map { $0["key"] as? String } == [
                "habit:1:2026-03-28:0m", "digest:2026-03-28", "todo:3:2026-03-28:0m", "habit:1:2026-03-29:0m", "digest:2026-03-29",
                "subscription:1:2026-03-29:0m",
            ])
        let skipped = reminders[2]
        #expect(skipped["status"] as? String == "suppressed" && skipped["reason"] as? String == "skipped")
        #expect(skipped["source"] as? String == "stored" && skipped["fire_at"] as? String == "2026-03-28T19:00:00+01:00")
        #expect(reminders[5]["reason"] as? String == "logged")
        #expect(reminders[3]["fire_at"] as? String == "2026-03-29T03:30:00+02:00")
        for r in reminders {
            for key in ["key", "fire_at", "kind", "title", "occurrence_date", "source", "definition_id", "channels"] {
                #expect(r[key] != nil, "\(key)")
            }
        }
        // Without --all nothing suppressed appears, and the keys of the rest are the same.
        let plain = try cli(
            "--tz", "Europe/Berlin", "preview", "--now", "2026-03-25T12:00", "--from", "2026-03-28T00:00",
            "--to", "2026-03-29T12:00", "--json"
        ).stdout
        #expect(!plain.contains("suppressed"))
        #expect(plain.contains("\"key\":\"digest:2026-03-29\""))
    }

    @Test("preview: the spring-forward and fall-back days in America/New_York")
    func previewNewYork() throws {
        try cli("habit", "add", "Meds", "--days", "mon,tue,wed,thu,fri,sat,sun", "--at", "02:30", "--from", "2026-03-01")
        try cli("habit", "add", "Night pill", "--days", "sun", "--at", "01:30", "--from", "2026-10-01")
        try cli("event", "add", "Standup", "--start", "2026-03-02T09:30", "--every", "weekdays", "--remind", "1d")
        let spring = try cli("--tz", "America/New_York", "preview", "--now", "2026-03-06T12:00", "--from", "2026-03-07T00:00", "--to", "2026-03-09T12:00")
        #expect(spring.stdout == (try snapshot("preview-new-york-spring.txt")))
        let fall = try cli("--tz", "America/New_York", "preview", "--now", "2026-10-30T12:00", "--from", "2026-11-01T00:00", "--to", "2026-11-01T12:00")
        #expect(fall.stdout == (try snapshot("preview-new-york-fall.txt")))
    }

    @Test("the config's zone and digest time drive the plan; --tz overrides the zone")
    func configDriven() throws {
        let config = folder.path("config.json5")
        try "{ timeZone: 'Asia/Kolkata', morningDigest: '07:15', route: { default: ['command'] } }".write(toFile: config, atomically: true, encoding: .utf8)
        try cli("todo", "add", "Pay", "--due", "2026-12-01")
        let json = try cli("--config", config, "preview", "--now", "2026-11-30T00:00", "--days", "2", "--json").stdout
        #expect(json.contains(#""fire_at":"2026-12-01T07:15:00+05:30""#))
        #expect(json.contains(#""channels":["command"]"#))
        let overridden = try cli("--config", config, "--tz", "UTC", "preview", "--now", "2026-11-30T00:00", "--days", "2", "--json").stdout
        #expect(overridden.contains(#""fire_at":"2026-12-01T07:15:00+00:00""#))
    }

    @Test(
        "config errors: exit 78 naming the file, the line and column, the key and the problem (a range says the range)",
        arguments: [
            ("{ horizon: 14 }", [":1:3: horizon: must be a string, not a number"]),
            ("{ colour: 'red' }", [":1:3: colour: unknown key"]),
            ("{ timeZone: 'Mars/Olympus' }", [":1:3: timeZone: unknown time zone"]),
            ("{ reminders: { event: ['soon'] } }", [":1:24: reminders.event[0]: not an offset"]),
            ("{\n  horizon: '14d',\n", [":3:1: the { opened at line 1, column 1 is never closed with }"]),
            ("{\n  horizon: '400d'\n}", [":2:3: horizon: must be between 1h and 366d"]),
            ("{ horizon: '1d',\n  horizon: '2d' }", [":2:3: horizon is given twice (first at line 1, column 3); keep one"]),
            ("{ channels: { desktop: { snooze: '10m', snooze: '1m' } } }", ["channels.desktop.snooze is given twice"]),
            ("{ reminders: { event: ['10m' '1h'] } }", [":1:30: ''' after item 1 of reminders.event: a comma or ] should come first"]),
            ("{ timeZone: Europe/Berlin }", [":1:13: Europe is not a value: put text in quotes"]),
            ("// settings\n{ /* ok */ graceWindow: '8d', }", [":2:12: graceWindow: must be at most 7d"]),
        ])
    func configErrors(_ text: String, _ words: [String]) throws {
        let config = folder.path("config.json5")
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        let result = try CLIProcess.run(["--db", db, "--config", config, "today"])
        CLIProcess.expectFailure(result, status: 78, mentioning: [config] + words)
    }

    @Test("a missing --config file is an error; a missing default file means the defaults")
    func missingConfig() throws {
        CLIProcess.expectFailure(
            try CLIProcess.run(["--db", db, "--config", folder.path("nope.json5"), "today"]), status: 78,
            mentioning: ["no such config file"])
        let result = try CLIProcess.run(["--db", db, "todo", "add", "x"], environment: ["XDG_CONFIG_HOME": folder.path("empty")])
        #expect(result.status == 0)
    }

    @Test(
        "preview bad input",
        arguments: [
            (["preview", "--now", "yesterday"], ["--now"]),
            (["preview", "--from", "2026-12-01"], ["--from and --to together"]),
            (["preview", "--days", "0"], ["--days"]),
            (["preview", "--days", "400"], ["--days"]),
            (["preview", "--from", "2026-12-05", "--to", "2026-12-01"], ["before"]),
            (["preview", "--from", "2026-01-01", "--to", "2027-06-01"], ["longer than 366 days"]),
        ] as [([String], [String])])
    func previewBadInput(_ arguments: [String], _ words: [String]) throws {
        CLIProcess.expectFailure(try CLIProcess.run(["--db", db] + arguments), status: 2, mentioning: words)
    }

    func populateBerlin() throws {
        for line in [
            ["event", "add", "Standup", "--start", "2026-03-23T09:30", "--duration", "15m", "--every", "weekdays"],
            ["event", "add", "Offsite", "--start", "2026-03-27"],
            ["habit", "add", "Meds", "--days", "mon,tue,wed,thu,fri,sat,sun", "--at", "02:30", "--from", "2026-03-01"],
            ["todo", "add", "Tax form", "--due", "2026-03-25"],
            ["todo", "add", "Call plumber", "--due", "2026-03-27T11:00", "--remind", "1d", "--remind", "0m"],
            ["todo", "add", "Water plants", "--every", "weekly on wed,sat from 2026-03-01 at 19:00"],
            ["money", "add", "Rent", "--amount", "-950", "--every", "monthly on day 31 from 2026-01-01"],
            ["subscription", "add", "Stream", "--amount", "-12.99", "--every", "monthly on day 29 from 2026-01-29"],
            // Added in March, so that they exist in the week previewed.
            ["--now", "2026-03-01T12:00Z", "debt", "add", "Card", "--balance", "1000", "--minimum", "50", "--day", "31"],
            ["--now", "2026-03-01T12:00Z", "goal", "add", "Holiday", "--target", "2000", "--by", "2026-04-03"],
            ["subscription", "log", "1", "--on", "2026-03-29"],
            ["todo", "skip", "3", "--on", "2026-03-28"],
            ["habit", "done", "1", "--on", "2026-03-26"],
        ] { try cli(line) }
    }
}
