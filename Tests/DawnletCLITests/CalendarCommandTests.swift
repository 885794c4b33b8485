import DawnletTestSupport
import Foundation
import Testing

/// External calendar files in `preview` and `today` (docs/calendars.md): read at planning time,
/// shown with their source, never written to the database; a broken file is a warning, not a
/// failure.
@Suite struct CalendarCommandTests {
    let folder: TemporaryFolder
    let db: String
    let config: String

    init() throws {
        folder = try TemporaryFolder()
        db = folder.path("dawnlet.sqlite")
        config = folder.path("config.json5")
        let vdir = folder.path("work")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        try """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n\
        BEGIN:VEVENT\r\nUID:standup@example.org\r\nSUMMARY:Standup\r\nDTSTART;TZID=Europe/Berlin:20261201T093000\r\n\
        RRULE:FREQ=DAILY;COUNT=3\r\nEXDATE;TZID=Europe/Berlin:20261202T093000\r\nEND:VEVENT\r\n\
        BEGIN:VEVENT\r\nUID:dentist@example.org\r\nSUMMARY:Dentist\r\nDTSTART:20261202T130000Z\r\n\
        BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT1H\r\nEND:VALARM\r\nEND:VEVENT\r\n\
        BEGIN:VEVENT\r\nUID:holiday@example.org\r\nSUMMARY:Holiday\r\nDTSTART;VALUE=DATE:20261203\r\nEND:VEVENT\r\n\
        END:VCALENDAR\r\n
        """.write(toFile: vdir + "/events.ics", atomically: true, encoding: .utf8)
        try "not a calendar\n".write(toFile: vdir + "/broken.ics", atomically: true, encoding: .utf8)
        try """
        { timeZone: "Europe/Berlin", calendars: [ { name: "work", path: "\(vdir)", channels: ["command"] } ] }
        """.write(toFile: config, atomically: true, encoding: .utf8)
    }

    /// `preview --json` from `from` to `to` of a calendar `name` holding these VEVENTs, alone in
    /// its config: each reminder as "KEY FIRE_AT".
    func previewCalendar(_ name: String, zone: String, events: String, from: String, to: String) throws -> [String] {
        let vdir = folder.path(name)
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        try ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + events.split(separator: "\n").joined(separator: "\r\n") + "\r\nEND:VCALENDAR\r\n")
            .write(toFile: "\(vdir)/\(name).ics", atomically: true, encoding: .utf8)
        let calendarConfig = folder.path("\(name).json5")
        try "{ timeZone: \"\(zone)\", calendars: [ { name: \"\(name)\", path: \"\(vdir)\" } ] }".write(
            toFile: calendarConfig, atomically: true, encoding: .utf8)
        try CLIProcess.createDatabase(db)
        // Seen from the window's start, whenever the test runs: a window before the database began
        // is otherwise nobody's to remind of.
        let result = try CLIProcess.run(["--db", db, "--config", calendarConfig, "--now", from, "preview", "--from", from, "--to", to, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let reminders = (try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])?["reminders"] as? [[String: Any]] ?? []
        return reminders.map { "\($0["key"] as? String ?? "") \($0["fire_at"] as? String ?? "")" }
    }

    @Test("an alarm weeks before its event is planned in a window holding both: the plan made in slices of days keeps it")
    func alarmWeeksAhead() throws {
        let reminders = try previewCalendar(
            "far", zone: "UTC",
            events: """
                BEGIN:VEVENT
                UID:exam@example.org
                SUMMARY:Exam
                DTSTART:20270130T090000Z
                BEGIN:VALARM
                ACTION:DISPLAY
                TRIGGER:-P20D
                END:VALARM
                END:VEVENT
                """, from: "2027-01-05", to: "2027-02-01")
        #expect(reminders == ["ics:far:exam@example.org:alarm:2027-01-10T09:00:00 2027-01-10T09:00:00+00:00"])
    }

    @Test("an item's start is an instant: the second 02:30 of a repeated hour, and seconds, stay what the file says")
    func startInstant() throws {
        let reminders = try previewCalendar(
            "exact", zone: "Europe/Berlin",
            events: """
                BEGIN:VEVENT
                UID:fold
                SUMMARY:Fold
                DTSTART;TZID=America/New_York:20261024T213000
                END:VEVENT
                BEGIN:VEVENT
                UID:seconds
                SUMMARY:Seconds
                DTSTART:20261026T101010Z
                END:VEVENT
                """, from: "2026-10-24", to: "2026-10-27")
        #expect(
            reminders == [
                "ics:exact:fold:10m 2026-10-25T02:20:00+01:00",
                "ics:exact:seconds:10m 2026-10-26T11:00:10+01:00",
            ], "01:30Z less 10 minutes is the second 02:20, in CET; 10:10:10Z less 10 minutes keeps its seconds")
    }

    @Test("an item acknowledged on another device (X-MOZ-LASTACK) has no default reminder due up to then; a later one still is")
    func acknowledgedDefault() throws {
        let reminders = try previewCalendar(
            "acked", zone: "UTC",
            events: """
                BEGIN:VEVENT
                UID:seen
                SUMMARY:Seen
                DTSTART:20261026T100000Z
                X-MOZ-LASTACK:20261026T095500Z
                END:VEVENT
                BEGIN:VEVENT
                UID:daily
                SUMMARY:Daily
                DTSTART:20261026T120000Z
                RRULE:FREQ=DAILY;COUNT=2
                X-MOZ-LASTACK:20261026T115500Z
                END:VEVENT
                """, from: "2026-10-26", to: "2026-10-28")
        #expect(reminders == ["ics:acked:daily:20261027T120000Z:10m 2026-10-27T11:50:00+00:00"])
    }

    @Test("preview lists calendar reminders with their source and keys; the broken file is a one-line warning")
    func preview() throws {
        try CLIProcess.createDatabase(db)
        let result = try CLIProcess.run(["--db", db, "--config", config, "preview", "--now", "2026-12-01T00:00", "--days", "3", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr == "dawnlet-remind: warning: calendar \(folder.path("work"))/broken.ics: not an iCalendar file (libical found no calendar in it)\n")
        let root = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let reminders = (root?["reminders"] as? [[String: Any]]) ?? []
        let summary = reminders.map {
            "\($0["key"] as? String ?? "") \($0["fire_at"] as? String ?? "") \($0["source"] as? String ?? "") \($0["channels"] as? [String] ?? [])"
        }
        #expect(
            summary == [
                "ics:work:standup@example.org:20261201T083000Z:10m 2026-12-01T09:20:00+01:00 ics:work [\"command\"]",
                "ics:work:dentist@example.org:alarm:2026-12-02T12:00:00 2026-12-02T13:00:00+01:00 ics:work [\"command\"]",
                "digest:2026-12-03 2026-12-03T08:00:00+01:00 virtual [\"command\"]",
                "ics:work:standup@example.org:20261203T083000Z:10m 2026-12-03T09:20:00+01:00 ics:work [\"command\"]",
            ], "\(summary)")
        #expect(reminders.allSatisfy { $0["definition_id"] is NSNull || $0["kind"] as? String == "digest" })
    }

    @Test("a NUL byte in one event leaves out only that event, and says where; a title not in UTF-8 shows U+FFFD, with one warning")
    func nulAndInvalidUTF8() throws {
        let path = folder.path("work") + "/events.ics"
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let dentist = try #require(bytes.firstRange(of: Array("SUMMARY:Dentist".utf8)))
        bytes[dentist.upperBound - 1] = 0
        let holiday = try #require(bytes.firstRange(of: Array("SUMMARY:Holiday".utf8)))
        bytes[holiday.upperBound - 1] = 0xE9
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        try CLIProcess.createDatabase(db)
        let result = try CLIProcess.run(["--db", db, "--config", config, "agenda", "--from", "2026-12-01", "--days", "3"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Standup") && result.stdout.contains("Holida\u{FFFD}") && !result.stdout.contains("Dentist"), "\(result.stdout)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("events.ics") }
        #expect(
            warnings == [
                "dawnlet-remind: warning: calendar \(path): a NUL byte at line 13: the VEVENT of lines 11–19 left out",
                "dawnlet-remind: warning: calendar \(path): not valid UTF-8 at line 22: shown with \u{FFFD} in its place",
            ], "\(result.stderr)")
    }

    @Test("doctor reads each calendar and says what it found and what is wrong")
    func doctor() throws {
        let result = try CLIProcess.run(["--db", db, "--config", config, "doctor"])
        #expect(result.stdout.contains("note calendar work: "), "\(result.stdout)")
        #expect(result.stdout.contains("; 1 problem, first: \(folder.path("work"))/broken.ics: not an iCalendar file"), "\(result.stdout)")
    }

    @Test("a file larger than 16 MiB is reported and skipped unread; the others are still read")
    func hugeFile() throws {
        let huge = folder.path("work") + "/huge.ics"
        FileManager.default.createFile(atPath: huge, contents: Data(count: 17 << 20))
        try CLIProcess.createDatabase(db)
        let result = try CLIProcess.run(["--db", db, "--config", config, "preview", "--now", "2026-12-01T00:00", "--days", "3"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("\(huge): larger than 16 MiB: skipped"), "\(result.stderr)")
        #expect(result.stdout.contains("Standup"))
    }

    @Test("today shows the day's calendar items in time order beside Dawnlet's own, and stores none of them")
    func today() throws {
        try CLIProcess.run(["--db", db, "--config", config, "todo", "add", "Call", "--due", "2026-12-02T10:00"]).expectSuccess()
        let result = try CLIProcess.run(["--db", db, "--config", config, "today", "--date", "2026-12-02"])
        #expect(result.status == 0)
        #expect(
            result.stdout == """
                2026-12-02 Wednesday
                  10:00  [ ] todo  #1  Call
                  14:00  [ ] event ics:work  Dentist

                """, "the Standup of the 2nd is excluded")
        let list = try CLIProcess.run(["--db", db, "--config", config, "event", "list", "--json"])
        #expect(list.stdout.contains("\"events\":[]"), "\(list.stdout)")
    }
}

extension CLIResult {
    func expectSuccess(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(status == 0, "\(stderr)", sourceLocation: sourceLocation)
    }
}

extension ServeTests {
    @Test("serve re-reads a calendar file a sync tool replaces, fires its alarm once, and not again when it is rewritten unchanged")
    func calendarReread() throws {
        let vdir = folder.path("vdir")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        try writeConfig("calendars: [ { name: \"work\", path: \"\(vdir)\" } ],")
        let server = try Server(db: db, config: config, start: "2026-12-01 07:59:55")
        // The folder is watched before the first plan.
        #expect(server.waitForLog("planned (start)"), "\(server.logSoFar())")
        // As vdirsyncer writes: a temporary file renamed into place. Alarm at 09:00:03 Berlin.
        let event = """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:review@example.org\r\nSUMMARY:Review\r\n\
            DTSTART:20261201T081000Z\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER;VALUE=DATE-TIME:20261201T080003Z\r\nEND:VALARM\r\n\
            END:VEVENT\r\nEND:VCALENDAR\r\n
            """
        // Twice, each read (planned again) before the next.
        for time in 1...2 {
            try event.write(toFile: vdir + "/.review.tmp", atomically: false, encoding: .utf8)
            rename(vdir + "/.review.tmp", vdir + "/review.ics")
            #expect(server.waitForLog("planned (calendar files changed)", count: time), "\(server.logSoFar())")
        }
        let got = waitForLines(1, seconds: 10)
        #expect(got.count == 1)
        #expect(got.first?.contains(" ics:work:review@example.org:alarm:2026-12-01T08:00:03 Review|") == true, "\(got)")
        try event.write(toFile: vdir + "/review.ics", atomically: true, encoding: .utf8)
        // Read again and planned: what that plan would send again is in the file once serve stops.
        let (status, log) = try stop(server, after: "planned (calendar files changed)", count: 3)
        #expect(lines().count == 1, "\(lines())")
        #expect(status == 0)
        #expect(log.contains("planned (calendar files changed): next: Review (ics:work:review@example.org:alarm:2026-12-01T08:00:03)"), "\(log)")
    }
}

@Suite struct ExportCommandTests {
    @Test("export writes one private .ics per item, again the same files, removes deleted ones; another database reads them back")
    func export() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("a.sqlite"), out = folder.path("vdir")
        func run(_ arguments: String...) throws -> CLIResult { try CLIProcess.run(["--db", db, "--tz", "Europe/Berlin"] + arguments) }
        try run("todo", "add", "Bins", "--every", "weekly on tue at 07:00 from 2026-12-01").expectSuccess()
        try run("todo", "skip", "1", "--on", "2026-12-08").expectSuccess()
        try run("event", "add", "Dentist", "--start", "2026-12-03T14:00", "--duration", "45m", "--remind", "1h").expectSuccess()
        try run("todo", "add", "Gone soon", "--due", "2026-12-04").expectSuccess()
        let first = try run("export", "--to", out)
        #expect(first.stdout == "exported 2 todos and 1 event to \(out): 3 files written, 0 unchanged, 0 removed\n", "\(first.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(names.count == 3 && names.allSatisfy { $0.hasPrefix("dawnlet-") && $0.hasSuffix(".ics") })
        #expect(try names.allSatisfy { try mode("\(out)/\($0)") == 0o600 })
        let bytes = try names.map { try Data(contentsOf: URL(fileURLWithPath: "\(out)/\($0)")) }

        try run("todo", "delete", "2").expectSuccess()
        let again = try run("export", "--to", out)
        #expect(again.stdout == "exported 1 todo and 1 event to \(out): 0 files written, 2 unchanged, 1 removed\n", "\(again.stdout)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
        #expect(kept.count == 2)
        for (name, data) in zip(names, bytes) where kept.contains(name) {
            #expect(try Data(contentsOf: URL(fileURLWithPath: "\(out)/\(name)")) == data, "\(name) rewritten identically")
        }

        // A second database with the folder as a calendar: the same occurrences, skip and alarm included.
        let config = folder.path("config.json5")
        try "{ timeZone: \"Europe/Berlin\", calendars: [ { name: \"mine\", path: \"\(out)\" } ] }".write(toFile: config, atomically: true, encoding: .utf8)
        try CLIProcess.createDatabase(folder.path("b.sqlite"))
        let preview = try CLIProcess.run([
            "--db", folder.path("b.sqlite"), "--config", config, "preview", "--now", "2026-12-01T00:00", "--days", "10", "--json",
        ])
        #expect(preview.status == 0 && preview.stderr.isEmpty, "\(preview.stderr)")
        let root = try JSONSerialization.jsonObject(with: Data(preview.stdout.utf8)) as? [String: Any]
        let fires = ((root?["reminders"] as? [[String: Any]]) ?? []).map { "\($0["title"] as? String ?? "") \($0["fire_at"] as? String ?? "")" }
        #expect(fires == ["Bins 2026-12-01T07:00:00+01:00", "Dentist 2026-12-03T13:00:00+01:00"], "\(fires)")

        // The exporting database reading its own vdir does not plan its items twice.
        try "{ timeZone: \"Europe/Berlin\", calendars: [ { name: \"mine\", path: \"\(out)\", readOnly: false } ] }"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let own = try CLIProcess.run(["--db", db, "--config", config, "preview", "--now", "2026-12-01T00:00", "--days", "10", "--json"])
        #expect(own.stdout.components(separatedBy: "\"title\":\"Dentist\"").count == 2, "\(own.stdout)")
        #expect(!own.stdout.contains("ics:mine"), "\(own.stdout)")

        let bad = try run("export", "--to", db)
        CLIProcess.expectFailure(bad, status: 1, mentioning: [db])
        try "{ calendars: [ { name: \"mine\", path: \"\(out)/\", readOnly: true } ] }".write(toFile: config, atomically: true, encoding: .utf8)
        let readOnly = try CLIProcess.run(["--db", db, "--config", config, "export", "--to", out])
        CLIProcess.expectFailure(readOnly, status: 65, mentioning: ["calendar mine is read-only"])
    }
}
