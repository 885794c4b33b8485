import DawnletTestSupport
import Foundation
import Testing

/// The days ahead: every kind by day with status and source; `today` is the
/// agenda of one day, now with the money calendar's four sources.
@Suite struct AgendaTests {
    let workspace: Workspace
    var db: String { workspace.db }

    init() throws {
        var workspace = try Workspace()
        let config = workspace.folder.path("config.json5")
        let vdir = workspace.folder.path("work")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        try """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n\
        BEGIN:VEVENT\r\nUID:review@example.org\r\nSUMMARY:Review\r\nDTSTART:20261202T130000Z\r\nEND:VEVENT\r\n\
        END:VCALENDAR\r\n
        """.write(toFile: vdir + "/review.ics", atomically: true, encoding: .utf8)
        try "{ timeZone: \"UTC\", calendars: [ { name: \"work\", path: \"\(vdir)\" } ] }".write(toFile: config, atomically: true, encoding: .utf8)
        workspace.globals = ["--config", config, "--now", "2026-12-01T08:00Z"]
        self.workspace = workspace
    }

    @discardableResult
    func cli(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        try workspace.cli(arguments, sourceLocation: sourceLocation)
    }

    func populate() throws {
        try cli("todo", "add", "Tax return", "--due", "2026-11-20")
        try cli("todo", "add", "Water", "--every", "daily from 2026-11-01")
        try cli("event", "add", "Standup", "--start", "2026-11-30T09:30", "--every", "weekdays")
        try cli("habit", "add", "Walk", "--days", "tue,thu", "--at", "07:00", "--from", "2026-11-01")
        try cli("money", "add", "Rent", "--amount", "-950", "--every", "monthly on day 1 from 2026-01-01")
        try cli("subscription", "add", "Stream", "--amount", "-12.99", "--every", "monthly on day 2 from 2026-01-02")
        try cli("debt", "add", "Card", "--balance", "100", "--minimum", "40", "--day", "3")
        try cli("goal", "add", "Bike", "--target", "800", "--by", "2026-12-03")
        try cli("income", "add", "Salary", "--amount", "3000", "--every", "monthly on day 3 from 2026-01-03")
        // Logged on the day it was paid (a date ahead is refused): seen from that day.
        let logged = try CLIProcess.run(["--db", db, "--now", "2026-12-02T12:00Z", "subscription", "log", "1", "--on", "2026-12-02"])
        #expect(logged.status == 0, "\(logged.stderr)")
        try cli("todo", "done", "2", "--on", "2026-12-02")
        try cli("event", "skip", "1", "--on", "2026-12-03")
    }

    @Test("three days of every kind: statuses (open, done, skipped, logged, overdue), sources, calendar items in their place")
    func threeDays() throws {
        try populate()
        #expect(
            try cli("agenda", "--days", "3").stdout == """
                2026-12-01 Tuesday
                  07:00  [ ] habit #1  Walk
                  09:30  [ ] event #1  Standup
                         [ ] todo  #1  Tax return  OVERDUE since 2026-11-20
                         [ ] todo  #2  Water
                         [ ] bill  #1  Rent  -950.00

                2026-12-02 Wednesday
                  09:30  [ ] event        #1  Standup
                  13:00  [ ] event        ics:work  Review
                         [x] todo         #2  Water
                         [x] subscription #1  Stream  -12.99  logged (payment #1 on 2026-12-02)

                2026-12-03 Thursday
                  07:00  [ ] habit  #1  Walk
                  09:30  [-] event  #1  Standup  (skipped)
                         [ ] todo   #2  Water
                         [ ] debt   #1  Card  -40.00
                         [ ] goal   #1  Bike  800.00
                         [ ] income #1  Salary  3000.00

                """)
        let json = try cli("agenda", "--from", "2026-12-02", "--days", "1", "--json").stdout
        #expect(json.hasPrefix(#"{"days":[{"date":"2026-12-02","items":["#))
        #expect(
            json.contains(
                #"{"kind":"subscription","definition_id":1,"title":"Stream","time":null,"status":"logged","overdue":false,"source":"virtual","amount":"-12.99","payment_id":1}"#
            ))
        #expect(
            json.contains(
                #"{"kind":"event","definition_id":null,"title":"Review","time":"13:00","status":"open","overdue":false,"source":"ics:work"}"#))
    }

    @Test("today, agenda, find and preview --json name one id alike: definition_id is what the item's commands take; occurrence_id a day's stored row")
    func jsonIds() throws {
        try cli("todo", "add", "Water", "--every", "daily")
        try cli("todo", "add", "Bins", "--due", "2026-12-01T09:00")
        try cli("todo", "done", "2")
        func items(_ result: CLIResult) throws -> [[String: Any]] {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            return try #require(object["items"] as? [[String: Any]])
        }
        let today = try items(try cli("today", "--json"))
        let bins = try #require(today.first { $0["title"] as? String == "Bins" })
        // Its stored row (1) is not its id (2): a command given the row would mark Water.
        #expect(bins["definition_id"] as? Int == 2 && bins["occurrence_id"] as? Int == 1, "\(bins)")
        #expect(today.allSatisfy { $0["id"] == nil }, "no \"id\" that means something else: \(today)")
        let water = try #require(today.first { $0["title"] as? String == "Water" })
        #expect(water["definition_id"] as? Int == 1 && water["occurrence_id"] == nil, "no stored row, no occurrence_id: \(water)")
        // What today gives, todo reopen takes.
        try cli("todo", "reopen", "\(try #require(bins["definition_id"] as? Int))")
        #expect(try items(try cli("today", "--json")).first { $0["title"] as? String == "Bins" }?["status"] as? String == "open")
        #expect(try items(try cli("today", "--json")).first { $0["title"] as? String == "Water" }?["status"] as? String == "open")
        // The same name in agenda, find and preview.
        let agenda = try #require(
            try JSONSerialization.jsonObject(with: Data(try cli("agenda", "--days", "1", "--json").stdout.utf8)) as? [String: Any])
        let day = try #require((agenda["days"] as? [[String: Any]])?.first?["items"] as? [[String: Any]])
        #expect(day.first { $0["title"] as? String == "Bins" }?["definition_id"] as? Int == 2)
        #expect(try cli("find", "bins", "--json").stdout == #"{"found":[{"kind":"todo","definition_id":2,"title":"Bins","detail":"2026-12-01 09:00"}]}"# + "\n")
        let preview = try cli("preview", "--days", "1", "--json").stdout
        #expect(preview.contains(#"{"kind":"todo","definition_id":1,"title":"Water","#), "the digest's item: \(preview)")
        #expect(preview.contains(#""key":"todo:2:2026-12-01:0m","fire_at":"2026-12-01T09:00:00+00:00","kind":"todo","title":"Bins","#), "\(preview)")
        #expect(preview.contains(#""title":"Bins","occurrence_date":"2026-12-01","source":"virtual","definition_id":2,"#), "\(preview)")
    }

    @Test(
        "money month --json names ids as they are: definition_id what the line's commands take (not a bill's row, occurrence_id), payment_id what payment delete takes"
    )
    func moneyMonthIds() throws {
        try cli("money", "add", "Stream", "--amount", "-12.99", "--every", "monthly on day 2 from 2026-11-02")
        try cli("money", "add", "Rent", "--amount", "-950", "--every", "monthly on day 1 from 2026-12-01")
        try cli("subscription", "add", "Music", "--amount", "-9.99", "--every", "monthly on day 1 from 2026-12-01")
        try cli("subscription", "log", "1", "--on", "2026-12-01")
        // Stream's November row comes first: no December row has its recurring transaction's id.
        try cli("money", "month", "2026-11")
        let json = try cli("money", "month", "2026-12", "--json").stdout
        #expect(
            json == #"{"month":"2026-12","lines":["#
                + #"{"date":"2026-12-01","kind":"bill","definition_id":2,"occurrence_id":3,"name":"Rent","amount":"-950.00","status":"posted"},"#
                + #"{"date":"2026-12-01","kind":"subscription","definition_id":1,"payment_id":1,"name":"Music","amount":"-9.99","status":"logged"},"#
                + #"{"date":"2026-12-02","kind":"bill","definition_id":1,"occurrence_id":2,"name":"Stream","amount":"-12.99","status":"posted"}],"#
                + #""in":"0.00","out":"-972.98","net":"-972.98"}"# + "\n", "\(json)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let lines = try #require(document["lines"] as? [[String: Any]])
        #expect(lines.allSatisfy { $0["id"] == nil && $0["source_id"] == nil }, "no \"id\" that means something else: \(lines)")
        // What a line gives, its commands take: Rent's definition_id pays Rent, the payment's id deletes it.
        let rent = try #require(lines.first { $0["name"] as? String == "Rent" }?["definition_id"] as? Int)
        #expect(try cli("money", "paid", "\(rent)", "--on", "2026-12-01").stdout == "recurring transaction 2 on 2026-12-01: paid\n")
        let payment = try #require(lines.first { $0["name"] as? String == "Music" }?["payment_id"] as? Int)
        #expect(try cli("payment", "delete", "\(payment)").stdout == "payment #1 deleted: subscription 1 is unlogged for the period from 2026-12-01\n")
    }

    @Test("an event with a duration shows its end, the same day or a later one; find shows a one-off's time")
    func eventEnd() throws {
        try cli("event", "add", "Meet", "--start", "2026-12-01T09:30", "--duration", "45m")
        try cli("event", "add", "Party", "--start", "2026-12-01T23:00", "--duration", "3h", "--every", "weekly on tue")
        let text = try cli("agenda", "--days", "1").stdout
        #expect(text.contains("09:30  [ ] event #1  Meet  until 10:15\n") && text.contains("23:00  [ ] event #2  Party  until 2026-12-02 02:00\n"), "\(text)")
        let json = try cli("today", "--json").stdout
        #expect(json.contains(#""title":"Meet","time":"09:30","status":"open","overdue":false,"source":"virtual","end":"10:15""#), "\(json)")
        #expect(json.contains(#""end":"2026-12-02T02:00""#))
        #expect(try cli("find", "meet").stdout == "event #1  Meet  (2026-12-01 09:30)\n")
        #expect(try cli("find", "party").stdout == "event #2  Party  (weekly on tue from 2026-12-01 at 23:00)\n")
    }

    @Test("today is the agenda's day, the four money sources included; defaults to seven days; bad --days is 2")
    func todayAndDefaults() throws {
        try populate()
        let agendaDay = try cli("agenda", "--from", "2026-12-03", "--days", "1").stdout
        #expect(try cli("today", "--date", "2026-12-03").stdout == agendaDay)
        #expect(agendaDay.contains("debt   #1  Card") && agendaDay.contains("income #1  Salary"))
        #expect(try cli("agenda").stdout.components(separatedBy: "\n").filter { $0.hasPrefix("2026-12-") }.count == 7)
        for days in ["0", "367", "x"] {
            CLIProcess.expectFailure(try CLIProcess.run(["--db", db, "agenda", "--days", days]), status: 2, mentioning: ["--days"])
        }
    }

    @Test("today and agenda keep their answer in XDG_RUNTIME_DIR, and use it only while nothing it was read from has changed")
    func keptAnswer() throws {
        try populate()
        let runtime = workspace.folder.path("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        let vdir = workspace.folder.path("work")
        func run(_ arguments: String...) throws -> String { try run(arguments) }
        func run(_ arguments: [String]) throws -> String {
            let result = try CLIProcess.run(["--db", db] + workspace.globals + arguments, environment: ["XDG_RUNTIME_DIR": runtime])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout
        }
        /// Files written a minute ago: a write within the last moments would keep nothing.
        func settle() throws {
            for file in [db, db + "-wal", workspace.folder.path("config.json5"), vdir, vdir + "/review.ics"]
            where FileManager.default.fileExists(atPath: file) {
                try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: file)
            }
        }
        let kept = { (command: String) in
            ((try? FileManager.default.contentsOfDirectory(atPath: runtime + "/dawnlet-remind")) ?? []).first { $0.hasPrefix(command + "-") }
                .map { runtime + "/dawnlet-remind/" + $0 }
        }
        let fresh = try cli("today", "--json").stdout
        // Just written: nothing is kept, the answer is made each time. (Its time set ahead, so
        // that it is "just written" however slowly this machine runs the next call.)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 5)], ofItemAtPath: db)
        #expect(try run("today", "--json") == fresh)
        #expect(kept("today") == nil)
        try settle()
        #expect(try run("today", "--json") == fresh)
        let file = try #require(kept("today"))
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect((try FileManager.default.attributesOfItem(atPath: runtime + "/dawnlet-remind")[.posixPermissions] as? Int) == 0o700)
        // What is kept is what the next call prints: changed by hand, the change shows.
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try text.replacingOccurrences(of: "Water", with: "WATER").write(toFile: file, atomically: false, encoding: .utf8)
        #expect(try run("today", "--json").contains("WATER"))
        // Asked otherwise (as text, another day, in colour), it is made again.
        #expect(try run("today") == (try cli("today").stdout))
        #expect(try run("today", "--date", "2026-12-02", "--json") == (try cli("today", "--date", "2026-12-02", "--json").stdout))
        #expect(try run("--color", "always", "today") == (try cli("--color", "always", "today").stdout))
        // A write to the database, an edit of a calendar file in place, an edit of the config:
        // each is seen at once.
        try settle()
        _ = try run("today", "--json")
        try text.replacingOccurrences(of: "Water", with: "WATER").write(toFile: file, atomically: false, encoding: .utf8)
        try cli("todo", "done", "2", "--on", "2026-12-01")
        let done = try run("today", "--json")
        let doneMade = try cli("today", "--json").stdout
        #expect(!done.contains("WATER") && done == doneMade && done != fresh)
        let tomorrow = ["today", "--date", "2026-12-02", "--json"]
        let edits: [(String, (String) -> String)] = [
            (vdir + "/review.ics", { $0.replacingOccurrences(of: "Review", with: "Rev1ew") }),  // the same size: its time tells
            (workspace.folder.path("config.json5"), { _ in "{ timeZone: \"UTC\" }" }),
        ]
        for (edit, change) in edits {
            try settle()
            let before = try run(tomorrow)
            let keptText = try String(contentsOfFile: file, encoding: .utf8)
            try keptText.replacingOccurrences(of: "Water", with: "WATER").write(toFile: file, atomically: false, encoding: .utf8)
            #expect(try run(tomorrow).contains("WATER"))
            let old = try String(contentsOfFile: edit, encoding: .utf8)
            try change(old).write(toFile: edit, atomically: false, encoding: .utf8)
            let after = try run(tomorrow)
            let made = try workspace.cli(tomorrow).stdout
            #expect(!after.contains("WATER") && after == made && after != before, "\(edit)")
        }
        #expect(try run(tomorrow).contains("Review") == false)
        // agenda keeps its own.
        try settle()
        let week = try cli("agenda").stdout
        #expect(try run("agenda") == week)
        #expect(kept("agenda") != nil)
        #expect(try run("agenda") == week)
    }

    @Test(
        "a kept answer serves all day: past a todo's time it is used again, not made again, and reads as a new one made then would (text and JSON, today and agenda); a new day is made anew"
    )
    func keptAnswerAllDay() throws {
        let runtime = workspace.folder.path("runtime-day")
        let config = workspace.folder.path("plain.json5")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        try "{ timeZone: \"UTC\" }".write(toFile: config, atomically: true, encoding: .utf8)
        func run(_ at: String, _ arguments: [String], kept: Bool) throws -> String {
            let result = try CLIProcess.run(
                ["--db", db, "--config", config, "--now", at] + arguments, environment: kept ? ["XDG_RUNTIME_DIR": runtime] : [:])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout
        }
        // Two daily todos (repeating: never overdue) and two of today only (overdue from their times).
        for add in [
            ["todo", "add", "Pills", "--every", "daily at 08:00"], ["todo", "add", "Plants", "--every", "daily at 18:00"],
            ["todo", "add", "Call the bank", "--due", "2026-12-01T08:30"], ["todo", "add", "Post office", "--due", "2026-12-01T18:30"],
        ] {
            _ = try run("2026-12-01T07:00Z", add, kept: false)
        }
        // Written a minute ago: a write within the last moments would keep nothing.
        for file in [db, db + "-wal", config] where FileManager.default.fileExists(atPath: file) {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)], ofItemAtPath: file)
        }
        /// The kept file, and what tells a rewrite of it (each is a new file put in its place).
        func keptFile(_ command: String) throws -> (inode: UInt64, modified: Int) {
            let name = try #require(try FileManager.default.contentsOfDirectory(atPath: runtime + "/dawnlet-remind").first { $0.hasPrefix(command + "-") })
            var info = stat()
            try #require(stat(runtime + "/dawnlet-remind/" + name, &info) == 0)
            return (UInt64(info.st_ino), info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec)
        }
        for arguments in [["today"], ["today", "--json"], ["agenda", "--days", "2"], ["agenda", "--days", "2", "--json"]] {
            let command = arguments[0]
            #expect(try run("2026-12-01T09:00Z", arguments, kept: true) == (try run("2026-12-01T09:00Z", arguments, kept: false)))
            let made = try keptFile(command)
            var outputs: [String] = []
            for at in ["2026-12-01T10:00Z", "2026-12-01T18:29Z", "2026-12-01T19:00Z"] {
                let output = try run(at, arguments, kept: true)
                // The answer kept at 09:00 printed, as a new plan prints it at this moment.
                #expect(output == (try run(at, arguments, kept: false)), "\(arguments) at \(at)")
                let now = try keptFile(command)
                #expect(now.inode == made.inode && now.modified == made.modified, "\(arguments) at \(at): made again")
                outputs.append(output)
            }
            // What the clock changes: the one-off at 18:30 is overdue from then, the daily ones never.
            if arguments.last == "--json" {
                #expect(outputs[1].contains(#""title":"Post office","time":"18:30","status":"open","overdue":false"#), "\(outputs[1])")
                #expect(outputs[2].contains(#""title":"Post office","time":"18:30","status":"open","overdue":true"#), "\(outputs[2])")
                #expect(outputs[2].contains(#""title":"Plants","time":"18:00","status":"open","overdue":false"#), "\(outputs[2])")
            } else {
                #expect(outputs[1].contains("#4  Post office\n") && outputs[1].contains("#3  Call the bank  OVERDUE since 08:30\n"), "\(outputs[1])")
                #expect(outputs[2].contains("#4  Post office  OVERDUE since 18:30\n") && outputs[2].contains("#2  Plants\n"), "\(outputs[2])")
            }
            // A new day is another question: made anew.
            #expect(try run("2026-12-02T09:00Z", arguments, kept: true) == (try run("2026-12-02T09:00Z", arguments, kept: false)))
            let again = try keptFile(command)
            #expect(again.inode != made.inode || again.modified != made.modified)
        }
    }

    @Test("today and agenda only read: the database file is byte for byte as before, months never laid out stay so")
    func onlyReads() throws {
        try populate()
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        try cli("agenda", "--days", "60")
        try cli("today", "--date", "2027-03-01")
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before)
    }
}
