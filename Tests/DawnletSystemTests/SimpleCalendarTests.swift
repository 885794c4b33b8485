import DawnletCore
import DawnletSystem
import DawnletTestSupport
import Foundation
import Testing

/// Files of the common shapes are read without libical (`CalendarReader.SimpleFile`), and kept
/// parsed between plans: the occurrences, problems and budget are the same as libical's reading.
@Suite struct SimpleCalendarTests {
    let folder: TemporaryFolder
    let zone = Zone.named("Europe/Berlin")
    let window: ClosedRange<Instant>

    init() throws {
        folder = try TemporaryFolder()
        window = ISO8601.parse("2026-03-20T00:00", zone: zone)!...ISO8601.parse("2026-04-10T00:00", zone: zone)!
    }

    static let berlin = """
        BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\nBEGIN:STANDARD\r\nDTSTART:19701025T030000\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\n\
        TZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\nBEGIN:DAYLIGHT\r\nDTSTART:19700329T020000\r\n\
        RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\n
        """

    func file(_ events: String, zones: String = "", method: String = "") -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nCALSCALE:GREGORIAN\r\n\(method)\(zones)\(events)END:VCALENDAR\r\n"
    }

    func event(_ uid: String, _ lines: String) -> String {
        "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20260101T000000Z\r\n\(lines)END:VEVENT\r\n"
    }

    /// Shapes read without libical, one file each: `true` when SimpleFile is to keep it.
    var shapes: [(String, String, Bool)] {
        [
            ("utc", file(event("utc", "DTSTART:20260325T090000Z\r\nDTEND:20260325T100000Z\r\nSUMMARY:Standup\r\n")), true),
            ("floating", file(event("floating", "DTSTART:20260329T023000\r\nSUMMARY:In the gap\r\n")), true),
            ("berlin", file(event("berlin", "DTSTART;TZID=Europe/Berlin:20260328T090000\r\nRRULE:FREQ=DAILY\r\nSUMMARY:Daily\r\n"), zones: Self.berlin), true),
            ("builtin", file(event("builtin", "DTSTART;TZID=America/New_York:20260301T080000\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,WE\r\nSUMMARY:NY\r\n")), true),
            ("allday", file(event("allday", "DTSTART;VALUE=DATE:20260401\r\nDTEND;VALUE=DATE:20260402\r\nSUMMARY:Holiday\r\n")), true),
            ("yearly", file(event("yearly", "DTSTART;VALUE=DATE:19800327\r\nRRULE:FREQ=YEARLY\r\nSUMMARY:Birthday\r\n")), true),
            ("until", file(event("until", "DTSTART:20260320T120000Z\r\nRRULE:FREQ=DAILY;UNTIL=20260330T120000Z\r\nSUMMARY:Until\r\n")), true),
            ("count", file(event("count", "DTSTART:20260101T070000Z\r\nRRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=10\r\nSUMMARY:Count\r\n")), true),
            ("monthly", file(event("monthly", "DTSTART:20260131T100000Z\r\nRRULE:FREQ=MONTHLY;BYMONTHDAY=-1\r\nSUMMARY:Last day\r\n")), true),
            ("minutely", file(event("minutely", "DTSTART:20260401T100000Z\r\nRRULE:FREQ=MINUTELY;INTERVAL=30;COUNT=5\r\nSUMMARY:M\r\n")), true),
            ("escaped", file(event("escaped", "DTSTART:20260325T090000Z\r\nSUMMARY:Tea\\, cake\\; and\\nmore \\\\ é\r\n")), true),
            (
                "folded",
                file(
                    event("folded", "DTSTART:20260325T090000Z\r\nSUMMARY:A long\r\n  title folded\r\nDESCRIPTION:x\r\nX-FOO;A=b:y\r\n"),
                    method: "METHOD:PUBLISH\r\n"),
                true
            ),
            ("untitled", file(event("untitled", "DTSTART:20260325T090000Z\r\nDURATION:PT1H\r\n")), true),
            ("cancelled", file(event("cancelled", "DTSTART:20260325T090000Z\r\nSTATUS:CANCELLED\r\nSUMMARY:Off\r\n")), true),
            ("past", file(event("past", "DTSTART:20250325T090000Z\r\nSUMMARY:Old\r\n")), true),
            ("two", file(event("two-a", "DTSTART:20260325T090000Z\r\nSUMMARY:A\r\n") + event("two-b", "DTSTART:20260326T090000Z\r\nSUMMARY:B\r\n")), true),
            ("lf", file(event("lf", "DTSTART:20260325T090000Z\r\nSUMMARY:LF\r\n")).replacingOccurrences(of: "\r\n", with: "\n"), true),
            (
                "alarm",
                file(event("alarm", "DTSTART:20260325T090000Z\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT5M\r\nDESCRIPTION:x\r\nEND:VALARM\r\n")),
                true
            ),
            (
                // Two alarms, one two days ahead across the change to summer time, on a daily rule
                // starting before the window: its first instances remind inside it.
                "alarms",
                file(
                    event(
                        "alarms",
                        "DTSTART;TZID=Europe/Berlin:20260301T083000\r\nRRULE:FREQ=DAILY\r\nSUMMARY:A\r\n"
                            + "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER;RELATED=START:-P2DT1H\r\nEND:VALARM\r\n"
                            + "BEGIN:VALARM\r\nACTION:AUDIO\r\nTRIGGER:PT10M\r\nEND:VALARM\r\n"), zones: Self.berlin),
                true
            ),
            (
                "allday-alarm",
                file(event("allday-alarm", "DTSTART;VALUE=DATE:20260412\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-P3D\r\nEND:VALARM\r\n")),
                true
            ),
            // Left to libical: each one has something SimpleFile does not read.
            (
                "repeat",
                file(
                    event(
                        "repeat",
                        "DTSTART:20260325T090000Z\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT5M\r\nREPEAT:2\r\nDURATION:PT1M\r\nEND:VALARM\r\n")),
                false
            ),
            (
                "end-alarm",
                file(event("end-alarm", "DTSTART:20260325T090000Z\r\nDTEND:20260325T100000Z\r\nBEGIN:VALARM\r\nTRIGGER;RELATED=END:PT0S\r\nEND:VALARM\r\n")),
                false
            ),
            ("exdate", file(event("exdate", "DTSTART:20260320T090000Z\r\nRRULE:FREQ=DAILY\r\nEXDATE:20260322T090000Z\r\n")), false),
            ("nozone", file(event("nozone", "DTSTART;TZID=Nowhere/Else:20260325T090000\r\n")), false),
            ("twice", file(event("twice", "DTSTART:20260325T090000Z\r\n") + event("twice", "DTSTART:20260326T090000Z\r\n")), false),
            ("todo", file("BEGIN:VTODO\r\nUID:todo\r\nDUE:20260325T090000Z\r\nSUMMARY:T\r\nEND:VTODO\r\n"), false),
            ("odd-escape", file(event("odd", "DTSTART:20260325T090000Z\r\nSUMMARY:a\\qb\r\n")), false),
            ("byhour", file(event("byhour", "DTSTART;VALUE=DATE:20260320\r\nRRULE:FREQ=DAILY;BYHOUR=9\r\n")), false),
            ("secondly", file(event("secondly", "DTSTART:20260320T090000Z\r\nRRULE:FREQ=SECONDLY;COUNT=3\r\n")), false),
        ]
    }

    func read(_ path: String, simple: Bool, cache: CalendarReader.Cache? = nil, budget: CalendarReader.Budget = .init())
        -> CalendarReader.Result
    {
        CalendarReader.read(name: "c", path: path, window: window, zone: zone, budget: budget, cache: cache, simple: simple)
    }

    @Test("each common shape gives the occurrences and problems libical's reading gives; only those shapes are kept parsed")
    func sameAsLibical() throws {
        var counts: [String: Int] = [:]
        for (name, text, kept) in shapes {
            let path = folder.path("\(name).ics")
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            let cache = CalendarReader.Cache()
            let fast = read(path, simple: true, cache: cache)
            let slow = read(path, simple: false)
            #expect(fast.occurrences == slow.occurrences, "\(name): \(fast.occurrences) vs \(slow.occurrences)")
            #expect(fast.problems == slow.problems, "\(name)")
            #expect((cache.count == 1) == kept, "\(name) kept: \(cache.count)")
            counts[name] = fast.occurrences.count
            if name == "escaped" { #expect(fast.occurrences.map(\.title) == ["Tea, cake; and\nmore \\ é"]) }
        }
        // What was compared is there: a daily rule through the window, a weekly one twice a week,
        // a single event, none of a cancelled or past one.
        #expect(
            counts["berlin"]! > 20 && counts["builtin"]! > 6 && counts["utc"] == 1 && counts["allday-alarm"] == 1 && counts["cancelled"] == 0
                && counts["past"] == 0)
        // A vdir of them all, read both ways, with a budget that runs out in the middle.
        let both = (CalendarReader.Budget(instances: 40), CalendarReader.Budget(instances: 40))
        let fast = read(folder.url.path, simple: true, budget: both.0)
        let slow = read(folder.url.path, simple: false, budget: both.1)
        #expect(fast.occurrences == slow.occurrences)
        #expect(fast.problems == slow.problems)
        #expect(fast.problems.last?.cut != nil)
    }

    @Test("a file kept parsed is expanded again without being read; changed, removed or replaced, it is read again")
    func keptBetweenPlans() throws {
        let vdir = folder.path("vdir")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        for n in 0..<20 {
            try file(event("e\(n)", "DTSTART:20260325T0\(n % 10)0000Z\r\nSUMMARY:E\(n)\r\n")).write(
                toFile: "\(vdir)/e\(n).ics", atomically: false, encoding: .utf8)
        }
        let cache = CalendarReader.Cache()
        cache.beginPlan()
        let first = read(vdir, simple: true, cache: cache)
        #expect((cache.parsed, cache.reused, first.occurrences.count) == (20, 0, 20))
        try file(event("e3", "DTSTART:20260326T090000Z\r\nSUMMARY:Moved and renamed\r\n")).write(
            toFile: "\(vdir)/e3.ics", atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: "\(vdir)/e4.ics")
        cache.beginPlan()
        let second = read(vdir, simple: true, cache: cache)
        #expect((cache.parsed, cache.reused, cache.count) == (1, 18, 19))
        #expect(second.occurrences.first { $0.uid == "e3" }?.title == "Moved and renamed")
        #expect(second.occurrences.count == 19)
        // The same plan as one made without the cache.
        #expect(second.occurrences == read(vdir, simple: true).occurrences)
    }
}
