import DawnletCore
import DawnletSystem
import DawnletTestSupport
import Foundation
import Testing

/// Acknowledgements and snoozes written back into someone else's calendar file:
/// only the lines it adds or replaces change; read back, the alarm no longer fires, the snooze does.
@Suite struct CalendarWriteBackTests {
    /// A Thunderbird-like file: a VTIMEZONE, an unknown X- property, a folded DESCRIPTION, LF-free
    /// CRLF lines, two VALARMs (one already acknowledged), and another item after it.
    static let original =
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN", "X-WR-CALNAME:Work",
            "BEGIN:VEVENT", "UID:a:b@example.org", "SUMMARY:Dentist", "X-MOZ-GENERATION:4", "DTSTART:20260310T100000Z",
            "DESCRIPTION:A description long enough to have been folded by the program that wrote it, a",
            " s RFC 5545 says lines longer than 75 octets are.",
            "BEGIN:VALARM", "UID:alarm-1", "ACTION:DISPLAY", "TRIGGER:-PT15M", "ACKNOWLEDGED:20260101T000000Z", "END:VALARM",
            "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT5M", "END:VALARM",
            "END:VEVENT",
            "BEGIN:VEVENT", "UID:other", "SUMMARY:Other", "DTSTART:20260310T120000Z",
            "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT5M", "END:VALARM", "END:VEVENT",
            "END:VCALENDAR",
        ].joined(separator: "\r\n") + "\r\n"

    static let now = Instant(secondsSinceEpoch: 1_773_136_800)  // 2026-03-10T10:00:00Z

    func read(_ text: String) throws -> [CalendarOccurrence] {
        let folder = try TemporaryFolder()
        let path = folder.path("c.ics")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let window = Instant(secondsSinceEpoch: 1_773_100_000)...Instant(secondsSinceEpoch: 1_773_200_000)
        return CalendarReader.read(name: "work", path: path, window: window, zone: .utc).occurrences
    }

    /// Tasks.org-like todos: one due at 10:00 with its own status and an X- property, and one that
    /// repeats daily.
    static let todos =
        [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tasks.org//android//EN",
            "BEGIN:VTODO", "UID:t1", "SUMMARY:Call the plumber", "DUE:20260310T100000Z", "STATUS:NEEDS-ACTION", "PERCENT-COMPLETE:20",
            "X-APPLE-SORT-ORDER:7", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT10M", "END:VALARM", "END:VTODO",
            "BEGIN:VTODO", "UID:t2", "SUMMARY:Pills", "DTSTART:20260310T100000Z", "DUE:20260310T100000Z", "RRULE:FREQ=DAILY",
            "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT10M", "END:VALARM", "END:VTODO",
            "END:VCALENDAR",
        ].joined(separator: "\r\n") + "\r\n"

    @Test(
        "complete: Done on a todo writes STATUS:COMPLETED, COMPLETED and PERCENT-COMPLETE:100 as Tasks.org does — on itself, or on a repeating one's instance's override, added once; read back, it is gone"
    )
    func complete() throws {
        let done = try #require(CalendarWriteBack.complete(Self.todos, uid: "t1", at: Self.now))
        #expect(done.completed)
        let lines = done.text.components(separatedBy: "\r\n")
        for line in ["STATUS:COMPLETED", "COMPLETED:20260310T100000Z", "PERCENT-COMPLETE:100", "X-MOZ-LASTACK:20260310T100000Z", "X-APPLE-SORT-ORDER:7"] {
            #expect(lines.filter { $0 == line }.count == 1, "\(line): \(done.text)")
        }
        #expect(!lines.contains("STATUS:NEEDS-ACTION") && !lines.contains("PERCENT-COMPLETE:20"))
        #expect(try read(done.text).filter { $0.uid == "t1" }.isEmpty, "a completed todo is not planned")
        #expect(try !read(done.text).filter { $0.uid == "t2" }.isEmpty)

        // A repeating one: no instance named, acknowledged only.
        let series = try #require(CalendarWriteBack.complete(Self.todos, uid: "t2", at: Self.now))
        #expect(!series.completed)
        #expect(!series.text.contains("STATUS:COMPLETED") && series.text.contains("X-MOZ-LASTACK:20260310T100000Z"))
        #expect(CalendarWriteBack.complete(Self.todos, uid: "nobody", at: Self.now) == nil)

        // Its instance: an override added after the series, completed; the series itself is not.
        let instance = try #require(CalendarWriteBack.complete(Self.todos, uid: "t2", instance: "20260310T100000Z", at: Self.now))
        #expect(instance.completed)
        let override = [
            "END:VTODO", "BEGIN:VTODO", "UID:t2", "SUMMARY:Pills", "RECURRENCE-ID:20260310T100000Z", "DTSTART:20260310T100000Z",
            "DTSTAMP:20260310T100000Z", "STATUS:COMPLETED", "COMPLETED:20260310T100000Z", "PERCENT-COMPLETE:100", "END:VTODO", "END:VCALENDAR",
        ].joined(separator: "\r\n")
        #expect(instance.text.hasSuffix(override + "\r\n"), "\(instance.text)")
        #expect(instance.text.components(separatedBy: "STATUS:COMPLETED").count == 2)
        let twoDays = Instant(secondsSinceEpoch: 1_773_100_000)...Instant(secondsSinceEpoch: 1_773_300_000)
        let folder = try TemporaryFolder()
        try instance.text.write(toFile: folder.path("c.ics"), atomically: true, encoding: .utf8)
        let left = CalendarReader.read(name: "work", path: folder.path("c.ics"), window: twoDays, zone: .utc).occurrences.filter { $0.uid == "t2" }
        #expect(left.first?.date.description == "2026-03-11", "the instance done, the next one still there: \(left)")
        // Done again: the override it has is completed anew, not added twice.
        let again = try #require(CalendarWriteBack.complete(instance.text, uid: "t2", instance: "20260310T100000Z", at: Self.now.adding(seconds: 60)))
        #expect(again.completed && again.text.components(separatedBy: "RECURRENCE-ID").count == 2, "\(again.text)")
        #expect(again.text.contains("COMPLETED:20260310T100100Z") && !again.text.contains("COMPLETED:20260310T100000Z"))
    }

    @Test(
        "cancel: Skip writes STATUS:CANCELLED — on a todo itself, on a repeating event's instance an override with the series' length (a TZID's DTEND less DTSTART), added once; read back, that instance is gone and the next one stays"
    )
    func cancel() throws {
        let skipped = try #require(CalendarWriteBack.cancel(Self.todos, uid: "t1", at: Self.now))
        #expect(skipped.cancelled)
        let lines = skipped.text.components(separatedBy: "\r\n")
        #expect(lines.filter { $0.hasPrefix("STATUS:") } == ["STATUS:CANCELLED"], "the old STATUS replaced: \(skipped.text)")
        #expect(lines.contains("PERCENT-COMPLETE:20") && !lines.contains { $0.hasPrefix("COMPLETED:") }, "skipped, not done")
        #expect(try read(skipped.text).filter { $0.uid == "t1" }.isEmpty, "a cancelled todo is not planned")

        let weekly =
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//another app//EN", "BEGIN:VEVENT", "UID:standup", "SUMMARY:Standup",
                "DTSTART;TZID=Europe/Berlin:20260310T090000", "DTEND;TZID=Europe/Berlin:20260310T093000", "RRULE:FREQ=WEEKLY",
                "BEGIN:VALARM", "UID:standup-alarm", "ACTION:DISPLAY", "TRIGGER:-PT5M", "END:VALARM", "END:VEVENT", "END:VCALENDAR",
            ].joined(separator: "\r\n") + "\r\n"
        let instance = try #require(CalendarWriteBack.cancel(weekly, uid: "standup", instance: "20260317T080000Z", at: Self.now))
        #expect(instance.cancelled)
        let override = [
            "END:VEVENT", "BEGIN:VEVENT", "UID:standup", "SUMMARY:Standup", "RECURRENCE-ID:20260317T080000Z", "DTSTART:20260317T080000Z",
            "DURATION:PT1800S", "DTSTAMP:20260310T100000Z", "STATUS:CANCELLED", "END:VEVENT", "END:VCALENDAR",
        ].joined(separator: "\r\n")
        #expect(instance.text.hasSuffix(override + "\r\n"), "\(instance.text)")
        #expect(instance.text.components(separatedBy: "STATUS:CANCELLED").count == 2, "the series itself is not cancelled")
        let folder = try TemporaryFolder()
        try instance.text.write(toFile: folder.path("w.ics"), atomically: true, encoding: .utf8)
        let threeWeeks = Instant(secondsSinceEpoch: 1_773_100_000)...Instant(secondsSinceEpoch: 1_773_100_000 + 21 * 86_400)
        let days = CalendarReader.read(name: "work", path: folder.path("w.ics"), window: threeWeeks, zone: .utc).occurrences.map(\.date.description)
        #expect(Array(days.prefix(2)) == ["2026-03-10", "2026-03-24"] && !days.contains("2026-03-17"), "the 17th skipped, the weeks around it kept: \(days)")
        // Skipped again: the override it has is cancelled anew, not added twice.
        let again = try #require(CalendarWriteBack.cancel(instance.text, uid: "standup", instance: "20260317T080000Z", at: Self.now))
        #expect(again.cancelled && again.text.components(separatedBy: "RECURRENCE-ID").count == 2, "\(again.text)")
        #expect(CalendarWriteBack.cancel(weekly, uid: "nobody", at: Self.now) == nil)
    }

    @Test("acknowledge: ACKNOWLEDGED in each VALARM of that UID (an old one replaced) and X-MOZ-LASTACK; every other line as it was")
    func acknowledge() throws {
        let edited = try #require(CalendarWriteBack.acknowledge(Self.original, uid: "a:b@example.org", at: Self.now))
        let before = Self.original.components(separatedBy: "\r\n"), after = edited.components(separatedBy: "\r\n")
        // What changed: one stale ACKNOWLEDGED gone, two ACKNOWLEDGED and one X-MOZ-LASTACK added.
        #expect(before.filter { !after.contains($0) } == ["ACKNOWLEDGED:20260101T000000Z"])
        #expect(after.filter { !before.contains($0) } == ["X-MOZ-LASTACK:20260310T100000Z", "ACKNOWLEDGED:20260310T100000Z", "ACKNOWLEDGED:20260310T100000Z"])
        #expect(after.filter { $0.hasPrefix("ACKNOWLEDGED") || $0.hasPrefix("X-MOZ-LASTACK") }.count == 3)
        #expect(
            before.filter { !$0.hasPrefix("ACKNOWLEDGED") } == after.filter { !$0.hasPrefix("ACKNOWLEDGED") && !$0.hasPrefix("X-MOZ-LASTACK") },
            "the rest in its order, the folded line and the other item untouched")
        let occurrences = try read(edited)
        #expect(occurrences.first { $0.uid == "a:b@example.org" }?.alarms == [], "both alarms were due by 10:00: acknowledged")
        #expect(occurrences.first { $0.uid == "other" }?.alarms?.count == 1)
        #expect(CalendarWriteBack.acknowledge(Self.original, uid: "missing", at: Self.now) == nil)
    }

    @Test("snooze: an RFC 9074 snooze alarm naming its parent, and Thunderbird's X-MOZ-SNOOZE-TIME; read back, it fires once, at its time")
    func snooze() throws {
        let until = Self.now.adding(seconds: 600)
        let edited = try #require(CalendarWriteBack.snooze(Self.original, uid: "a:b@example.org", instanceStart: nil, until: until, at: Self.now))
        #expect(edited.contains("\r\nRELATED-TO;RELTYPE=SNOOZE:alarm-1\r\n"))
        #expect(edited.contains("\r\nTRIGGER;VALUE=DATE-TIME:20260310T101000Z\r\n"))
        #expect(edited.contains("\r\nX-MOZ-SNOOZE-TIME:20260310T101000Z\r\n"))
        let occurrence = try #require(try read(edited).first { $0.uid == "a:b@example.org" })
        #expect(occurrence.alarms == [until], "the Thunderbird and the RFC 9074 snooze are one time, one reminder")
        // Snoozed again later: the first snooze is acknowledged, Thunderbird's time replaced.
        let again = try #require(CalendarWriteBack.snooze(edited, uid: "a:b@example.org", instanceStart: nil, until: until.adding(seconds: 600), at: until))
        #expect(again.components(separatedBy: "X-MOZ-SNOOZE-TIME").count == 2)
        #expect(try read(again).first { $0.uid == "a:b@example.org" }?.alarms == [until.adding(seconds: 600)])
    }

    @Test(
        "snooze of one instance of a repeating item (timed, or all-day named by its key): read back, it fires once, with that instance and not with DTSTART's"
    )
    func snoozeInstance() throws {
        let folder = try TemporaryFolder()
        let berlin = Zone.named("Europe/Berlin")
        func instances(_ text: String) throws -> [String: [String]] {
            try text.write(toFile: folder.path("r.ics"), atomically: true, encoding: .utf8)
            let window = try #require(ISO8601.parse("2026-03-09T00:00", zone: berlin))...(try #require(ISO8601.parse("2026-03-13T00:00", zone: berlin)))
            let read = CalendarReader.read(name: "work", path: folder.path("r.ics"), window: window, zone: berlin).occurrences
            let first = read.sorted { ($0.instance ?? "") < ($1.instance ?? "") }.prefix(3)
            return Dictionary(first.map { ($0.instance ?? "", ($0.alarms ?? []).map { ISO8601.format($0, utcOffset: 0) }) }) { a, _ in a }
        }
        let timed = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "BEGIN:VEVENT", "UID:r", "DTSTART:20260310T100000Z", "RRULE:FREQ=DAILY;COUNT=5",
            "BEGIN:VALARM", "UID:a", "ACTION:DISPLAY", "TRIGGER:-PT10M", "END:VALARM", "END:VEVENT", "END:VCALENDAR", "",
        ].joined(separator: "\r\n")
        let key = try #require(CalendarReference("ics:work:r:20260312T100000Z:10m"))
        let snoozed = try #require(
            CalendarWriteBack.snooze(
                timed, uid: "r", instanceStart: key.instanceStart, until: Instant(secondsSinceEpoch: 1_773_309_900),
                at: Instant(secondsSinceEpoch: 1_773_309_060)))
        #expect(
            try instances(snoozed) == [
                "20260310T100000Z": [], "20260311T100000Z": [], "20260312T100000Z": ["2026-03-12T10:05:00+00:00"],
            ], "acknowledged up to 09:51 on the 12th, that instance snoozed to 10:05")
        let allDay = timed.replacingOccurrences(of: "DTSTART:20260310T100000Z", with: "DTSTART;VALUE=DATE:20260310")
        let day = try #require(CalendarReference("ics:work:r:20260312:10m"))
        let dayEdited = try #require(
            CalendarWriteBack.snooze(
                allDay, uid: "r", instanceStart: day.instanceStart, until: Instant(secondsSinceEpoch: 1_773_309_900),
                at: Instant(secondsSinceEpoch: 1_773_309_060)))
        #expect(dayEdited.contains("X-MOZ-SNOOZE-TIME-1773273600000000:20260312T100500Z"), "the 12th's midnight in UTC")
        #expect(
            try instances(dayEdited) == [
                "20260310": [], "20260311": [], "20260312": ["2026-03-12T10:05:00+00:00"],
            ], "in Berlin: each day's alarm at 23:50 the day before, all acknowledged; the 12th's snoozed")
    }

    @Test("the writer finds the item's file in a vdir and replaces only it, with our own mode (0600), never the old file's")
    func writer() throws {
        let folder = try TemporaryFolder()
        let vdir = folder.path("vdir")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        try Self.original.write(toFile: "\(vdir)/some-name.ics", atomically: true, encoding: .utf8)
        let untouched = Self.original.replacingOccurrences(of: "a:b@example.org", with: "z")
        try untouched.write(toFile: "\(vdir)/z.ics", atomically: true, encoding: .utf8)
        // A mode of another's (setuid, executable, world-readable) is not copied.
        chmod("\(vdir)/some-name.ics", 0o4755)
        let result = CalendarWriter.update(path: vdir, uid: "a:b@example.org") { CalendarWriteBack.acknowledge($0, uid: "a:b@example.org", at: Self.now) }
        #expect(try result.get() == "\(vdir)/some-name.ics")
        #expect(try String(contentsOfFile: "\(vdir)/some-name.ics", encoding: .utf8).contains("X-MOZ-LASTACK"))
        #expect(try String(contentsOfFile: "\(vdir)/z.ics", encoding: .utf8) == untouched)
        #expect((try FileManager.default.attributesOfItem(atPath: "\(vdir)/some-name.ics")[.posixPermissions] as? Int) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: vdir).sorted() == ["some-name.ics", "z.ics"], "no temporary file left")
        guard case .failure(let problem) = CalendarWriter.update(path: vdir, uid: "nobody", { CalendarWriteBack.acknowledge($0, uid: "nobody", at: Self.now) })
        else {
            Issue.record("a UID no file holds was written")
            return
        }
        #expect(problem.message == "no file holds nobody")
    }
}
