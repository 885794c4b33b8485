import DawnletCore
import DawnletSystem
import DawnletTestSupport
import Foundation
import Testing

/// The reproducers (Corpus/reproducers: small files dawnlet once planned wrong), each giving what
/// RFC 5545 says, and the other disagreements with the RFC found with them, on files made here.
@Suite struct CalendarRFCTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus/reproducers")
    let scratch: TemporaryFolder

    init() throws { scratch = try TemporaryFolder() }

    func at(_ text: String, _ zone: Zone = .utc) -> Instant {
        guard let instant = ISO8601.parse(text, zone: zone) else { preconditionFailure(text) }
        return instant
    }

    func read(_ name: String, from: String, to: String, zone: Zone = .utc) -> CalendarReader.Result {
        let path = name.hasPrefix("/") ? name : Self.folder.appendingPathComponent(name).path
        return CalendarReader.read(name: "test", path: path, window: at(from, zone)...at(to, zone), zone: zone)
    }

    /// A file of these components, in a VCALENDAR.
    func file(_ body: String) throws -> String {
        let path = scratch.path("\(UUID().uuidString.prefix(8)).ics")
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + body.split(separator: "\n").joined(separator: "\r\n") + "\r\nEND:VCALENDAR\r\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func utc(_ instants: [Instant]?) -> [String] {
        (instants ?? []).map { ISO8601.format($0, utcOffset: 0) }
    }

    @Test("UNTIL in UTC on a Europe/Berlin rule keeps its last instance (Mar 4 09:00 CET is 08:00Z)")
    func untilEastOfUTC() {
        let result = read("until_east.ics", from: "2026-03-01T00:00", to: "2026-03-10T00:00")
        #expect(result.occurrences.map(\.instance) == ["20260302T080000Z", "20260303T080000Z", "20260304T080000Z"])
    }

    @Test("a repeating VTODO counts its instances from DTSTART, each due as long after; EXDATE names a DTSTART")
    func todoFromStart() {
        let result = read("todo_rrule.ics", from: "2026-03-01T00:00", to: "2026-07-01T00:00")
        #expect(result.occurrences.map(\.instance) == ["20260302T090000Z", "20260504T090000Z"])
        #expect(utc(result.occurrences.compactMap(\.start)) == ["2026-03-04T09:00:00+00:00", "2026-05-06T09:00:00+00:00"])
    }

    @Test("an absolute TRIGGER on a repeating event fires once; one on an event months away fires in its window")
    func absoluteTriggerOnce() {
        let result = read("abs_alarm.ics", from: "2026-03-01T00:00", to: "2026-03-10T00:00")
        let abs = result.occurrences.filter { $0.uid == "abs" }
        #expect(abs.count == 4)
        #expect(utc(abs.flatMap { $0.alarms ?? [] }) == ["2026-03-01T12:00:00+00:00"])
        #expect(utc(result.occurrences.first { $0.uid == "abs-far" }?.alarms) == ["2026-03-05T12:00:00+00:00"])
    }

    @Test("REPEAT and DURATION: an alarm and its two repetitions")
    func repeatedAlarm() throws {
        let path = try file(
            """
            BEGIN:VEVENT
            UID:r
            DTSTART:20260310T100000Z
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER:-PT5M
            REPEAT:2
            DURATION:PT5M
            END:VALARM
            END:VEVENT
            """)
        let result = read(path, from: "2026-03-10T00:00", to: "2026-03-11T00:00")
        #expect(utc(result.occurrences.first?.alarms) == ["2026-03-10T09:55:00+00:00", "2026-03-10T10:00:00+00:00", "2026-03-10T10:05:00+00:00"])
    }

    @Test("RELATED=END on a VTODO counts from DUE; RELATED=START from DTSTART (from DUE without one)")
    func todoRelatedEnd() {
        let result = read("todo_end.ics", from: "2026-03-09T00:00", to: "2026-03-13T00:00")
        #expect(utc(result.occurrences.first { $0.uid == "todo-end" }?.alarms) == ["2026-03-10T08:45:00+00:00", "2026-03-10T08:55:00+00:00"])
        #expect(utc(result.occurrences.first { $0.uid == "todo-start-due" }?.alarms) == ["2026-03-10T07:45:00+00:00", "2026-03-12T08:55:00+00:00"])
    }

    @Test("RECURRENCE-ID;RANGE=THISANDFUTURE moves that instance and every later one, with its properties")
    func thisAndFuture() throws {
        let path = try file(
            """
            BEGIN:VEVENT
            UID:t
            SUMMARY:before
            DTSTART:20260302T090000Z
            RRULE:FREQ=DAILY;COUNT=5
            END:VEVENT
            BEGIN:VEVENT
            UID:t
            SUMMARY:after
            RECURRENCE-ID;RANGE=THISANDFUTURE:20260304T090000Z
            DTSTART:20260304T110000Z
            END:VEVENT
            """)
        let result = read(path, from: "2026-03-01T00:00", to: "2026-03-10T00:00")
        let got = result.occurrences.sorted { ($0.start ?? Instant(secondsSinceEpoch: 0)) < ($1.start ?? Instant(secondsSinceEpoch: 0)) }
            .map { "\($0.title) \(ISO8601.format($0.start!, utcOffset: 0)) \($0.instance ?? "")" }
        #expect(
            got == [
                "before 2026-03-02T09:00:00+00:00 20260302T090000Z", "before 2026-03-03T09:00:00+00:00 20260303T090000Z",
                "after 2026-03-04T11:00:00+00:00 20260304T090000Z", "after 2026-03-05T11:00:00+00:00 20260305T090000Z",
                "after 2026-03-06T11:00:00+00:00 20260306T090000Z",
            ], "\(got)")
    }

    @Test("an absolute TRIGGER in a RANGE=THISANDFUTURE override fires once, with the override's own instance, not once per later instance")
    func thisAndFutureAbsoluteAlarm() throws {
        let path = try file(
            """
            BEGIN:VEVENT
            UID:t
            SUMMARY:standup
            DTSTART:20260302T090000Z
            RRULE:FREQ=DAILY;COUNT=40
            END:VEVENT
            BEGIN:VEVENT
            UID:t
            SUMMARY:standup moved
            RECURRENCE-ID;RANGE=THISANDFUTURE:20260304T090000Z
            DTSTART:20260304T100000Z
            BEGIN:VALARM
            ACTION:DISPLAY
            DESCRIPTION:once
            TRIGGER;VALUE=DATE-TIME:20260303T180000Z
            END:VALARM
            END:VEVENT
            """)
        let result = read(path, from: "2026-03-01T00:00", to: "2026-04-15T00:00")
        let absolute = at("2026-03-03T18:00")
        let holding = result.occurrences.filter { $0.alarms?.contains(absolute) == true }
        #expect(holding.map(\.instance) == ["20260304T090000Z"], "\(holding.map(\.instance))")
        // The later instances keep the override's other properties.
        #expect(result.occurrences.filter { $0.title == "standup moved" }.count == 38)
    }

    @Test(
        "an absolute TRIGGER copied into a single override fires once, with the master's DTSTART instance; an override's own other absolute TRIGGER still fires"
    )
    func absoluteAlarmCopiedIntoOverride() throws {
        let path = try file(
            """
            BEGIN:VEVENT
            UID:c
            SUMMARY:course
            DTSTART:20260302T090000Z
            RRULE:FREQ=DAILY;COUNT=5
            BEGIN:VALARM
            ACTION:DISPLAY
            DESCRIPTION:register
            TRIGGER;VALUE=DATE-TIME:20260301T120000Z
            END:VALARM
            END:VEVENT
            BEGIN:VEVENT
            UID:c
            SUMMARY:course, room changed
            RECURRENCE-ID:20260304T090000Z
            DTSTART:20260304T100000Z
            BEGIN:VALARM
            ACTION:DISPLAY
            DESCRIPTION:register
            TRIGGER;VALUE=DATE-TIME:20260301T120000Z
            END:VALARM
            BEGIN:VALARM
            ACTION:DISPLAY
            DESCRIPTION:bring the key
            TRIGGER;VALUE=DATE-TIME:20260304T080000Z
            END:VALARM
            END:VEVENT
            """)
        let result = read(path, from: "2026-03-01T00:00", to: "2026-03-10T00:00")
        let register = result.occurrences.filter { $0.alarms?.contains(at("2026-03-01T12:00")) == true }
        #expect(register.map(\.instance) == ["20260302T090000Z"], "\(register.map(\.instance))")
        let key = result.occurrences.filter { $0.alarms?.contains(at("2026-03-04T08:00")) == true }
        #expect(key.map(\.instance) == ["20260304T090000Z"], "\(key.map(\.instance))")
    }

    @Test("an all-day RANGE=THISANDFUTURE override that moves the date moves every later instance by as many days (RFC 5545 §3.8.4.4)")
    func thisAndFutureAllDay() throws {
        let path = try file(
            """
            BEGIN:VEVENT
            UID:a
            SUMMARY:bins
            DTSTART;VALUE=DATE:20260401
            RRULE:FREQ=WEEKLY;COUNT=5
            END:VEVENT
            BEGIN:VEVENT
            UID:a
            SUMMARY:bins, a day later
            RECURRENCE-ID;VALUE=DATE;RANGE=THISANDFUTURE:20260408
            DTSTART;VALUE=DATE:20260409
            END:VEVENT
            """)
        let berlin = Zone.named("Europe/Berlin")
        let result = read(path, from: "2026-03-25T00:00", to: "2026-05-10T00:00", zone: berlin)
        let got = result.occurrences.map { "\($0.date) \($0.title)" }.sorted()
        #expect(
            got == [
                "2026-04-01 bins", "2026-04-09 bins, a day later", "2026-04-16 bins, a day later", "2026-04-23 bins, a day later",
                "2026-04-30 bins, a day later",
            ], "\(got)")
    }

    @Test("an all-day VTODO with DTSTART and DUE is on its DUE date, as a timed one is at its DUE; each instance of a repeating one too")
    func allDayTodoDue() throws {
        let path = try file(
            """
            BEGIN:VTODO
            UID:tax
            SUMMARY:tax return
            DTSTART;VALUE=DATE:20260401
            DUE;VALUE=DATE:20260415
            END:VTODO
            BEGIN:VTODO
            UID:report
            SUMMARY:report
            DTSTART;VALUE=DATE:20260401
            DUE;VALUE=DATE:20260403
            RRULE:FREQ=WEEKLY;COUNT=2
            END:VTODO
            """)
        let result = read(path, from: "2026-03-25T00:00", to: "2026-05-10T00:00", zone: .named("Europe/Berlin"))
        #expect(result.occurrences.map { "\($0.uid) \($0.date)" }.sorted() == ["report 2026-04-03", "report 2026-04-10", "tax 2026-04-15"])
    }

    @Test("BYHOUR/BYMINUTE on an all-day DTSTART (forbidden by §3.3.10) are ignored with one warning, and no day is lost")
    func timePartsOnADate() throws {
        let path = try file(
            """
            BEGIN:VEVENT
            UID:d
            SUMMARY:day off
            DTSTART;VALUE=DATE:20260401
            RRULE:FREQ=DAILY;COUNT=3;BYHOUR=9;BYMINUTE=15,45
            END:VEVENT
            """)
        let result = read(path, from: "2026-03-25T00:00", to: "2026-04-10T00:00", zone: .named("Europe/Berlin"))
        #expect(result.occurrences.map(\.date.description).sorted() == ["2026-04-01", "2026-04-02", "2026-04-03"])
        #expect(result.problems.map(\.message) == ["d: BYHOUR, BYMINUTE and BYSECOND have no meaning with an all-day DTSTART: ignored"])
    }

    @Test("an UNTIL of the other value type than DTSTART (§3.3.10): a date keeps that whole day; a time, the days begun by then; one warning each")
    func untilOfTheOtherType() throws {
        let timed = try file(
            """
            BEGIN:VEVENT
            UID:timed
            SUMMARY:stand-up
            DTSTART;TZID=Europe/Berlin:20260401T170000
            RRULE:FREQ=DAILY;UNTIL=20260403
            END:VEVENT
            """)
        let berlin = Zone.named("Europe/Berlin")
        let first = read(timed, from: "2026-03-25T00:00", to: "2026-04-10T00:00", zone: berlin)
        #expect(utc(first.occurrences.compactMap(\.start)) == ["2026-04-01T15:00:00+00:00", "2026-04-02T15:00:00+00:00", "2026-04-03T15:00:00+00:00"])
        #expect(first.problems.map(\.message) == ["timed: UNTIL is a date while DTSTART has a time: read as the end of that day"])
        let allDay = try file(
            """
            BEGIN:VEVENT
            UID:days
            SUMMARY:holiday
            DTSTART;VALUE=DATE:20260401
            RRULE:FREQ=DAILY;UNTIL=20260403T120000Z
            END:VEVENT
            """)
        let second = read(allDay, from: "2026-03-25T00:00", to: "2026-04-10T00:00", zone: berlin)
        #expect(second.occurrences.map(\.date.description) == ["2026-04-01", "2026-04-02", "2026-04-03"])
        #expect(second.problems.map(\.message) == ["days: UNTIL has a time while DTSTART is all-day: the days that begin by then are kept"])
    }

    @Test("a todo's THISANDFUTURE override moves its instances by its DTSTART, and each is due as long after")
    func thisAndFutureTodo() throws {
        let path = try file(
            """
            BEGIN:VTODO
            UID:t
            DTSTART:20260302T090000Z
            DUE:20260302T100000Z
            RRULE:FREQ=DAILY;COUNT=3
            END:VTODO
            BEGIN:VTODO
            UID:t
            RECURRENCE-ID;RANGE=THISANDFUTURE:20260303T090000Z
            DTSTART:20260303T110000Z
            DUE:20260303T120000Z
            END:VTODO
            """)
        let result = read(path, from: "2026-03-01T00:00", to: "2026-03-10T00:00")
        #expect(
            utc(result.occurrences.compactMap(\.start).sorted()) == ["2026-03-02T10:00:00+00:00", "2026-03-03T12:00:00+00:00", "2026-03-04T12:00:00+00:00"])
    }

    @Test("-P1D is a nominal day (the same 09:00 across spring forward); -PT15M across the gap and a DURATION across fall back are exact")
    func nominalAndExact() {
        let berlin = Zone.named("Europe/Berlin")
        let spring = read("dst_alarm.ics", from: "2026-03-27T00:00", to: "2026-03-31T00:00", zone: berlin)
        #expect(utc(spring.occurrences.first { $0.uid == "p1d" }?.alarms) == ["2026-03-28T08:00:00+00:00"], "09:00 CET the day before")
        #expect(utc(spring.occurrences.first { $0.uid == "pt15m" }?.alarms) == ["2026-03-29T00:55:00+00:00"], "03:10 CEST less 15 minutes")
        let autumn = read("dst_alarm.ics", from: "2026-10-24T00:00", to: "2026-10-28T00:00", zone: berlin)
        #expect(
            utc(autumn.occurrences.filter { $0.uid == "dur-across" }.flatMap { $0.alarms ?? [] }) == [
                "2026-10-25T01:30:00+00:00", "2026-10-26T02:30:00+00:00",
            ], "two exact hours after 01:30 CEST, and after 01:30 CET")
        // recurring-ical-events 3.8 ends the first at 03:30 CET (02:30Z): three hours of wall
        // time. RFC 5545 §3.3.6: hours are exact. Ours stands.
    }

    @Test("a DUE as far after DTSTART as an exact 24 hours stays 24 exact hours for each instance, across spring forward (§3.8.5.3)")
    func dueOffsetAcrossDST() throws {
        let path = try file(
            """
            BEGIN:VTODO
            UID:due-across
            SUMMARY:due-across
            DTSTART;TZID=Europe/Berlin:20260327T090000
            DUE;TZID=Europe/Berlin:20260328T090000
            RRULE:FREQ=DAILY;COUNT=3
            END:VTODO
            """)
        let result = read(path, from: "2026-03-25T00:00", to: "2026-04-05T00:00", zone: .named("Europe/Berlin"))
        // The second instance starts 09:00 CET on the 28th; 24 hours later is 10:00 CEST on the
        // 29th (a day of 23 hours). recurring-ical-events 3.8 says 09:00 CEST (a wall-clock day):
        // the RFC's "the same exact duration will apply to all the members" says otherwise.
        #expect(
            utc(result.occurrences.compactMap(\.start)) == ["2026-03-28T08:00:00+00:00", "2026-03-29T08:00:00+00:00", "2026-03-30T07:00:00+00:00"])
    }

    @Test("an alarm 14 days before its event is read in a window that holds the alarm, not the event")
    func longLead() {
        let result = read("long_lead.ics", from: "2026-03-15T00:00", to: "2026-03-20T00:00")
        #expect(utc(result.occurrences.first?.alarms) == ["2026-03-18T09:00:00+00:00"])
    }

    @Test("the seconds of a DTSTART are kept")
    func seconds() throws {
        let path = try file("BEGIN:VEVENT\nUID:s\nDTSTART:20150325T101010\nEND:VEVENT")
        #expect(read(path, from: "2015-03-25T00:00", to: "2015-03-26T00:00").occurrences.first?.start == at("2015-03-25T10:10:10"))
    }

    @Test("rules libical takes a second over expand at once, as the RFC says")
    func slowRules() {
        let clock = ContinuousClock()
        let begun = clock.now
        let result = read("slow5.ics", from: "2024-10-01T00:00", to: "2025-02-01T00:00")
        let elapsed = clock.now - begun
        #expect(elapsed < .milliseconds(500), "\(elapsed)")
        #expect(
            result.occurrences.filter { $0.uid == "slow0" }.map(\.instance) == [
                "20241030T090000Z", "20241031T090000Z", "20241129T090000Z", "20241130T090000Z", "20241230T090000Z",
            ])
        #expect(result.occurrences.count == 25)
    }

    @Test("the same UID twice without RECURRENCE-ID keeps the higher SEQUENCE and says so; what follows END:VCALENDAR is named")
    func duplicatesAndTrailing() {
        let dup = read("dupuid.ics", from: "2026-03-01T00:00", to: "2026-03-10T00:00")
        #expect(dup.occurrences.map(\.title) == ["v2"])
        #expect(dup.problems.map(\.message) == ["dup: the same UID twice without RECURRENCE-ID: the one of SEQUENCE 1 is used"])
        let bare = read("bare.ics", from: "2026-03-01T00:00", to: "2026-03-10T00:00")
        #expect(bare.occurrences.map(\.uid) == ["in-cal"])
        #expect(bare.problems.map(\.message) == ["BEGIN:VEVENT at line 11 after END:VCALENDAR is outside the calendar: not read"])
    }

    @Test("acknowledged elsewhere: Thunderbird's X-MOZ-LASTACK and X-MOZ-SNOOZE-TIME, from its own files")
    func thunderbirdAcknowledged() {
        let calendars = Self.folder.deletingLastPathComponent().appendingPathComponent("calendars").path
        let window = ("2024-10-23T12:00", "2024-10-23T20:00")
        let snoozed = read("\(calendars)/alarm_thunderbird_snoozed_until_1457.ics", from: window.0, to: window.1)
        #expect(utc(snoozed.occurrences.first?.alarms) == ["2024-10-23T13:57:02+00:00"], "both alarms acknowledged, the snooze fires")
        let closed = read("\(calendars)/alarm_thunderbird_closed.ics", from: window.0, to: window.1)
        #expect(closed.occurrences.first?.alarms == [], "every alarm acknowledged, and no default reminder instead")
        let postponed = read("\(calendars)/alarm_thunderbird_2_notification_5_min_postponed.ics", from: window.0, to: window.1)
        #expect(
            utc(postponed.occurrences.first?.alarms) == ["2024-10-23T17:41:30+00:00", "2024-10-23T17:59:00+00:00"],
            "the 24-minute alarm acknowledged and snoozed five minutes; the 1-minute one still to come")
    }

    @Test("acknowledged elsewhere: RFC 9074's ACKNOWLEDGED and snooze alarms; Thunderbird's snooze of one instance")
    func rfc9074Acknowledged() throws {
        let path = try file(
            """
            BEGIN:VEVENT
            UID:e
            DTSTART:20260310T100000Z
            BEGIN:VALARM
            UID:a1
            ACTION:DISPLAY
            TRIGGER:-PT15M
            ACKNOWLEDGED:20260310T094600Z
            END:VALARM
            BEGIN:VALARM
            UID:a2
            ACTION:DISPLAY
            TRIGGER:-PT5M
            END:VALARM
            BEGIN:VALARM
            UID:a3
            ACTION:DISPLAY
            TRIGGER:-PT1M
            ACKNOWLEDGED:20260310T090000Z
            END:VALARM
            BEGIN:VALARM
            UID:s
            ACTION:DISPLAY
            RELATED-TO;RELTYPE=SNOOZE:a2
            TRIGGER;VALUE=DATE-TIME:20260310T100500Z
            END:VALARM
            END:VEVENT
            BEGIN:VEVENT
            UID:r
            DTSTART:20260310T100000Z
            RRULE:FREQ=DAILY;COUNT=3
            X-MOZ-LASTACK:20260311T095100Z
            X-MOZ-SNOOZE-TIME-1773223200000000:20260311T100500Z
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER:-PT10M
            END:VALARM
            END:VEVENT
            """)
        let result = read(path, from: "2026-03-09T00:00", to: "2026-03-13T00:00")
        #expect(
            utc(result.occurrences.first { $0.uid == "e" }?.alarms) == ["2026-03-10T09:59:00+00:00", "2026-03-10T10:05:00+00:00"],
            "a1 acknowledged after it fired; a2 snoozed to 10:05; a3 acknowledged before its time, so it still fires")
        #expect(
            result.occurrences.filter { $0.uid == "r" }.map { utc($0.alarms) } == [
                [], ["2026-03-11T10:05:00+00:00"], ["2026-03-12T09:50:00+00:00"],
            ], "the first two instances' alarms acknowledged, the second snoozed, the third still to come")
    }

    @Test("edges: an EXDATE equal to a single event's DTSTART leaves nothing; a DATE EXDATE takes out that day's instance")
    func exdateEdges() {
        let result = read("edges.ics", from: "2026-03-01T00:00", to: "2026-03-20T00:00")
        #expect(!result.occurrences.contains { $0.uid == "exdate-single" })
        #expect(result.occurrences.filter { $0.uid == "exdate-date-on-timed" }.map(\.instance) == ["20260306T090000Z", "20260308T090000Z"])
        #expect(result.occurrences.contains { $0.uid == "at-from" } && result.occurrences.contains { $0.uid == "at-to" })
    }
}

/// RFC 5545's own examples of RRULE (§3.8.5.3), with the answers its text gives, read as a file
/// another program wrote: a VEVENT per example, its instances through the whole reader.
@Suite struct RFC5545ExampleTests {
    struct Example: CustomTestStringConvertible, Sendable {
        let title: String
        let lines: [String]
        let instances: [String]
        let partial: Bool
        var testDescription: String { title }
    }

    static let examples: [Example] = {
        let url = CalendarRFCTests.folder.deletingLastPathComponent().appendingPathComponent("rfc5545-rrule-examples.txt")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.components(separatedBy: "\n\n").compactMap { block in
            let lines = block.split(separator: "\n").map(String.init)
            guard let instances = lines.first(where: { $0.hasPrefix("INSTANCES:") }) else { return nil }
            return Example(
                title: lines.first { $0.hasPrefix("# ") }.map { String($0.dropFirst(2)) } ?? "",
                lines: lines.filter { !$0.hasPrefix("#") && !$0.hasPrefix("INSTANCES:") && $0 != "PARTIAL" },
                instances: instances.dropFirst("INSTANCES:".count).split(separator: ",").map(String.init),
                partial: lines.contains("PARTIAL"))
        }
    }()

    @Test("the file holds every example") func count() { #expect(Self.examples.count == 42) }

    @Test("each example gives the RFC's instances", arguments: examples)
    func example(_ example: Example) throws {
        let scratch = try TemporaryFolder()
        let path = scratch.path("example.ics")
        let body =
            ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "BEGIN:VEVENT", "UID:example", "SUMMARY:\(example.title)"]
            + example.lines + ["END:VEVENT", "END:VCALENDAR", ""]
        try body.joined(separator: "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
        let zone = try ZoneDatabase.system.zone(named: "America/New_York")
        // A window from before the start through the last listed instance (the whole of a rule
        // that ends; an unending one is compared as far as the RFC lists it).
        let last = try #require(example.instances.last).prefix(8)
        let through = example.partial ? "\(last.prefix(4))-\(last.dropFirst(4).prefix(2))-\(last.suffix(2))T23:59" : "2010-01-01T00:00"
        let window = try #require(ISO8601.parse("1996-01-01T00:00", zone: zone))...(try #require(ISO8601.parse(through, zone: zone)))
        let result = CalendarReader.read(name: "rfc", path: path, window: window, zone: zone)
        #expect(result.problems.isEmpty, "\(result.problems)")
        let got = result.occurrences.compactMap(\.start).map { instant -> String in
            let (date, seconds) = ISO8601.localDate(of: instant, in: zone)
            let c = date.components
            return String(format: "%04d%02d%02dT%02d%02d%02d", c.year, c.month, c.day, seconds / 3600, seconds / 60 % 60, seconds % 60)
        }
        // An unending rule: the first instances, as many as the RFC lists (the reader reads a
        // little past a window's end).
        #expect((example.partial ? Array(got.prefix(example.instances.count)) : got) == example.instances, "\(example.lines)")
    }
}
