import DawnletCore
import DawnletSystem
import DawnletTestSupport
import Foundation
import Testing

/// Calendar files made to cost: each is read in bounded work, what exceeds a bound is reported
/// once and skipped, and the rest is still planned.
@Suite struct HostileCalendarTests {
    let folder: TemporaryFolder
    let zone = Zone.named("UTC")
    let window: ClosedRange<Instant>

    init() throws {
        folder = try TemporaryFolder()
        window = ISO8601.parse("2026-12-01T00:00", zone: zone)!...ISO8601.parse("2026-12-15T00:00", zone: zone)!
    }

    func calendar(_ body: String, zones: String = "") -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:test\r\n\(zones)\(body)END:VCALENDAR\r\n"
    }

    func event(_ uid: String, start: String = "20261201T090000Z", summary: String = "S", _ extra: String = "") -> String {
        "BEGIN:VEVENT\r\nUID:\(uid)\r\nDTSTAMP:20261101T000000Z\r\nDTSTART:\(start)\r\nSUMMARY:\(summary)\r\n\(extra)END:VEVENT\r\n"
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = folder.path(name)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    func read(_ path: String, budget: CalendarReader.Budget = CalendarReader.Budget()) -> CalendarReader.Result {
        CalendarReader.read(name: "x", path: path, window: window, zone: zone, budget: budget)
    }

    @Test("a NUL byte drops only the component holding it (the innermost: an event, or only its alarm) or, outside any, its line; each said with its lines")
    func nulBytes() throws {
        let alarm = "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:x\u{0}y\r\nTRIGGER:-PT5M\r\nEND:VALARM\r\n"
        let text = calendar(event("a") + event("b", summary: "B\u{0}ad") + event("c", alarm) + "X-NOTE:n\u{0}\r\n" + event("d"))
        let result = read(try write("nul.ics", text))
        #expect(result.occurrences.map(\.uid) == ["a", "c", "d"])
        #expect(result.occurrences.first { $0.uid == "c" }.map { $0.alarms == nil } == true)
        #expect(
            result.problems.map(\.message) == [
                "a NUL byte at line 14: the VEVENT of lines 10–15 left out",
                "a NUL byte at line 23: the VALARM of lines 21–25 left out",
                "a NUL byte at line 27: that line left out",
            ])
    }

    @Test("invalid UTF-8 is shown as U+FFFD, with one warning naming its first line; the items are read")
    func invalidUTF8() throws {
        var bytes = Array(calendar(event("a", summary: "caf__") + event("b", summary: "x__")).utf8)
        for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: "_") { bytes[i] = i % 2 == 0 ? 0xE9 : 0xFF }
        let path = folder.path("latin.ics")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = read(path)
        #expect(result.occurrences.map(\.title) == ["caf\u{FFFD}\u{FFFD}", "x\u{FFFD}\u{FFFD}"])
        #expect(result.problems.map(\.message) == ["not valid UTF-8 at line 8: shown with \u{FFFD} in its place"])
    }

    @Test("a FIFO and a link to a device in a vdir are skipped unopened (no hang, the link not followed); the vdir's other files are read")
    func notRegular() throws {
        let vdir = folder.path("vdir")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: false)
        #expect(mkfifo(vdir + "/fifo.ics", 0o600) == 0)
        #expect(symlink("/dev/zero", vdir + "/zero.ics") == 0)
        try calendar(event("ok")).write(toFile: vdir + "/ok.ics", atomically: false, encoding: .utf8)
        let result = read(vdir)
        #expect(result.occurrences.map(\.uid) == ["ok"])
        #expect(Set(result.problems.map(\.message)) == ["not a regular file: skipped", "a symbolic link, not followed: skipped"])
        #expect(result.problems.count == 2)
        // The calendar's own path, named in the config, is followed.
        #expect(read(vdir + "/zero.ics").problems.map(\.message) == ["not a regular file: skipped"])
        // A FIFO configured as the calendar itself, too.
        #expect(read(vdir + "/fifo.ics").problems.map(\.message) == ["not a regular file: skipped"])
    }

    @Test("SECONDLY rules: reported, only DTSTART kept; MINUTELY ones expanded, as RFC 5545's own examples are")
    func finerThanMinutes() throws {
        let body =
            (0..<10).map { event("s\($0)", start: "20200101T000000Z", "RRULE:FREQ=SECONDLY\r\n") }.joined()
            + event("m", start: "20261201T080000Z", "RRULE:FREQ=MINUTELY;INTERVAL=7\r\n")
        let result = read(try write("fine.ics", calendar(body)))
        let start = try #require(ISO8601.parse("2026-12-01T08:00:00Z", zone: .utc))
        let steps = Int((window.upperBound.secondsSinceEpoch - start.secondsSinceEpoch) / 420) + 1
        #expect(Set(result.occurrences.map(\.uid)) == ["m"])
        let inside = result.occurrences.compactMap(\.start).filter { $0 <= window.upperBound }
        #expect(inside.count == steps, "every 7 minutes from 08:00Z to the window's end")
        #expect(inside.allSatisfy { ($0.secondsSinceEpoch - start.secondsSinceEpoch) % 420 == 0 })
        #expect(result.problems.count == 10)
        #expect(result.problems.last?.message == "s9: an RRULE repeating SECONDLY is finer than reminders can follow: only its DTSTART is kept")
    }

    @Test("a VTIMEZONE whose rule repeats every second is not used; its items are reported, others read")
    func fastZone() throws {
        let zones = """
            BEGIN:VTIMEZONE\r\nTZID:Custom/Fast\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nRRULE:FREQ=SECONDLY\r\n\
            TZOFFSETFROM:+0100\r\nTZOFFSETTO:+0000\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n
            """
        let body =
            "BEGIN:VEVENT\r\nUID:t\r\nDTSTAMP:20261101T000000Z\r\nDTSTART;TZID=Custom/Fast:20261202T090000\r\nSUMMARY:tz\r\nEND:VEVENT\r\n"
            + event("plain")
        let result = read(try write("zone.ics", calendar(body, zones: zones)))
        #expect(result.occurrences.map(\.uid) == ["plain"])
        #expect(
            result.problems.map(\.message) == [
                #"VTIMEZONE "Custom/Fast": a rule repeating SECONDLY is no time zone rule: that VTIMEZONE is not used"#,
                #"t: unknown time zone "Custom/Fast" (no VTIMEZONE of that name, not an IANA name): skipped"#,
            ])
    }

    @Test("a 10 MB SUMMARY is cut to a title of 500 characters; a 5 MB UID and a list of 100,000 RDATEs are left out, reported")
    func longProperties() throws {
        let rdates = (0..<100_000).map { "2026\(String(format: "%02d%02d", $0 % 12 + 1, $0 % 28 + 1))T\(String(format: "%02d", $0 % 24))0000Z" }
        let body =
            event("big", summary: String(repeating: "Ü", count: 5_000_000))
            + event(String(repeating: "u", count: 5_000_000), start: "20261201T000000Z", "RRULE:FREQ=HOURLY\r\n")
            + event("listed", start: "20261203T090000Z", "RDATE:" + rdates.joined(separator: ",") + "\r\n")
        let result = read(try write("long.ics", calendar(body)))
        let big = try #require(result.occurrences.first { $0.uid == "big" })
        #expect(big.title.count == CalendarReader.longestTitle)
        #expect(big.title.hasPrefix("ÜÜÜ") && big.title.hasSuffix("…"))
        // The UID-less item is named by its place in the file, and repeats hourly through the window.
        #expect(result.occurrences.filter { $0.uid == "long.ics#1" }.count > 14 * 24)
        // The RDATE list is gone: DTSTART alone remains.
        #expect(result.occurrences.filter { $0.uid == "listed" }.count == 1)
        #expect(result.problems.map(\.message) == ["properties longer than 16 KiB: SUMMARY cut, others left out (RDATE, SUMMARY, UID)"])
    }

    @Test("the budget is the plan's: 500 hourly rules spend it once, reported once; the calendars after it are skipped, named")
    func planBudget() throws {
        let hourly = try write("hourly.ics", calendar((0..<500).map { event("h\($0)", start: "20261101T000000Z", "RRULE:FREQ=HOURLY\r\n") }.joined()))
        let later = try write("later.ics", calendar(event("later")))
        let budget = CalendarReader.Budget(instances: 10_000)
        let first = read(hourly, budget: budget)
        let second = read(later, budget: budget)
        // The rule's own problem, then the calendar's cut: that rule, no file left unread.
        #expect(first.problems.count == 2)
        let cut = try #require(first.problems.last?.cut)
        #expect(cut.calendar == "x" && cut.ruleCut?.hasPrefix("h") == true && cut.filesNotRead == 0 && cut.limit == "10000 instances")
        #expect(
            first.problems.first?.message.hasSuffix(
                "the plan's calendar budget of 10000 instances is spent: the rest of this rule, and of the calendars after it, is skipped") == true)
        #expect(!first.occurrences.isEmpty)
        #expect(second.occurrences.isEmpty)
        #expect(second.problems.map(\.message) == ["the plan's calendar budget of 10000 instances is spent: 1 of 1 file not read"])
        #expect(second.problems.first?.cut?.description == "calendar \"x\": the plan's calendar budget of 10000 instances is spent: 1 of 1 file not read")
        // Alone, with a budget of its own, the later file is read.
        #expect(read(later).occurrences.count == 1)
    }
}
