import DawnletCore
import DawnletSystem
import DawnletTestSupport
import Foundation
import Testing

/// Files as Thunderbird, Apple's Calendar, eM Client and the others write them when an alarm is
/// acknowledged or snoozed or an instance of a repeating todo is completed, kept in
/// Corpus/clients (each one's source in its README), read as that client means them.
@Suite struct ClientFilesTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus/clients")
    let scratch: TemporaryFolder

    init() throws { scratch = try TemporaryFolder() }

    func at(_ text: String, _ zone: Zone) -> Instant {
        guard let instant = ISO8601.parse(text, zone: zone) else { preconditionFailure(text) }
        return instant
    }

    /// The file's occurrences from `from` to `to` (wall times of `zone`). CalDAVTester's templates
    /// (`$now.year.1:` for next year) are given 2027, as that tester would in 2026.
    func read(_ name: String, from: String, to: String, zone: Zone = .utc) throws -> [CalendarOccurrence] {
        var path = Self.folder.appendingPathComponent(name).path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        if text.contains("$now.year.1:") {
            path = scratch.path(name)
            try text.replacingOccurrences(of: "$now.year.1:", with: "2027").write(toFile: path, atomically: true, encoding: .utf8)
        }
        let result = CalendarReader.read(name: "client", path: path, window: at(from, zone)...at(to, zone), zone: zone)
        #expect(result.problems.isEmpty, "\(result.problems)")
        return result.occurrences
    }

    func utc(_ instants: [Instant]?) -> [String] { (instants ?? []).map { ISO8601.format($0, utcOffset: 0) } }

    /// The alarms of the first `count` instances (the reader reads on past a window's end), by
    /// the instance's name.
    func alarmsByInstance(_ occurrences: [CalendarOccurrence], first count: Int) -> [String: [String]] {
        let first = occurrences.sorted { ($0.instance ?? "") < ($1.instance ?? "") }.prefix(count)
        return Dictionary(first.map { ($0.instance ?? "", utc($0.alarms)) }) { first, _ in first }
    }

    /// The names of the first `count` instances.
    func instances(_ occurrences: [CalendarOccurrence], first count: Int) -> [String] {
        Array(occurrences.compactMap(\.instance).sorted().prefix(count))
    }

    @Test("Thunderbird: a repeating event's instance (an override) snoozed: the master's X-MOZ-SNOOZE-TIME-µs and X-MOZ-LASTACK apply to it")
    func thunderbirdSnoozedInstance() throws {
        let berlin = Zone.named("Europe/Berlin")
        let occurrences = try read("thunderbird_snoozed_instance.ics", from: "2026-03-13T00:00", to: "2026-03-17T23:00", zone: berlin)
        #expect(
            alarmsByInstance(occurrences, first: 5) == [
                "20260313T090000Z": [], "20260314T090000Z": [],
                // The override: its 09:45 alarm acknowledged at 09:46:52 (CET), snoozed five minutes.
                "20260315T090000Z": ["2026-03-15T08:51:52+00:00"],
                "20260316T090000Z": ["2026-03-16T08:45:00+00:00"], "20260317T090000Z": ["2026-03-17T08:45:00+00:00"],
            ])
        #expect(occurrences.first { $0.instance == "20260315T090000Z" }?.title == "edit")
    }

    @Test("Thunderbird (as Tasks.org reads it): a todo snoozed with X-MOZ-SNOOZE-TIME, its due acknowledged by X-MOZ-LASTACK")
    func thunderbirdSnoozedTodo() throws {
        let occurrences = try read("thunderbird_snoozed_todo.ics", from: "2021-02-10T00:00", to: "2021-02-11T00:00")
        #expect(occurrences.count == 1)
        // Tasks.org's own test reads a snooze until 1612972355000 ms: 15:52:35Z.
        #expect(utc(occurrences.first?.alarms) == ["2021-02-10T15:52:35+00:00"])
        #expect(occurrences.first?.acknowledged == at("2021-02-10T15:22:35", .utc))
    }

    @Test("Thunderbird and eM Client: one instance of a daily todo completed on its override (STATUS:COMPLETED, COMPLETED); the others due")
    func completedInstance() throws {
        let thunderbird = try read("thunderbird_completed_instance.ics", from: "2020-12-20T00:00", to: "2020-12-22T12:00")
        // Due 17:00 in Chicago (23:00Z): the 20th's done, the 21st's still to do.
        #expect(instances(thunderbird, first: 2) == ["20201221T230000Z", "20201222T230000Z"])
        let first = thunderbird.first { $0.instance == "20201221T230000Z" }
        #expect(first?.start == at("2020-12-21T23:00", .utc) && first?.kind == .todo)
        let emClient = try read("emclient_completed_instance.ics", from: "2020-09-09T00:00", to: "2020-09-11T12:00")
        #expect(instances(emClient, first: 2) == ["20200911T000000Z", "20200912T000000Z"], "the 10th's done (floating midnight, here in UTC)")
    }

    @Test("Apple (CalDAV server tests): ACKNOWLEDGED after an all-day event's alarm leaves it out; without, it fires")
    func appleAcknowledged() throws {
        let berlin = Zone.named("Europe/Berlin")
        let alarm = try read("apple_alarm.ics", from: "2027-04-26T00:00", to: "2027-04-28T00:00", zone: berlin)
        // Eight minutes before the day begins in Berlin (00:00 CEST is 22:00Z).
        #expect(alarm.map { utc($0.alarms) } == [["2027-04-26T21:52:00+00:00"]])
        let acknowledged = try read("apple_acknowledged.ics", from: "2027-04-26T00:00", to: "2027-04-28T00:00", zone: berlin)
        #expect(acknowledged.map { utc($0.alarms) } == [[]])
    }

    @Test("Apple (CalDAV server tests): ACKNOWLEDGED in one instance's override acknowledges that instance only")
    func appleAcknowledgedInstance() throws {
        let occurrences = try read("apple_acknowledged_instance.ics", from: "2027-04-27T00:00", to: "2027-04-28T23:00")
        #expect(alarmsByInstance(occurrences, first: 2) == ["20270427T120000Z": [], "20270428T120000Z": ["2027-04-28T11:52:00+00:00"]])
    }

    @Test(
        "Apple's Calendar: a snooze alarm naming its alarm by RELATED-TO (no RELTYPE) fires; the alarm it snoozed, acknowledged, does not; its ACTION:NONE placeholder never"
    )
    func appleSnoozed() throws {
        let berlin = Zone.named("Europe/Berlin")
        let day = try read("apple_snoozed.ics", from: "2026-03-15T00:00", to: "2026-03-16T00:00", zone: berlin)
        #expect(day.map { utc($0.alarms) } == [["2026-03-15T14:52:32+00:00"]])
        // The default-alarm placeholder's trigger, in 1976: nothing fires then.
        let placeholder = try read("apple_snoozed.ics", from: "1976-03-31T00:00", to: "1976-04-02T00:00", zone: berlin)
        #expect(placeholder.isEmpty, "\(placeholder.map { utc($0.alarms) })")
    }

    @Test("Apple's snooze alone (its alarm not acknowledged): RELATED-TO without RELTYPE names the alarm it snoozed, which does not fire again")
    func appleSnoozeAlone() throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent("apple_snoozed.ics"), encoding: .utf8)
        let path = scratch.path("apple_snoozed_unacknowledged.ics")
        try text.replacingOccurrences(of: "ACKNOWLEDGED:20260315T144732Z\r\n", with: "").write(toFile: path, atomically: true, encoding: .utf8)
        let berlin = Zone.named("Europe/Berlin")
        let result = CalendarReader.read(name: "client", path: path, window: at("2026-03-15T00:00", berlin)...at("2026-03-16T00:00", berlin), zone: berlin)
        #expect(result.occurrences.map { utc($0.alarms) } == [["2026-03-15T14:52:32+00:00"]], "the 15:45 alarm is the one snoozed")
    }

    @Test("Thunderbird's snooze of an all-day instance is named by its date's midnight in UTC, in any zone; also read: milliseconds, seconds, the value")
    func allDayInstanceSnooze() throws {
        // Thunderbird's own Google provider test: X-MOZ-SNOOZE-TIME-1155340800000000 is 2006-08-12.
        let path = scratch.path("allday.ics")
        try [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN", "BEGIN:VEVENT", "UID:allday",
            "DTSTART;VALUE=DATE:20060810", "RRULE:FREQ=DAILY;COUNT=5", "X-MOZ-LASTACK:20060812T090000Z",
            "X-MOZ-SNOOZE-TIME-1155340800000000:20060812T100000Z", "X-MOZ-SNOOZE-TIME-1155427200000:20060813T100000Z",
            "X-MOZ-SNOOZE-TIME-20060814:20060814T100000Z", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:PT8H", "END:VALARM", "END:VEVENT",
            "END:VCALENDAR", "",
        ].joined(separator: "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
        let berlin = Zone.named("Europe/Berlin")
        let result = CalendarReader.read(name: "client", path: path, window: at("2006-08-10T00:00", berlin)...at("2006-08-15T00:00", berlin), zone: berlin)
        #expect(
            alarmsByInstance(result.occurrences, first: 5) == [
                "20060810": [], "20060811": [], "20060812": ["2006-08-12T10:00:00+00:00"],
                "20060813": ["2006-08-13T06:00:00+00:00", "2006-08-13T10:00:00+00:00"],
                "20060814": ["2006-08-14T06:00:00+00:00", "2006-08-14T10:00:00+00:00"],
            ], "08:00 in Berlin each day; up to the 12th's acknowledged")
    }
}
