import DawnletCore
import DawnletTestSupport
import Testing

/// A calendar reminder's key, written and read back by one encoder and one decoder: the
/// calendar's name ends at the first colon, so no configured name is guessed at.
@Suite struct CalendarReferenceTests {
    typealias Reference = CalendarReference

    static let read: [(String, String, String, String?, String)] = [
        ("ics:work:a:b@x:20261201T090000Z:10m", "work", "a:b@x", "20261201T090000Z", "10m"),
        ("ics:home:u:alarm:2026-12-01T08:50:00", "home", "u", nil, "alarm 1796115000"),
        ("ics:work:u:20261201:1d", "work", "u", "20261201", "1d"),
        // A floating time is no instance: part of the UID.
        ("ics:work:u:20261201T090000:2h", "work", "u:20261201T090000", nil, "2h"),
        ("ics:work:alarm:alarm:2026-12-01T08:50:00", "work", "alarm", nil, "alarm 1796115000"),
        ("ics:w:\u{1B}]0;x\u{07}:\u{202E}:0m", "w", "\u{1B}]0;x\u{07}:\u{202E}", nil, "0m"),
        // A UID ending in `:alarm:` before an instance and an offset is not taken for an alarm.
        ("ics:x:a::alarm:20261201T090000Z:0m", "x", "a::alarm", "20261201T090000Z", "0m"),
    ]

    @Test("a key reads back as its calendar, UID (colons and all), instance and trigger, and writes back as the same text", arguments: read)
    func reads(_ text: String, _ calendar: String, _ uid: String, _ instance: String?, _ trigger: String) throws {
        let reference = try #require(Reference(text))
        #expect(reference.calendar == calendar)
        #expect(reference.uid == uid)
        #expect(reference.instance == instance)
        switch reference.trigger {
        case .offset(let offset): #expect(offset.description == trigger)
        case .alarm(let at): #expect("alarm \(at.secondsSinceEpoch)" == trigger)
        }
        #expect(reference.description == text)
        #expect(ReminderKey(text) == .calendar(reference))
        #expect(Reference(calendar: calendar, uid: uid, instance: instance, trigger: reference.trigger).description == text)
    }

    @Test(
        "text that is no calendar key is refused, not guessed at",
        arguments: [
            "ics:", "ics:work", "ics::u:10m", "ics:work:u", "ics:work::10m", "ics:work:u:10M", "ics:work:u:010m", "ics:work:u:alarm:2026-13-01T08:50:00",
            "ics:work:u:alarm:2026-12-01T08:50", "todo:1:2026-12-01:0m",
        ])
    func refused(_ text: String) {
        #expect(Reference(text) == nil)
    }

    @Test("an instance named by a UTC time is the instance's start; a date's is its midnight in UTC")
    func instanceStart() throws {
        #expect(try #require(Reference("ics:w:u:20261201T090000Z:10m")).instanceStart == Instant(secondsSinceEpoch: 1_796_115_600))
        // A date's midnight in UTC, as Thunderbird names an all-day instance.
        #expect(try #require(Reference("ics:w:u:20261201:10m")).instanceStart == Instant(secondsSinceEpoch: 1_796_083_200))
    }

    @Test("10,000 random references: written and read back, the same parts (a UID that ends as an instance would aside)")
    func roundTrip() throws {
        var rng = SeededRandom(seed: SeededRandom.fuzzSeed(5_545))
        let pieces = ["a", "b@x.org", ":", "::", "alarm", "10m", "20261201", "\u{1B}", "é", " ", "\u{202E}", "Z", "T", "-"]
        for _ in 0..<10_000 {
            let calendar = String((0..<Int.random(in: 1...8, using: &rng)).map { _ in "abcxyz-_ é".randomElement(using: &rng)! })
            var uid = (0..<Int.random(in: 1...6, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            if uid.hasSuffix(":") || uid.hasPrefix(":") { uid = "u" + uid + "u" }
            let instance = [nil, "20261201", "20261201T090000Z"].randomElement(using: &rng)!
            let trigger: Reference.Trigger =
                Bool.random(using: &rng)
                ? .offset([.minutes(10), .hours(2), .days(1), .weeks(1), .minutes(0)].randomElement(using: &rng)!)
                : .alarm(Instant(secondsSinceEpoch: Int64.random(in: 0...4_102_444_800, using: &rng)))
            let written = Reference(calendar: calendar, uid: uid, instance: instance, trigger: trigger)
            let back = try #require(Reference(written.description), "\(written.description)")
            #expect(back == written)
            #expect(back.calendar == calendar && back.trigger == trigger)
            // A UID whose last part reads as an instance is ambiguous without one: the text is
            // still the same reminder's.
            let last = uid.split(separator: ":", omittingEmptySubsequences: false).last.map(String.init) ?? ""
            if instance != nil || RecurrenceRule.until(last).map({ if case .local = $0 { false } else { true } }) != true {
                #expect(back.uid == uid && back.instance == instance, "\(written.description)")
            }
        }
    }
}
