import DawnletCore
import DawnletSystem
import DawnletTestSupport
import Foundation
import Testing

/// Calendar files read with libical, on the corpus of real and broken calendars in Corpus/
/// (other projects' test calendars, see Corpus/README.md) and on files written here.
@Suite struct CalendarReaderTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")
    static let utc = Zone.named("UTC")
    static let berlin = Zone.named("Europe/Berlin")

    func at(_ text: String, _ zone: Zone = CalendarReaderTests.utc) -> Instant {
        guard let instant = ISO8601.parse(text, zone: zone) else { preconditionFailure(text) }
        return instant
    }

    func read(_ path: String, from: String, to: String, zone: Zone = CalendarReaderTests.utc) -> CalendarReader.Result {
        CalendarReader.read(name: "test", path: path, window: at(from, zone)...at(to, zone), zone: zone)
    }

    @Test("every file of the corpus is read without a crash or a hang")
    func corpus() throws {
        let folders = ["calendars", "alarms", "libical"].map { Self.corpus.appendingPathComponent($0).path }
        var files = 0
        var counts: [String: Int] = [:]
        for folder in folders {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where name.hasSuffix(".ics") {
                let result = read("\(folder)/\(name)", from: "1990-01-01T00:00", to: "2040-01-01T00:00")
                counts[name] = result.occurrences.count
                #expect(result.problems.allSatisfy { $0.file.hasSuffix(name) && !$0.message.isEmpty })
                files += 1
            }
        }
        #expect(files == 121)
        // Good files give what they hold: a daily COUNT=10, two events and a todo with a date, a
        // RFC 7529's examples (the Chinese, Ethiopic and Hebrew calendars are not followed: their
        // DTSTART only, 3; the Gregorian Feb 29 with SKIP=FORWARD, 2012–2039: 28), a Google and
        // a Thunderbird event.
        #expect(counts["event_with_rrule.ics"] == 10)
        #expect(counts["calendar_with_events_and_todos.ics"] == 2)
        #expect(counts["alarm_google_future.ics"] == 1 && counts["alarm_thunderbird_future.ics"] == 1)
        #expect(counts["rfc_7529.ics"] == 31)
    }

    @Test("broken files are reported with libical's words and skipped; nothing else is lost")
    func broken() throws {
        let calendars = Self.corpus.appendingPathComponent("calendars").path
        let bad = read("\(calendars)/small_bad_calendar.ics", from: "1990-01-01T00:00", to: "2040-01-01T00:00")
        #expect(bad.occurrences.isEmpty)
        #expect(bad.problems.map(\.message) == ["not an iCalendar file (libical found no calendar in it)"])
        let dtstart = read("\(calendars)/broken_dtstart.ics", from: "1990-01-01T00:00", to: "2040-01-01T00:00")
        #expect(
            dtstart.problems.map(\.message) == [
                "libical: Can't parse as DATE-TIME value in DTSTART property. Removing entire property: INVALID-DATE (that property is ignored)",
                "test-123: no DTSTART or DUE: skipped",
            ])
        let rule = read("\(calendars)/invalid_rrule_freq.ics", from: "1990-01-01T00:00", to: "2040-01-01T00:00")
        #expect(rule.occurrences.count == 1, "the event is kept, without its rule")
        #expect(rule.problems.first?.message.contains("RRULE") == true)
        let zone = read("\(calendars)/missing_VTIMEZONE_custom.ics", from: "1990-01-01T00:00", to: "2040-01-01T00:00")
        #expect(zone.occurrences.isEmpty)
        #expect(
            zone.problems.map(\.message) == [
                "missing_VTIMEZONE_custom.ics#0: unknown time zone \"CUSTOM_tzid\" (no VTIMEZONE of that name, not an IANA name): skipped"
            ])
        let builtin = read("\(calendars)/missing_timezones.ics", from: "1990-01-01T00:00", to: "2040-01-01T00:00")
        #expect(builtin.occurrences.contains { $0.start == at("2014-08-29T12:00") }, "America/New_York without a VTIMEZONE: libical's own")
        let missing = read("/nonexistent/calendar.ics", from: "2026-01-01T00:00", to: "2026-02-01T00:00")
        #expect(missing.problems.map(\.description) == ["/nonexistent/calendar.ics: no such file or folder"])
        // A path that is itself a loop of symlinks says so, as one inside a folder does.
        let folder = try TemporaryFolder()
        #expect(symlink(folder.path("b.ics"), folder.path("a.ics")) == 0 && symlink(folder.path("a.ics"), folder.path("b.ics")) == 0)
        let loop = read(folder.path("a.ics"), from: "2026-01-01T00:00", to: "2026-02-01T00:00")
        #expect(loop.problems.map(\.description) == ["\(folder.path("a.ics")): Too many levels of symbolic links"])
    }

    @Test("RRULE with an RDATE period and a RECURRENCE-ID override in a VTIMEZONE (RFC 7265's example)")
    func overrideAndRdate() {
        let r = read(
            Self.corpus.appendingPathComponent("calendars/rfc_7265_appendix_example_2_ical.ics").path, from: "2006-01-01T00:00", to: "2006-02-01T00:00")
        let uid = "ics:test:00959BC664CA650E933C892C@example.com"
        #expect(
            r.occurrences.map { "\($0.key) \(ISO8601.format($0.start!, utcOffset: 0))" }.sorted() == [
                "\(uid):20060102T170000Z 2006-01-02T17:00:00+00:00",
                "\(uid):20060102T200000Z 2006-01-02T20:00:00+00:00",
                "\(uid):20060103T170000Z 2006-01-03T17:00:00+00:00",
                "\(uid):20060104T170000Z 2006-01-04T19:00:00+00:00",
                "\(uid):20060105T170000Z 2006-01-05T17:00:00+00:00",
                "\(uid):20060106T170000Z 2006-01-06T17:00:00+00:00",
            ])
    }

    @Test("VALARMs from Thunderbird and Google: relative triggers from the start")
    func exportedAlarms() {
        let thunderbird = read(
            Self.corpus.appendingPathComponent("calendars/alarm_thunderbird_future.ics").path, from: "2024-10-01T00:00", to: "2024-11-01T00:00")
        #expect(thunderbird.occurrences.first?.alarms?.map { ISO8601.format($0, utcOffset: 0) } == ["2024-10-23T13:15:00+00:00", "2024-10-23T13:45:00+00:00"])
        let google = read(Self.corpus.appendingPathComponent("calendars/alarm_google_future.ics").path, from: "2024-10-01T00:00", to: "2024-11-01T00:00")
        #expect(google.occurrences.first?.start.map { ISO8601.format($0, utcOffset: 0) } == "2024-10-04T18:15:00+00:00")
        // Four VALARMs, two of them (an EMAIL and a DISPLAY) 15 minutes before: three reminders,
        // each time once, as each time is one key.
        #expect(
            google.occurrences.first?.alarms?.map { ISO8601.format($0, utcOffset: 0) } == [
                "2024-10-04T18:00:00+00:00", "2024-10-04T18:01:00+00:00", "2024-10-04T18:05:00+00:00",
            ])
    }

    @Test("a weekly event across the spring change with EXDATE and an override; all-day, floating, cancelled, completed, DUE, alarms")
    func ownFile() throws {
        let folder = try TemporaryFolder()
        let vtimezone = """
            BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nBEGIN:DAYLIGHT\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nDTSTART:19700329T020000\r\n\
            RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\nEND:DAYLIGHT\r\nBEGIN:STANDARD\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\n\
            DTSTART:19701025T030000\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n
            """
        let events = [
            "UID:walk\r\nSUMMARY:Walk\r\nDTSTART;TZID=Europe/Berlin:20260315T090000\r\nDTEND;TZID=Europe/Berlin:20260315T100000\r\n"
                + "RRULE:FREQ=WEEKLY;COUNT=6\r\nEXDATE;TZID=Europe/Berlin:20260405T090000\r\n"
                + "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER;RELATED=END:-PT15M\r\nEND:VALARM\r\n",
            "UID:walk\r\nSUMMARY:Walk (later)\r\nRECURRENCE-ID;TZID=Europe/Berlin:20260412T090000\r\nDTSTART;TZID=Europe/Berlin:20260412T110000\r\n",
            "UID:holiday\r\nSUMMARY:Holiday\r\nDTSTART;VALUE=DATE:20260406\r\n"
                + "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER;VALUE=DATE-TIME:20260405T170000Z\r\nEND:VALARM\r\n",
            "UID:floating\r\nSUMMARY:Floating\r\nDTSTART:20260401T073000\r\n",
            "UID:cancelled\r\nSUMMARY:Cancelled\r\nSTATUS:CANCELLED\r\nDTSTART:20260401T080000Z\r\n",
        ].map { "BEGIN:VEVENT\r\n\($0)END:VEVENT\r\n" }.joined()
        let todos = [
            "UID:taxes\r\nSUMMARY:Taxes\r\nDTSTART:20260301T080000Z\r\nDUE:20260410T160000Z\r\n",
            "UID:done\r\nSUMMARY:Done\r\nDUE:20260410T160000Z\r\nSTATUS:COMPLETED\r\nCOMPLETED:20260402T100000Z\r\n",
        ].map { "BEGIN:VTODO\r\n\($0)END:VTODO\r\n" }.joined()
        let file = folder.path("cal.ics")
        try ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + vtimezone + events + todos + "END:VCALENDAR\r\n")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let r = read(file, from: "2026-03-01T00:00", to: "2026-05-01T00:00", zone: Self.berlin)
        #expect(r.problems.isEmpty, "\(r.problems)")
        let lines = r.occurrences.map { o in
            "\(o.key) \(o.kind.rawValue) \(o.title) \(o.date) \(o.time?.description ?? "all-day")"
                + (o.alarms.map { " alarms " + $0.map { ISO8601.format($0, utcOffset: 0) }.joined(separator: ",") } ?? "")
        }.sorted()
        #expect(
            lines == [
                "ics:test:floating event Floating 2026-04-01 07:30",
                "ics:test:holiday event Holiday 2026-04-06 all-day alarms 2026-04-05T17:00:00+00:00",
                "ics:test:taxes todo Taxes 2026-04-10 18:00",
                "ics:test:walk:20260315T080000Z event Walk 2026-03-15 09:00 alarms 2026-03-15T08:45:00+00:00",
                "ics:test:walk:20260322T080000Z event Walk 2026-03-22 09:00 alarms 2026-03-22T08:45:00+00:00",
                "ics:test:walk:20260329T070000Z event Walk 2026-03-29 09:00 alarms 2026-03-29T07:45:00+00:00",
                "ics:test:walk:20260412T070000Z event Walk (later) 2026-04-12 11:00",
                "ics:test:walk:20260419T070000Z event Walk 2026-04-19 09:00 alarms 2026-04-19T07:45:00+00:00",
            ], "\(lines)")
    }

    @Test("a vdir: every .ics file in the folder, nothing else")
    func vdir() throws {
        let folder = try TemporaryFolder()
        for (name, uid) in [("a.ics", "a"), ("b.ics", "b"), ("notes.txt", "c")] {
            try "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:\(uid)\r\nSUMMARY:\(uid)\r\nDTSTART:20260401T080000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
                .write(toFile: folder.path(name), atomically: true, encoding: .utf8)
        }
        let r = read(folder.url.path, from: "2026-03-01T00:00", to: "2026-05-01T00:00")
        #expect(r.occurrences.map(\.uid).sorted() == ["a", "b"])
    }

    @Test("a daily 02:30 across the spring gap: only the gap day moves to 03:30 (libical alone would shift every later day)")
    func springGap() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("meds.ics")
        try
            "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:meds\r\nSUMMARY:Meds\r\nDTSTART;TZID=Europe/Berlin:20260328T023000\r\nRRULE:FREQ=DAILY\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let r = read(file, from: "2026-03-28T00:00", to: "2026-03-31T00:00", zone: Self.berlin)
        let times = r.occurrences.filter { $0.date <= date("2026-03-30") && $0.date >= date("2026-03-28") }
            .map { "\($0.date) \($0.time!) \(ISO8601.format($0.start!, utcOffset: 0))" }
        #expect(
            times == [
                "2026-03-28 02:30 2026-03-28T01:30:00+00:00", "2026-03-29 03:30 2026-03-29T01:30:00+00:00",
                "2026-03-30 02:30 2026-03-30T00:30:00+00:00",
            ], "\(times)")
        #expect(r.occurrences.map(\.instance).contains("20260330T003000Z"))
    }
}
