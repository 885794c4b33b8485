import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletCore

/// Our own exported files read back and written again (CalendarRoundTrip), on files shaped as
/// other programs write them: LF line ends, properties reordered, times in UTC, folded lines.
@Suite struct CalendarRoundTripTests {
    let berlin = Zone.named("Europe/Berlin")

    /// A document of these lines, with `end` between them.
    func document(_ lines: [String], end: String = "\r\n") -> String { lines.joined(separator: end) + end }

    /// A daily todo at 09:00 from 2026-12-01, as an export writes it (an alarm at its time).
    func series(_ extra: [String] = [], instances: [String] = []) -> String {
        document(
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Dawnlet//dawnlet-remind//EN", "BEGIN:VTODO", "UID:dawnlet-1-todo-1@dawnlet-remind",
                "DTSTAMP:20261201T070000Z", "SUMMARY:Water", "DTSTART;TZID=Europe/Berlin:20261201T090000", "RRULE:FREQ=DAILY",
            ] + extra + ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Water", "TRIGGER:PT0S", "END:VALARM", "END:VTODO"] + instances
                + ["END:VCALENDAR"])
    }

    func override(_ id: String, _ start: String, _ extra: [String] = []) -> [String] {
        ["BEGIN:VTODO", "UID:dawnlet-1-todo-1@dawnlet-remind", "RECURRENCE-ID;TZID=Europe/Berlin:\(id)", "DTSTART;\(start)", "SUMMARY:Water"] + extra
            + ["END:VTODO"]
    }

    func day(_ text: String) -> CivilDate { CivilDate(text)! }

    @Test("what another program changed: EXDATEs (two on a line, one in UTC), a cancelled, a done and a moved instance; one moved to another day")
    func changes() {
        let base = CalendarRoundTrip.facts(series(), zone: berlin)
        let theirs = CalendarRoundTrip.facts(
            series(
                ["EXDATE;TZID=Europe/Berlin:20261203T090000,20261204T090000", "EXDATE:20261205T080000Z"],
                instances: override("20261206T090000", "TZID=Europe/Berlin:20261206T090000", ["STATUS:CANCELLED"])
                    + override("20261207T090000", "TZID=Europe/Berlin:20261207T090000", ["STATUS:COMPLETED", "LAST-MODIFIED:20261207T100000Z"])
                    + override("20261208T090000", "VALUE=DATE-TIME:20261208T103000Z") + override("20261209T090000", "TZID=Europe/Berlin:20261210T090000")),
            zone: berlin)
        let whats = CalendarRoundTrip.changes(base: base, file: theirs).map(\.what)
        #expect(
            whats == [
                .status(day("2026-12-03"), .skipped), .status(day("2026-12-04"), .skipped), .status(day("2026-12-05"), .skipped),
                .status(day("2026-12-06"), .skipped), .status(day("2026-12-07"), .done), .time(day("2026-12-08"), WallTime(hour: 11, minute: 30)!),
                .moved(day("2026-12-09"), to: day("2026-12-10"), WallTime(hour: 9, minute: 0)!),
            ])
        #expect(
            CalendarRoundTrip.changes(base: base, file: theirs).first { $0.what == .status(day("2026-12-07"), .done) }?.at
                == Instant(secondsSinceEpoch: 1_796_637_600))
        // Nothing changed: nothing to apply, whatever the file's line ends.
        #expect(
            CalendarRoundTrip.changes(base: base, file: CalendarRoundTrip.facts(series().replacingOccurrences(of: "\r\n", with: "\n"), zone: berlin)).isEmpty)
    }

    @Test("acknowledged and snoozed: ACKNOWLEDGED, X-MOZ-LASTACK, a snooze alarm not yet seen, X-MOZ-SNOOZE-TIME; a snooze seen since is no snooze")
    func answers() {
        let base = CalendarRoundTrip.facts(series(), zone: berlin)
        let snoozed = series(["X-MOZ-LASTACK:20261202T080500Z", "X-MOZ-SNOOZE-TIME:20261202T081500Z"]).replacingOccurrences(
            of: "TRIGGER:PT0S\r\n", with: "TRIGGER:PT0S\r\nACKNOWLEDGED:20261202T080100Z\r\n"
        ).replacingOccurrences(
            of: "END:VTODO\r\nEND:VCALENDAR",
            with:
                "BEGIN:VALARM\r\nRELATED-TO;RELTYPE=SNOOZE:x\r\nTRIGGER;VALUE=DATE-TIME:20261202T082000Z\r\nACTION:DISPLAY\r\nEND:VALARM\r\n"
                + "BEGIN:VALARM\r\nRELATED-TO;RELTYPE=SNOOZE:x\r\nTRIGGER;VALUE=DATE-TIME:20261202T070000Z\r\nACKNOWLEDGED:20261202T070100Z\r\nACTION:DISPLAY\r\nEND:VALARM\r\nEND:VTODO\r\nEND:VCALENDAR"
        )
        let whats = CalendarRoundTrip.changes(base: base, file: CalendarRoundTrip.facts(snoozed, zone: berlin)).map(\.what)
        #expect(
            whats == [
                .acknowledged(Instant(secondsSinceEpoch: 1_796_198_700)), .snoozed(Instant(secondsSinceEpoch: 1_796_199_300), alarm: nil),
                .snoozed(Instant(secondsSinceEpoch: 1_796_199_600), alarm: "x"),
            ])
    }

    @Test("a one-off done and moved elsewhere; a conflict is a change of the same thing here to something else")
    func oneOff() {
        func todo(_ due: String, _ extra: [String] = []) -> String {
            document(
                ["BEGIN:VCALENDAR", "BEGIN:VTODO", "UID:u", "DTSTAMP:20261201T070000Z", "SUMMARY:Rent", "DUE;TZID=Europe/Berlin:\(due)"] + extra
                    + ["END:VTODO", "END:VCALENDAR"])
        }
        let base = CalendarRoundTrip.facts(todo("20261210T100000"), zone: berlin)
        let theirs = CalendarRoundTrip.facts(todo("20261211T080000", ["STATUS:COMPLETED"]), zone: berlin)
        let changes = CalendarRoundTrip.changes(base: base, file: theirs)
        #expect(changes.map(\.what) == [.status(nil, .done), .moved(nil, to: day("2026-12-11"), WallTime(hour: 8, minute: 0)!)])
        // Here, moved too (elsewhere): a conflict for the move, not for the status.
        let ours = CalendarRoundTrip.facts(todo("20261212T100000"), zone: berlin)
        #expect(changes.map { CalendarRoundTrip.conflicts($0, ours: ours, base: base) } == [false, true])
        // Here, moved to where they moved it: no conflict.
        #expect(!CalendarRoundTrip.conflicts(changes[1], ours: CalendarRoundTrip.facts(todo("20261211T080000"), zone: berlin), base: base))
    }

    @Test("a conflict is about one property: a time edited here does not conflict with their done of that instance; a status changed here does")
    func conflictsByProperty() {
        let base = CalendarRoundTrip.facts(series(), zone: berlin)
        let theirs = CalendarRoundTrip.facts(
            series(instances: override("20261205T090000", "TZID=Europe/Berlin:20261205T090000", ["STATUS:COMPLETED"])), zone: berlin)
        let done = CalendarRoundTrip.changes(base: base, file: theirs)
        #expect(done.map(\.what) == [.status(day("2026-12-05"), .done)])
        let timed = CalendarRoundTrip.facts(series(instances: override("20261205T090000", "TZID=Europe/Berlin:20261205T100000")), zone: berlin)
        #expect(!CalendarRoundTrip.conflicts(done[0], ours: timed, base: base))
        let skipped = CalendarRoundTrip.facts(series(["EXDATE;TZID=Europe/Berlin:20261205T090000"]), zone: berlin)
        #expect(CalendarRoundTrip.conflicts(done[0], ours: skipped, base: base))
    }

    @Test("written again: their lines stay byte for byte (LF, reordered, folded, X- and alarms of theirs); ours change only where changed here")
    func merge() {
        let previous = series()
        // As a CalDAV server hands it back: LF, sorted properties, an X- property folded, their own alarm.
        let file = document(
            [
                "BEGIN:VCALENDAR", "PRODID:-//Dawnlet//dawnlet-remind//EN", "VERSION:2.0", "BEGIN:VTODO", "DTSTAMP:20261201T070000Z",
                "DTSTART;TZID=Europe/Berlin:20261201T090000", "RRULE:FREQ=DAILY", "SUMMARY:Water", "UID:dawnlet-1-todo-1@dawnlet-remind",
                "BEGIN:VALARM", "ACKNOWLEDGED:20261202T080100Z", "ACTION:DISPLAY", "DESCRIPTION:Water", "TRIGGER:PT0S", "END:VALARM",
                "BEGIN:VALARM", "ACTION:AUDIO", "TRIGGER:-PT1H", "END:VALARM", "X-PHONE-NOTE:a long note from the phone that is folded at seve",
                " nty-five octets", "END:VTODO", "END:VCALENDAR",
            ], end: "\n")
        // Unchanged here: nothing to write.
        #expect(
            CalendarRoundTrip.merge(
                file: file, previous: previous, fresh: series().replacingOccurrences(of: "20261201T070000Z", with: "20261203T070000Z"), zone: berlin)
                == nil)
        // Renamed here (our kept alarm's words with it), one instance skipped, an alarm 10 minutes ahead added.
        let fresh = series(["EXDATE;TZID=Europe/Berlin:20261204T090000"]).replacingOccurrences(of: "Water", with: "Water plants")
            .replacingOccurrences(of: "DTSTAMP:20261201T070000Z", with: "DTSTAMP:20261203T070000Z")
            .replacingOccurrences(
                of: "END:VALARM\r\nEND:VTODO", with: "END:VALARM\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT10M\r\nEND:VALARM\r\nEND:VTODO")
        let merged = CalendarRoundTrip.merge(file: file, previous: previous, fresh: fresh, zone: berlin)
        #expect(
            merged
                == document(
                    [
                        "BEGIN:VCALENDAR", "PRODID:-//Dawnlet//dawnlet-remind//EN", "VERSION:2.0", "BEGIN:VTODO", "DTSTAMP:20261203T070000Z",
                        "DTSTART;TZID=Europe/Berlin:20261201T090000", "RRULE:FREQ=DAILY", "SUMMARY:Water plants", "UID:dawnlet-1-todo-1@dawnlet-remind",
                        "EXDATE;TZID=Europe/Berlin:20261204T090000", "BEGIN:VALARM", "ACKNOWLEDGED:20261202T080100Z", "ACTION:DISPLAY",
                        "DESCRIPTION:Water plants", "TRIGGER:PT0S", "END:VALARM", "BEGIN:VALARM", "ACTION:AUDIO", "TRIGGER:-PT1H", "END:VALARM",
                        "X-PHONE-NOTE:a long note from the phone that is folded at seve", " nty-five octets", "BEGIN:VALARM", "ACTION:DISPLAY",
                        "TRIGGER:-PT10M", "END:VALARM", "END:VTODO", "END:VCALENDAR",
                    ], end: "\n"))
        // Our alarm taken out here goes; theirs (-PT1H) stays.
        let without = series().replacingOccurrences(of: "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Water\r\nTRIGGER:PT0S\r\nEND:VALARM\r\n", with: "")
        let after = CalendarRoundTrip.merge(file: file, previous: previous, fresh: without, zone: berlin) ?? ""
        #expect(!after.contains("TRIGGER:PT0S") && after.contains("TRIGGER:-PT1H") && after.contains("ACTION:AUDIO"))
    }
}
