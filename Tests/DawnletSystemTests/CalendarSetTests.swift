import DawnletCore
import DawnletSystem
import DawnletTestSupport
import Foundation
import Testing

/// One file is one set of components: the VCALENDARs of an iTIP stream or of exports run
/// together read as one (an item once, an override wherever its master is, a VTIMEZONE serving
/// all), what stands outside them named, and the behaviours docs/calendars.md gives where
/// RFC 5545 leaves a choice: two alarms at one instant, a yearly BYMONTHDAY, two DTSTARTs.
@Suite struct CalendarSetTests {
    static let corpus = CalendarOracleTests.corpus
    let scratch: TemporaryFolder

    init() throws { scratch = try TemporaryFolder() }

    func at(_ text: String) -> Instant {
        guard let instant = ISO8601.parse(text, zone: .utc) else { preconditionFailure(text) }
        return instant
    }

    func read(_ path: String, from: String = "2026-03-01T00:00", to: String = "2026-03-10T00:00") -> CalendarReader.Result {
        CalendarReader.read(name: "test", path: path, window: at(from)...at(to), zone: .utc)
    }

    func reproducer(_ name: String) -> String { Self.corpus.appendingPathComponent("reproducers/\(name)").path }

    /// Each occurrence as `UID INSTANT title`.
    func described(_ result: CalendarReader.Result) -> [String] {
        result.occurrences.map { "\($0.uid) \($0.start.map(CalendarExport.basic) ?? CalendarExport.basic($0.date)) \($0.title)" }.sorted()
    }

    func write(_ text: String) throws -> String {
        let path = scratch.path("\(UUID().uuidString.prefix(8)).ics")
        try text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func calendar(_ body: String) -> String { "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//test//EN\n\(body)\nEND:VCALENDAR\n" }

    @Test("a file of bare VEVENTs and VTODOs without a VCALENDAR is read as one set, as one bare VEVENT is; one holding none of them says so")
    func bareItems() throws {
        let bare = try write(
            """
            BEGIN:VEVENT
            UID:a
            SUMMARY:First
            DTSTART:20260302T090000Z
            END:VEVENT
            BEGIN:VEVENT
            UID:b
            SUMMARY:Second
            DTSTART:20260303T090000Z
            END:VEVENT
            BEGIN:VTODO
            UID:c
            SUMMARY:Third
            DUE:20260304T090000Z
            END:VTODO
            """)
        let items = read(bare)
        #expect(described(items) == ["a 20260302T090000Z First", "b 20260303T090000Z Second", "c 20260304T090000Z Third"], "\(items.problems)")
        let nothing = try write("BEGIN:VJOURNAL\nUID:j\nEND:VJOURNAL\nBEGIN:VJOURNAL\nUID:k\nEND:VJOURNAL\n")
        let problems = read(nothing).problems.map(\.message)
        #expect(problems.contains { $0.contains("nothing read") }, "\(problems)")
    }

    @Test("three VCALENDARs are one set: the higher SEQUENCE, an override from another VCALENDAR, a VTIMEZONE of the first serving the last")
    func threeCalendarsOneSet() throws {
        let result = read(reproducer("sets.ics"))
        #expect(
            described(result) == [
                "series 20260302T070000Z series v1", "series 20260303T070000Z series v1", "series 20260304T120000Z series moved",
                "series 20260305T070000Z series v1", "series 20260306T070000Z series v1", "stamped 20260303T120000Z stamped later",
                "zoned 20260305T050000Z in the first VCALENDAR's zone",
            ])
        let keys = result.occurrences.map(\.key)
        #expect(Set(keys).count == keys.count, "a key twice: \(keys)")
        #expect(
            result.problems.map(\.message) == [
                "series: the same UID twice without RECURRENCE-ID: the one of SEQUENCE 1 is used",
                "stamped: the same UID twice without RECURRENCE-ID: both of SEQUENCE 3, the one of the later DTSTAMP is used",
            ])
        // recurring-ical-events, given the file's VCALENDARs as one, agrees instance for instance.
        let oracle = try CalendarOracleTests().oracle([reproducer("sets.ics")], from: "20260101T000000Z", to: "20270101T000000Z")
        #expect(oracle.first as? [String] == CalendarOracleTests().instances(reproducer("sets.ics"), from: at("2026-01-01T00:00"), to: at("2027-01-01T00:00")))
    }

    @Test("libical's own iTIP stream: each UID once, the later DTSTAMP of two at SEQUENCE 2 (where recurring-ical-events keeps the first)")
    func libicalIncoming() throws {
        let path = Self.corpus.appendingPathComponent("libical/incoming.ics").path
        let result = read(path, from: "1997-06-01T00:00", to: "1997-08-01T00:00")
        #expect(
            described(result) == [
                "calsrv.example.com-1001@example.com 19970701T100000Z Conference", "calsrv.example.com-1002@example.com 19970701T100000Z Conference",
                "calsrv.example.com-873970198738776@example.com 19970701T100000Z Conference",
                "calsrv.example.com-873970198738777@example.com 19970701T190000Z Pool party",
                "calsrv.example.com-873970198738779@example.com 19970701T190000Z Conference",
            ])
        let problems = result.problems.map(\.message)
        // Four REPLYs of one UID, none with a DTSTART: one item, said once.
        #expect(
            problems.filter { $0.hasSuffix("no DTSTART or DUE: skipped") } == ["calsrv.example.com-873970198738785@example.com: no DTSTART or DUE: skipped"])
        #expect(
            problems.contains(
                "calsrv.example.com-873970198738777@example.com: the same UID twice without RECURRENCE-ID: both of SEQUENCE 2, the one of the later DTSTAMP is used"
            ))
        // The oracle cannot read the REPLYs (no DTSTART): it is given the stream without them.
        // It keeps the first of two versions of equal SEQUENCE; RFC 5546 §2.1.5 takes the later
        // DTSTAMP, the "Pool party" rescheduled to 19:00 — the one instance where the two differ.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let requests = text.components(separatedBy: "\n\n").filter { !$0.contains("METHOD:REPLY") }.joined(separator: "\n\n")
        let copy = scratch.path("requests.ics")
        try requests.write(toFile: copy, atomically: true, encoding: .utf8)
        let oracle = try #require(
            try CalendarOracleTests().oracle([copy], from: "19970601T000000Z", to: "19970801T000000Z").first as? [String], "the oracle failed")
        let ours = CalendarOracleTests().instances(copy, from: at("1997-06-01T00:00"), to: at("1997-08-01T00:00"))
        #expect(oracle.filter { !ours.contains($0) } == ["calsrv.example.com-873970198738777@example.com 19970701T200000Z"])
        #expect(ours.filter { !oracle.contains($0) } == ["calsrv.example.com-873970198738777@example.com 19970701T190000Z"])
    }

    @Test("equal SEQUENCE: the later DTSTAMP, then the later LAST-MODIFIED, then the later in the file")
    func ties() throws {
        func event(_ uid: String, _ title: String, day: Int, stamp: String, modified: String? = nil) -> String {
            "BEGIN:VEVENT\nUID:\(uid)\nSEQUENCE:4\nDTSTAMP:\(stamp)\n" + (modified.map { "LAST-MODIFIED:\($0)\n" } ?? "")
                + "DTSTART:2026030\(day)T100000Z\nSUMMARY:\(title)\nEND:VEVENT"
        }
        let path = try write(
            calendar(
                [
                    event("stamp", "stamp newer", day: 2, stamp: "20260210T000000Z"),
                    event("modified", "modified newer", day: 2, stamp: "20260201T000000Z", modified: "20260209T000000Z"),
                    event("same", "same first", day: 2, stamp: "20260201T000000Z"),
                ].joined(separator: "\n"))
                + calendar(
                    [
                        event("stamp", "stamp older", day: 3, stamp: "20260201T000000Z"),
                        event("modified", "modified older", day: 3, stamp: "20260201T000000Z", modified: "20260208T000000Z"),
                        event("same", "same second", day: 3, stamp: "20260201T000000Z"),
                    ].joined(separator: "\n")))
        let result = read(path)
        #expect(
            described(result) == [
                "modified 20260302T100000Z modified newer", "same 20260303T100000Z same second", "stamp 20260302T100000Z stamp newer",
            ])
        #expect(
            result.problems.map(\.message) == [
                "stamp: the same UID twice without RECURRENCE-ID: both of SEQUENCE 4, the one of the later DTSTAMP is used",
                "modified: the same UID twice without RECURRENCE-ID: both of SEQUENCE 4, the one of the later LAST-MODIFIED is used",
                "same: the same UID twice without RECURRENCE-ID: both of SEQUENCE 4 and alike in DTSTAMP and LAST-MODIFIED, the later in the file is used",
            ])
        // recurring-ical-events keeps the first of equal SEQUENCE whatever their DTSTAMPs: it
        // agrees where the first is the later ("stamp") and differs on "same", where nothing
        // tells them apart but their order, and a stream grows at its end.
        let oracle = try #require(try CalendarOracleTests().oracle([path], from: "20260301T000000Z", to: "20260310T000000Z").first as? [String])
        #expect(oracle == ["modified 20260302T100000Z", "same 20260302T100000Z", "stamp 20260302T100000Z"])
    }

    @Test("an instance overridden in two VCALENDARs: the higher SEQUENCE; a THISANDFUTURE override from another VCALENDAR moves the rest")
    func overridesAcrossCalendars() throws {
        let master = "BEGIN:VEVENT\nUID:r\nDTSTAMP:20260101T000000Z\nDTSTART:20260302T090000Z\nRRULE:FREQ=DAILY;COUNT=6\nSUMMARY:r\nEND:VEVENT"
        func override(_ id: String, _ start: String, sequence: Int, range: Bool = false) -> String {
            "BEGIN:VEVENT\nUID:r\nDTSTAMP:20260101T000000Z\nSEQUENCE:\(sequence)\nRECURRENCE-ID\(range ? ";RANGE=THISANDFUTURE" : ""):\(id)\n"
                + "DTSTART:\(start)\nSUMMARY:r \(sequence)\nEND:VEVENT"
        }
        let path = try write(
            calendar(master + "\n" + override("20260303T090000Z", "20260303T110000Z", sequence: 2))
                + calendar(override("20260303T090000Z", "20260303T120000Z", sequence: 1))
                + calendar(override("20260305T090000Z", "20260305T150000Z", sequence: 1, range: true)))
        let result = read(path)
        #expect(
            described(result) == [
                "r 20260302T090000Z r", "r 20260303T110000Z r 2", "r 20260304T090000Z r", "r 20260305T150000Z r 1", "r 20260306T150000Z r 1",
                "r 20260307T150000Z r 1",
            ])
        #expect(result.problems.map(\.message) == ["r: the instance 20260303T090000Z overridden twice: the one of SEQUENCE 2 is used"])
    }

    @Test("components before, between and after the VCALENDARs are named, each with its line, and not read")
    func outsideTheCalendars() throws {
        let result = read(reproducer("between.ics"))
        #expect(described(result) == ["first 20260305T100000Z first", "second 20260306T100000Z second"])
        #expect(
            result.problems.map(\.message) == [
                "BEGIN:VEVENT at line 1 before BEGIN:VCALENDAR is outside the calendar: not read",
                "BEGIN:VTODO at line 17 between END:VCALENDAR and BEGIN:VCALENDAR is outside the calendar: not read",
            ])
        // The oracle, given the VCALENDARs alone, has the same instances.
        let oracle = try CalendarOracleTests().oracle([reproducer("between.ics")], from: "20260301T000000Z", to: "20260310T000000Z")
        #expect(oracle.first as? [String] == ["first 20260305T100000Z", "second 20260306T100000Z"])
        // Seven of them: five named, the rest counted.
        let bare = (1...7).map { "BEGIN:VEVENT\nUID:b\($0)\nDTSTART:20260305T100000Z\nEND:VEVENT" }.joined(separator: "\n")
        let many = read(try write(calendar("BEGIN:VEVENT\nUID:in\nDTSTART:20260305T100000Z\nEND:VEVENT") + bare + "\n"))
        #expect(many.occurrences.map(\.uid) == ["in"])
        #expect(many.problems.count == 6)
        #expect(many.problems.first?.message == "BEGIN:VEVENT at line 9 after END:VCALENDAR is outside the calendar: not read")
        #expect(many.problems.last?.message == "2 more components outside every VCALENDAR: not read")
    }

    @Test("two alarms of one item at one instant (a display and an audio one, an absolute one) are one reminder")
    func alarmsAtOneInstant() throws {
        let result = read(reproducer("same_instant_alarms.ics"))
        let occurrence = try #require(result.occurrences.first)
        #expect(result.occurrences.count == 1)
        #expect(occurrence.alarms == [at("2026-03-05T09:50")])
        // recurring-ical-events yields one alarm per VALARM (three here); a reminder here is one
        // notification on the item's channels whatever the VALARM's ACTION, so one instant is
        // one reminder with one key. The same holds for the same item in two VCALENDARs.
        let text = try String(contentsOfFile: reproducer("same_instant_alarms.ics"), encoding: .utf8)
        let twice = read(try write(text + text))
        #expect(twice.occurrences.map(\.alarms) == [[at("2026-03-05T09:50")]])
    }

    @Test("a yearly rule with BYMONTHDAY and no BYMONTH is that day of every month (RFC 5545: BYMONTHDAY expands YEARLY), as the oracle has it")
    func yearlyByMonthDay() throws {
        let path = try write(
            calendar(
                """
                BEGIN:VEVENT\nUID:fifteenth\nDTSTART:20260315T090000Z\nRRULE:FREQ=YEARLY;BYMONTHDAY=15;COUNT=5\nSUMMARY:15th\nEND:VEVENT
                BEGIN:VEVENT\nUID:last\nDTSTART:20260131T090000Z\nRRULE:FREQ=YEARLY;BYMONTHDAY=31;UNTIL=20261231T000000Z\nSUMMARY:31st\nEND:VEVENT
                """))
        let (from, to) = (at("2026-01-01T00:00"), at("2028-01-01T00:00"))
        let ours = CalendarOracleTests().instances(path, from: from, to: to)
        #expect(
            ours == [
                "fifteenth 20260315T090000Z", "fifteenth 20260415T090000Z", "fifteenth 20260515T090000Z", "fifteenth 20260615T090000Z",
                "fifteenth 20260715T090000Z", "last 20260131T090000Z", "last 20260331T090000Z", "last 20260531T090000Z", "last 20260731T090000Z",
                "last 20260831T090000Z", "last 20261031T090000Z",
            ])
        let oracle = try CalendarOracleTests().oracle([path], from: "20260101T000000Z", to: "20280101T000000Z")
        #expect(oracle.first as? [String] == ours)
    }

    @Test("a component with two DTSTARTs: the first, and a warning naming the file and the UID")
    func twoStarts() throws {
        let path = reproducer("two_dtstarts.ics")
        let result = read(path)
        #expect(result.occurrences.map(\.start) == [at("2026-03-05T10:00")])
        #expect(
            result.problems.map(\.description) == [
                "\(path): two-starts: DTSTART 2 times, where RFC 5545 allows one: the first (20260305T100000Z) is used"
            ])
        // recurring-ical-events raises on it (its DTSTART is a list), so there is no oracle here.
        let oracle = try CalendarOracleTests().oracle([path], from: "20260301T000000Z", to: "20260310T000000Z")
        #expect(oracle.first is String)
        // Two DUEs on a todo: the same.
        let todo = read(try write(calendar("BEGIN:VTODO\nUID:t\nDUE:20260306T100000Z\nDUE:20260307T100000Z\nSUMMARY:t\nEND:VTODO")))
        #expect(todo.occurrences.map(\.start) == [at("2026-03-06T10:00")])
        #expect(todo.problems.map(\.message) == ["t: DUE 2 times, where RFC 5545 allows one: the first (20260306T100000Z) is used"])
    }
}

extension CalendarSetTests {
    /// libical sorts a VCALENDAR's zones again after each one added: asked after each, 20,000
    /// of them took 14 s, 64 times what 2,500 took. Read in time linear in their number: eight
    /// times as many take at most 24 times as long (a ratio, whatever the machine's load).
    @Test("20,000 VCALENDARs, each with a VTIMEZONE of its own, are one set, read in time linear in their number")
    func manyCalendars() throws {
        func calendars(_ count: Int) throws -> (path: String, count: Int) {
            var text = ""
            for n in 0..<count {
                text += "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//t//EN\nBEGIN:VTIMEZONE\nTZID:Zone \(n)\nBEGIN:STANDARD\nDTSTART:19700101T000000\n"
                text += "TZOFFSETFROM:+0100\nTZOFFSETTO:+0100\nEND:STANDARD\nEND:VTIMEZONE\nBEGIN:VEVENT\nUID:e\(n)\n"
                text += "DTSTART;TZID=Zone \(n % 7):20260305T100000\nSUMMARY:e\nEND:VEVENT\nEND:VCALENDAR\n"
            }
            return (try write(text), count)
        }
        let clock = ContinuousClock()
        var took: [Duration] = []
        for (path, count) in [try calendars(2_500), try calendars(20_000)] {
            let began = clock.now
            let result = read(path)
            took.append(clock.now - began)
            #expect(result.problems.isEmpty, "\(result.problems.prefix(2))")
            #expect(result.occurrences.count == count)
            // Each in a zone a VTIMEZONE of one of the first seven VCALENDARs defines: 10:00 at +01:00.
            #expect(result.occurrences.allSatisfy { $0.start == at("2026-03-05T09:00") })
        }
        #expect(took[1] < took[0] * 24, "2,500 took \(took[0]), 20,000 \(took[1])")
    }
}
