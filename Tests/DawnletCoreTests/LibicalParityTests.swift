import CICal
import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletCore

/// Our schedules written as RFC 5545 RRULEs and expanded by libical must give the same dates.
/// This pins the exact meaning that calendar export relies on.
@Suite(.serialized) struct LibicalParityTests {
    /// The RRULE that means exactly this (resolved) schedule: the one export writes.
    static func rrule(_ rule: Schedule.Rule, anchor: CivilDate) -> String {
        Schedule(rule: rule, anchor: anchor, time: nil).rrule(anchor: anchor)
    }

    /// libical's expansion from DTSTART = anchor, clipped to the range. RFC 5545 always counts
    /// DTSTART as the first instance; our anchor is one only if it matches, so a non-matching
    /// DTSTART is dropped. UNTIL bounds libical's search: without it, a rule that never matches
    /// again (a 5th Sunday in February of odd years only) makes libical search for centuries.
    /// libical through the same loader the program uses (it is not linked: Sources/CICal/shim.h).
    nonisolated(unsafe) static let ical: dawnlet_ical = {
        var problem: UnsafePointer<CChar>?
        guard let table = dawnlet_ical_load(&problem) else { fatalError("libical: \(problem.map { String(cString: $0) } ?? "") (run `make deps`)") }
        return table.pointee
    }()

    static func libicalDates(_ rrule: String, anchor: CivilDate, range: ClosedRange<CivilDate>, anchorMatches: Bool) -> [CivilDate] {
        let ical = Self.ical
        let until = range.upperBound.description.replacingOccurrences(of: "-", with: "")
        // ical.icaltime_null_date() leaves hour at -1, which libical's iterator misreads: set it all.
        var start = ical.icaltime_null_date()
        start.hour = 0
        start.minute = 0
        start.second = 0
        start.year = Int32(anchor.year)
        start.month = Int32(anchor.month)
        start.day = Int32(anchor.day)
        start.is_date = 1
        let recurrence = ical.icalrecurrencetype_from_string(rrule + ";UNTIL=" + until)
        guard recurrence.freq != ICAL_NO_RECURRENCE, let iterator = ical.icalrecur_iterator_new(recurrence, start) else { return [] }
        defer { ical.icalrecur_iterator_free(iterator) }
        var result: [CivilDate] = []
        for _ in 0..<100_000 {
            let t = ical.icalrecur_iterator_next(iterator)
            if ical.icaltime_is_null_time(t) != 0 { break }
            guard let d = CivilDate(year: Int(t.year), month: Int(t.month), day: Int(t.day)) else { break }
            if d > range.upperBound { break }
            if d == anchor && !anchorMatches { continue }
            if d >= range.lowerBound { result.append(d) }
        }
        return result
    }

    @Test(
        "the RRULE of each schedule form",
        arguments: [
            ("weekly on tue,thu from 2026-01-01", "FREQ=WEEKLY;INTERVAL=1;BYDAY=TU,TH;WKST=MO"),
            ("every 2 weeks on mon from 2026-01-07", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;WKST=MO"),
            ("monthly on day 31 from 2026-01-01", "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=28,29,30,31;BYSETPOS=-1"),
            ("monthly on day 15 from 2026-01-01", "FREQ=MONTHLY;INTERVAL=1;BYMONTHDAY=15"),
            ("monthly on 2nd tue from 2026-01-01", "FREQ=MONTHLY;INTERVAL=1;BYDAY=2TU"),
            ("every 3 months on last fri from 2026-01-01", "FREQ=MONTHLY;INTERVAL=3;BYDAY=-1FR"),
        ])
    func named(_ text: String, _ expected: String) throws {
        let s = try schedule(text)
        let anchor = try #require(s.anchor)
        #expect(Self.rrule(s.rule, anchor: anchor) == expected)
        let range = anchor...anchor.adding(days: 3 * 366)
        let ours = s.occurrences(in: range, defaultAnchor: anchor)
        #expect(!ours.isEmpty)
        #expect(ours == Self.libicalDates(expected, anchor: anchor, range: range, anchorMatches: s.matches(anchor, defaultAnchor: anchor)))
    }

    @Test("random schedules expand the same in libical", arguments: [11, 12] as [UInt64])
    func random(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        for _ in 0..<400 {
            let s = RandomSchedules.make(&rng)
            let anchor = s.anchor ?? RandomSchedules.randomDate(&rng)
            let start = CivilDate(dayNumber: anchor.dayNumber + Int.random(in: -60...900, using: &rng))
            let range = start...start.adding(days: Int.random(in: 0...800, using: &rng))
            let ours = s.occurrences(in: range, defaultAnchor: anchor)
            let theirs = Self.libicalDates(
                Self.rrule(s.rule, anchor: anchor), anchor: anchor, range: range,
                anchorMatches: s.matches(anchor, defaultAnchor: anchor))
            #expect(ours == theirs, "\(s) anchored \(anchor) in \(range.lowerBound)...\(range.upperBound): \(Self.rrule(s.rule, anchor: anchor))")
        }
    }
}
