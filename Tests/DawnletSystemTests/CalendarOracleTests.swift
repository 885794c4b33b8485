import DawnletCore
import DawnletSystem
import DawnletTestSupport
import Foundation
import Testing

/// The calendar reader against recurring-ical-events on icalendar: the same event
/// instances, by UID and start, on the corpus of other people's calendars, on the reproducers and
/// on generated calendars of repeating events with zones, EXDATEs and overrides.
@Suite struct CalendarOracleTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")
    static let oracle = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts/ical_oracle.py").path

    /// Files where the two differ on purpose, and why.
    static let differOnPurpose: [String: String] = [
        "rfc_7529.ics": "the Chinese, Ethiopic and Hebrew calendars (RSCALE) are not followed here: their DTSTART only",
        "missing_VTIMEZONE_custom.ics": "a TZID that no VTIMEZONE defines and no IANA zone names: reported and skipped, not read as UTC",
        "calendar_with_event_subset.ics": "Outlook's zone names (\"Western/Central Europe\") without a VTIMEZONE: reported and skipped",
        "calendar_with_events.ics": "the same", "calendar_with_shuffeled_events.ics": "the same",
        "calendar_with_different_events.ics": "the same",
        "custom_component_contains_other.ics": "a VEVENT inside an unknown component, with no VCALENDAR: not read",
        "globally_unique_tzid.ics":
            "Mozilla's globally unique TZIDs (/mozilla.org/…/America/New_York) without a VTIMEZONE: reported, skipped (libical's own prefix is read)",
        "multiple_calendar_components.ics":
            "the first VCALENDAR puts an empty line before each folded value, which RFC 5545's folding (CRLF and one space) does not allow: libical reports its lines and reads the second",
        "rdate_with_dates_and_tzid.ics": "an RDATE PERIOD of two dates on a timed event (invalid): its day's start in the planning zone",
    ]

    func instances(_ path: String, from: Instant, to: Instant) -> [String] {
        let result = CalendarReader.read(name: "o", path: path, window: from...to, zone: .utc)
        return result.occurrences.filter { $0.kind == .event }.compactMap { o -> String? in
            let begin = o.start ?? Instant(secondsSinceEpoch: Int64(o.date.dayNumber) * 86_400)
            guard begin >= from, begin < to else { return nil }
            return "\(o.uid) " + (o.start.map(CalendarExport.basic) ?? CalendarExport.basic(o.date))
        }.sorted()
    }

    /// What the oracle says of each file, in one run of it.
    func oracle(_ files: [String], from: String, to: String) throws -> [Any] {
        try Repository.require(Repository.python, "the Python venv with recurring-ical-events")
        let folder = try TemporaryFolder()
        let input = folder.path("cases.json")
        try JSONSerialization.data(withJSONObject: files.map { ["file": $0, "from": from, "to": to] }).write(to: URL(fileURLWithPath: input))
        let (status, output) = try runTool(Repository.python, [Self.oracle, input], environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        try #require(status == 0, "the oracle failed (run `make deps`): \(output.prefix(500))")
        let answer = output.split(separator: "\n").last.map(String.init) ?? ""
        return try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [Any], "\(output.prefix(500))")
    }

    func compare(_ files: [String], from: String, to: String) throws -> (compared: Int, instances: Int, wrong: [String]) {
        let answers = try oracle(files, from: from, to: to)
        func instant(_ basic: String) throws -> Instant {
            let a = Array(basic)
            return try #require(
                ISO8601.parse("\(String(a[0..<4]))-\(String(a[4..<6]))-\(String(a[6..<8]))T\(String(a[9..<11])):\(String(a[11..<13]))", zone: .utc))
        }
        let (begin, end) = (try instant(from), try instant(to))
        var (compared, count, wrong) = (0, 0, [String]())
        for (file, answer) in zip(files, answers) {
            let name = URL(fileURLWithPath: file).lastPathComponent
            guard let expected = answer as? [String], Self.differOnPurpose[name] == nil else { continue }
            let got = instances(file, from: begin, to: end)
            compared += 1
            count += expected.count
            if got != expected {
                let missing = expected.filter { !got.contains($0) }, extra = got.filter { !expected.contains($0) }
                wrong.append("\(name): missing \(missing.prefix(4)), extra \(extra.prefix(4))")
            }
        }
        return (compared, count, wrong)
    }

    @Test("the corpus and the reproducers: the same instances as recurring-ical-events, 1995–2035")
    func corpus() throws {
        var files: [String] = []
        for folder in ["calendars", "reproducers"] {
            let path = Self.corpus.appendingPathComponent(folder).path
            files += try FileManager.default.contentsOfDirectory(atPath: path).sorted().filter { $0.hasSuffix(".ics") }.map { "\(path)/\($0)" }
        }
        let (compared, instances, wrong) = try compare(files, from: "19950101T000000Z", to: "20350101T000000Z")
        #expect(compared > 60, "only \(compared) files compared")
        #expect(instances > 500, "only \(instances) instances compared")
        #expect(wrong.isEmpty, "\(wrong.count) of \(compared) files differ:\n\(wrong.joined(separator: "\n"))")
    }

    @Test("300 generated calendars: repeating events in zones, with UNTIL, COUNT, EXDATEs and moved instances")
    func generated() throws {
        let folder = try TemporaryFolder()
        var rng = SeededRandom(seed: 300)
        let zones = ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Sydney", "UTC"]
        let rules = [
            "FREQ=DAILY", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "FREQ=MONTHLY;BYMONTHDAY=-1", "FREQ=MONTHLY;BYDAY=2TU",
            "FREQ=YEARLY;BYMONTH=3,10;BYDAY=-1SU", "FREQ=WEEKLY;INTERVAL=2", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
            "FREQ=DAILY;BYHOUR=9,17", "FREQ=HOURLY;INTERVAL=7", "FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO",
        ]
        var files: [String] = []
        for n in 0..<300 {
            let zone = zones[Int.random(in: 0..<zones.count, using: &rng)]
            let day = CivilDate(year: 2026, month: Int.random(in: 1...12, using: &rng), day: Int.random(in: 1...28, using: &rng))!
            let hour = [0, 1, 2, 3, 9, 23][Int.random(in: 0..<6, using: &rng)]
            func stamp(_ d: CivilDate, _ h: Int) -> String {
                let c = d.components
                return String(format: "%04d%02d%02dT%02d%02d00", c.year, c.month, c.day, h, 30)
            }
            var rule = rules[Int.random(in: 0..<rules.count, using: &rng)]
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: rule += ";COUNT=\(Int.random(in: 1...60, using: &rng))"
            case 1: rule += ";UNTIL=" + stamp(day.adding(days: Int.random(in: 1...200, using: &rng)), hour) + "Z"
            default: break
            }
            let start = zone == "UTC" ? "DTSTART:\(stamp(day, hour))Z" : "DTSTART;TZID=\(zone):\(stamp(day, hour))"
            var body = "BEGIN:VEVENT\r\nUID:g\(n)\r\nSUMMARY:g\(n)\r\n\(start)\r\nDURATION:PT1H\r\nRRULE:\(rule)\r\n"
            let exdate = day.adding(days: 7)
            body += zone == "UTC" ? "EXDATE:\(stamp(exdate, hour))Z\r\n" : "EXDATE;TZID=\(zone):\(stamp(exdate, hour))\r\n"
            body += "END:VEVENT\r\n"
            if rule.hasPrefix("FREQ=DAILY") && !rule.contains("BYHOUR") {
                // The third day's instance moved three hours later.
                let third = day.adding(days: 2)
                let id = zone == "UTC" ? "RECURRENCE-ID:\(stamp(third, hour))Z" : "RECURRENCE-ID;TZID=\(zone):\(stamp(third, hour))"
                let moved = zone == "UTC" ? "DTSTART:\(stamp(third, (hour + 3) % 24))Z" : "DTSTART;TZID=\(zone):\(stamp(third, (hour + 3) % 24))"
                body += "BEGIN:VEVENT\r\nUID:g\(n)\r\nSUMMARY:moved\r\n\(id)\r\n\(moved)\r\nDURATION:PT1H\r\nEND:VEVENT\r\n"
            }
            let path = folder.path("g\(n).ics")
            try ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + body + "END:VCALENDAR\r\n").write(toFile: path, atomically: true, encoding: .utf8)
            files.append(path)
        }
        let (compared, instances, wrong) = try compare(files, from: "20260101T000000Z", to: "20270701T000000Z")
        #expect(compared == 300)
        #expect(instances > 20_000, "only \(instances) instances compared")
        #expect(wrong.isEmpty, "\(wrong.count) of \(compared) calendars differ:\n\(wrong.prefix(10).joined(separator: "\n"))")
    }

    /// The shapes fixed against RFC 5545 here, generated: all-day and timed rules whose instance is
    /// moved by a RANGE=THISANDFUTURE override, later ones with it (by days, or by hours), and
    /// rules with an UNTIL of DTSTART's own type.
    @Test("200 generated calendars: RANGE=THISANDFUTURE overrides moving all-day instances by days and timed ones by hours")
    func generatedThisAndFuture() throws {
        let folder = try TemporaryFolder()
        var rng = SeededRandom(seed: 33)
        let zones = ["Europe/Berlin", "America/New_York", "Australia/Sydney"]
        let rules = ["FREQ=DAILY", "FREQ=WEEKLY", "FREQ=WEEKLY;BYDAY=MO,TH", "FREQ=MONTHLY;BYMONTHDAY=3,17", "FREQ=DAILY;INTERVAL=3"]
        var files: [String] = []
        for n in 0..<200 {
            let allDay = n % 2 == 0
            let zone = zones[Int.random(in: 0..<zones.count, using: &rng)]
            let day = CivilDate(year: 2026, month: Int.random(in: 1...10, using: &rng), day: Int.random(in: 1...28, using: &rng))!
            let hour = [0, 2, 9, 23][Int.random(in: 0..<4, using: &rng)]
            func value(_ d: CivilDate, _ h: Int, _ m: Int = 0) -> String {
                allDay
                    ? ";VALUE=DATE:\(CalendarExport.basic(d))" : ";TZID=\(zone):\(CalendarExport.basic(d))T\(h < 10 ? "0" : "")\(h)\(m < 10 ? "0" : "")\(m)00"
            }
            var rule = rules[Int.random(in: 0..<rules.count, using: &rng)]
            rule +=
                Int.random(in: 0..<2, using: &rng) == 0
                ? ";COUNT=\(Int.random(in: 5...30, using: &rng))"
                : ";UNTIL=" + (allDay ? CalendarExport.basic(day.adding(days: 120)) : CalendarExport.basic(day.adding(days: 120)) + "T000000Z")
            var body = "BEGIN:VEVENT\r\nUID:t\(n)\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:t\(n)\r\nDTSTART\(value(day, hour))\r\nRRULE:\(rule)\r\nEND:VEVENT\r\n"
            // The first instance on or after a week in: moved, with every later one.
            var moved: CivilDate?
            try RecurrenceRule(parsing: rule).forEach(
                start: LocalDateTime(date: day, secondsOfDay: hour * 3600), through: LocalDateTime(date: day.adding(days: 400))
            ) { t in
                if t.date >= day.adding(days: 7) { moved = t.date }
                return moved == nil
            }
            if let original = moved {
                let by = Int.random(in: 1...3, using: &rng)
                let start = allDay ? value(original.adding(days: by), 0) : value(original, (hour + by) % 24, 30)
                body += "BEGIN:VEVENT\r\nUID:t\(n)\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:moved\r\n"
                body += "RECURRENCE-ID;RANGE=THISANDFUTURE\(value(original, hour))\r\nDTSTART\(start)\r\nEND:VEVENT\r\n"
            }
            let path = folder.path("t\(n).ics")
            try ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + body + "END:VCALENDAR\r\n").write(toFile: path, atomically: true, encoding: .utf8)
            files.append(path)
        }
        let (compared, instances, wrong) = try compare(files, from: "20260101T000000Z", to: "20280101T000000Z")
        #expect(compared == 200)
        #expect(instances > 2_000, "only \(instances) instances compared")
        #expect(wrong.isEmpty, "\(wrong.count) of \(compared) calendars differ:\n\(wrong.prefix(10).joined(separator: "\n"))")
    }
}
