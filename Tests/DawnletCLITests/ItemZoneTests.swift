import DawnletTestSupport
import Foundation
import Testing

/// An item's own zone (`--zone`): its wall time read there, so its reminders fire at one instant
/// whatever the viewer's zone, New York's DST deciding and not the viewer's; shown in the viewer's
/// zone with its own time; exported with its TZID and read back unchanged; bad names refused.
@Suite struct ItemZoneTests {
    let folder: TemporaryFolder
    let db: String

    init() throws {
        folder = try TemporaryFolder()
        db = folder.path("d.sqlite")
    }

    @discardableResult
    func cli(
        _ arguments: String..., tz: String = "UTC", now: String = "2027-01-04T08:00:00+00:00", expect status: Int32 = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> CLIResult {
        let result = try CLIProcess.run(["--db", db, "--tz", tz, "--now", now] + arguments)
        #expect(result.status == status, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result
    }

    /// The fire instants of `preview --json` over the window, as UTC seconds, and as written.
    func fires(tz: String, from: String, to: String) throws -> [(seconds: Int, text: String)] {
        let out = try cli("preview", "--from", from, "--to", to, "--json", tz: tz).stdout
        let json = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        let reminders = try #require(json["reminders"] as? [[String: Any]])
        let format = ISO8601DateFormatter()
        return try reminders.filter { $0["kind"] as? String != "digest" }.map { r in
            let text = try #require(r["fire_at"] as? String)
            return (Int(try #require(format.date(from: text)).timeIntervalSince1970), "\(text)")
        }
    }

    @Test("a todo at 16:00 New York fires at 21:00 UTC whether read with --tz UTC or --tz Asia/Tokyo; floating, it follows the viewer")
    func sameInstant() throws {
        try cli("todo", "add", "Call", "--due", "2027-01-05T16:00", "--zone", "America/New_York", "--remind", "0m")
        let utc = try fires(tz: "UTC", from: "2027-01-05T00:00:00Z", to: "2027-01-07T00:00:00Z")
        let tokyo = try fires(tz: "Asia/Tokyo", from: "2027-01-05T00:00:00Z", to: "2027-01-07T00:00:00Z")
        #expect(utc.map(\.text) == ["2027-01-05T21:00:00+00:00"])
        #expect(tokyo.map(\.text) == ["2027-01-06T06:00:00+09:00"], "the same instant, at Tokyo's offset")
        #expect(utc.map(\.seconds) == tokyo.map(\.seconds))
        // Floating again: 16:00 wherever it is read.
        try cli("todo", "edit", "1", "--no-zone")
        #expect(try fires(tz: "Asia/Tokyo", from: "2027-01-05T00:00:00Z", to: "2027-01-07T00:00:00Z").map(\.text) == ["2027-01-05T16:00:00+09:00"])
        #expect(try cli("todo", "show", "1", "--json").stdout.contains(#""zone":null"#))
    }

    @Test("the weeks of March when New York has moved its clocks and Berlin not yet: a Monday call at 16:00 New York fires at 21:00 Berlin")
    func dstWeeks() throws {
        try cli("event", "add", "Call", "--start", "2027-03-01T16:00", "--zone", "America/New_York", "--every", "weekly on mon", "--remind", "0m")
        try cli("event", "add", "Local", "--start", "2027-03-01T16:00", "--every", "weekly on mon", "--remind", "0m")
        let berlin = try fires(tz: "Europe/Berlin", from: "2027-03-01T00:00:00+01:00", to: "2027-04-06T00:00:00+02:00").map(\.text)
        // New York springs forward on 14 March, Berlin on 28 March.
        #expect(
            berlin.filter { !$0.contains("T16:00") } == [
                "2027-03-01T22:00:00+01:00", "2027-03-08T22:00:00+01:00", "2027-03-15T21:00:00+01:00", "2027-03-22T21:00:00+01:00",
                "2027-03-29T22:00:00+02:00", "2027-04-05T22:00:00+02:00",
            ])
        #expect(berlin.filter { $0.contains("T16:00") }.count == 6, "the floating one stays at Berlin's 16:00: \(berlin)")
        // Read with the machine in New York, the same instants.
        let newYork = try fires(tz: "America/New_York", from: "2027-03-01T00:00:00+01:00", to: "2027-04-06T00:00:00+02:00")
        let zoned = try fires(tz: "Europe/Berlin", from: "2027-03-01T00:00:00+01:00", to: "2027-04-06T00:00:00+02:00").filter { !$0.text.contains("T16:00") }
        #expect(Set(zoned.map(\.seconds)).isSubset(of: Set(newYork.map(\.seconds))))
        // Both at 16:00 there, EST and then EDT: the zoned one as its own, the floating one as the viewer's.
        #expect(newYork.filter { $0.text.contains("T16:00:00-0") }.count == 12, "\(newYork.map(\.text))")
    }

    @Test("shown in the viewer's zone with its own time: the agenda's day and time are the viewer's, preview says its own, show names the zone")
    func display() throws {
        try cli("todo", "add", "Call", "--due", "2027-01-05T16:00", "--zone", "America/New_York", "--remind", "0m")
        let tokyo = try cli("agenda", "--from", "2027-01-05", "--days", "2", tz: "Asia/Tokyo").stdout
        #expect(
            tokyo == """
                2027-01-05 Tuesday
                  nothing

                2027-01-06 Wednesday
                  06:00  [ ] todo  #1  Call  (Tue 16:00 America/New_York)

                """)
        let utc = try cli("agenda", "--from", "2027-01-05", "--days", "1", "--json").stdout
        #expect(utc.contains(#""time":"21:00","own_time":"16:00 America/New_York""#), "\(utc)")
        let viewerInNewYork = try cli("agenda", "--from", "2027-01-05", "--days", "1", tz: "America/New_York").stdout
        #expect(viewerInNewYork.contains("  16:00  [ ] todo  #1  Call\n"), "its own zone: nothing more to say: \(viewerInNewYork)")
        let preview = try cli("preview", "--from", "2027-01-05T00:00:00Z", "--to", "2027-01-06T00:00:00Z").stdout
        #expect(preview.contains("  21:00  todo #1"), "\(preview)")
        #expect(preview.contains("at its time (16:00 America/New_York)"), "\(preview)")
        #expect(try cli("todo", "show", "1").stdout == "todo #1  Call\n  due: 2027-01-05 16:00\n  zone: America/New_York\n  reminders: 0m\n")
        #expect(try cli("todo", "list", "--json").stdout.contains(#""zone":"America/New_York""#))
    }

    @Test(
        "exported with its TZID and a VTIMEZONE: the Python oracle reads 21:00 UTC before New York's change and 20:00 after; read back unchanged from another zone"
    )
    func export() throws {
        try cli("event", "add", "Call", "--start", "2027-03-01T16:00", "--zone", "America/New_York", "--every", "weekly on mon", "--remind", "0m")
        let out = folder.path("out")
        try cli("export", "--to", out, tz: "Europe/Berlin")
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: out).first)
        let path = "\(out)/\(file)"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("DTSTART;TZID=America/New_York:20270301T160000\r\n"), "\(text)")
        #expect(text.contains("BEGIN:VTIMEZONE\r\nTZID:America/New_York\r\n"))
        #expect(!text.contains("TZID=Europe/Berlin"))
        try Repository.require(Repository.python, "the Python venv with icalendar")
        let script = """
            import datetime, sys, icalendar, recurring_ical_events
            calendar = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
            for e in recurring_ical_events.of(calendar).between(datetime.datetime(2027, 3, 1), datetime.datetime(2027, 4, 6)):
                print(e['DTSTART'].dt.astimezone(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M'))
            """
        let (status, instants) = try runTool(Repository.python, ["-c", script, path], environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        #expect(status == 0, "\(instants)")
        #expect(
            instants.split(separator: "\n") == [
                "2027-03-01T21:00", "2027-03-08T21:00", "2027-03-15T20:00", "2027-03-22T20:00", "2027-03-29T20:00", "2027-04-05T20:00",
            ])
        // Read back by a machine in another zone: nothing changed, nothing applied, not written.
        let again = try cli("export", "--to", out, tz: "Asia/Tokyo", now: "2027-01-05T08:00:00+00:00")
        #expect(again.stdout.contains("0 files written, 1 unchanged"), "\(again.stdout)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
        #expect(try cli("event", "show", "1").stdout.contains("  starts: weekly on mon from 2027-03-01\n  zone: America/New_York\n"))
    }

    @Test("a due time moved on another device, in the item's zone, is read in that zone")
    func movedElsewhere() throws {
        try cli("todo", "add", "Call", "--due", "2027-01-05T16:00", "--zone", "America/New_York")
        let out = folder.path("out")
        try cli("export", "--to", out, tz: "Europe/Berlin")
        let path = "\(out)/" + (try #require(try FileManager.default.contentsOfDirectory(atPath: out).first))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("DUE;TZID=America/New_York:20270105T160000\r\n"), "\(text)")
        try text.replacingOccurrences(of: "DUE;TZID=America/New_York:20270105T160000", with: "DUE;TZID=America/New_York:20270105T170000")
            .write(toFile: path, atomically: true, encoding: .utf8)
        try cli("export", "--to", out, tz: "Europe/Berlin", now: "2027-01-04T09:00:00+00:00")
        #expect(try cli("todo", "show", "1").stdout.contains("  due: 2027-01-05 17:00\n  zone: America/New_York\n"))
    }

    @Test(
        "a zone that is not one is 2 with why, and nothing is written",
        arguments: [
            (["--zone", "Mars/Base"], "unknown time zone"), (["--zone", "../../etc/passwd"], "not a time zone name"), (["--zone", ""], "not a time zone name"),
            (["--zone", "Europe/Berlin", "--no-zone"], "unknown option"),
        ])
    func refused(_ arguments: [String], _ words: String) throws {
        let result = try CLIProcess.run(["--db", db, "todo", "add", "X", "--due", "2027-01-05T16:00"] + arguments)
        CLIProcess.expectFailure(result, status: 2, mentioning: [words])
        let listed = FileManager.default.fileExists(atPath: db) ? try cli("todo", "list").stdout : ""
        #expect(!listed.contains("X"), "nothing written: \(listed)")
    }

    @Test("edit refuses an unknown zone and both --zone and --no-zone, keeping the zone it had")
    func editRefused() throws {
        try cli("event", "add", "Call", "--start", "2027-01-05T16:00", "--zone", "America/New_York")
        CLIProcess.expectFailure(try CLIProcess.run(["--db", db, "event", "edit", "1", "--zone", "Nowhere/Town"]), status: 2, mentioning: ["--zone"])
        CLIProcess.expectFailure(
            try CLIProcess.run(["--db", db, "event", "edit", "1", "--zone", "Asia/Tokyo", "--no-zone"]), status: 2, mentioning: ["not both"])
        CLIProcess.expectFailure(
            try CLIProcess.run(["--db", db, "event", "edit", "1", "--on", "2027-01-05", "--zone", "Asia/Tokyo"]), status: 2, mentioning: ["--zone"])
        #expect(try cli("event", "show", "1", "--json").stdout.contains(#""zone":"America/New_York""#))
        try cli("event", "edit", "1", "--zone", "Asia/Tokyo")
        #expect(try cli("event", "show", "1", "--json").stdout.contains(#""zone":"Asia/Tokyo""#))
    }
}
