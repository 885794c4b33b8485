import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletCore

/// The RRULE expansion against python-dateutil, on random rules of every part the RFC
/// names, and on the RFC's own examples and the rules libical gets wrong.
@Suite struct RecurrenceRuleTests {
    static let oracle = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts/rrule_oracle.py").path

    static func basic(_ t: LocalDateTime) -> String {
        let c = t.date.components
        func pad(_ n: Int, _ width: Int) -> String { String(repeating: "0", count: max(0, width - String(n).count)) + String(n) }
        return pad(c.year, 4) + pad(c.month, 2) + pad(c.day, 2) + "T" + pad(t.hour, 2) + pad(t.minute, 2) + pad(t.second, 2)
    }

    static func local(_ text: String) -> LocalDateTime {
        guard case .local(let t) = RecurrenceRule.until(text) else { fatalError("bad test time \(text)") }
        return t
    }

    static func expand(_ rule: String, _ start: String, through: String, limit: Int = 60) throws -> [String] {
        let parsed = try RecurrenceRule(parsing: rule)
        var result: [String] = []
        parsed.forEach(start: local(start), through: local(through)) { t in
            guard result.count < limit else { return false }
            result.append(basic(t))
            return true
        }
        return result
    }

    /// A random rule: a frequency, an interval, and each BY part with some chance.
    static func randomRule(_ rng: inout SeededRandom) -> String {
        let frequencies = ["HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY", "YEARLY", "MONTHLY"]
        var parts = ["FREQ=" + frequencies[Int.random(in: 0..<frequencies.count, using: &rng)]]
        func maybe(_ chance: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < chance }
        func list(_ values: () -> Int, _ most: Int) -> String {
            (0..<Int.random(in: 1...most, using: &rng)).map { _ in String(values()) }.joined(separator: ",")
        }
        if maybe(0.4) { parts.append("INTERVAL=\(Int.random(in: 1...3, using: &rng))") }
        parts.append("COUNT=\(Int.random(in: 1...40, using: &rng))")
        let days = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        // At most two day parts, so that a rule has instances often enough for dateutil to find
        // them (it searches to year 9999 for one that has none).
        for part in [0, 1, 2, 3, 4].shuffled(using: &rng).prefix(Int.random(in: 0...2, using: &rng)) {
            switch part {
            case 0: parts.append("BYMONTH=" + list({ Int.random(in: 1...12, using: &rng) }, 3))
            case 1:
                // Not 52, 53 or -1: dateutil counts the weeks of the year before with this year's
                // length (rrule.py, `lnumweeks`), so early January comes out wrong (see `examples`).
                parts.append("BYWEEKNO=" + list({ [-2, 1, 2, 20, -20][Int.random(in: 0..<5, using: &rng)] }, 2))
            case 2: parts.append("BYYEARDAY=" + list({ [1, 2, 100, 200, 365, 366, -1, -100, -366][Int.random(in: 0..<9, using: &rng)] }, 3))
            case 3: parts.append("BYMONTHDAY=" + list({ [1, 2, 13, 15, 28, 29, 30, 31, -1, -2, -15, -31][Int.random(in: 0..<12, using: &rng)] }, 3))
            default:
                // Every entry with an ordinal, or none: dateutil takes a day only if it is in both
                // kinds of entry, where the RFC takes either (see `examples`).
                let ordinals = maybe(0.4)
                parts.append(
                    "BYDAY="
                        + (0..<Int.random(in: 1...3, using: &rng)).map { _ in
                            (ordinals ? String([-5, -2, -1, 1, 2, 3, 4, 5, 20, -20][Int.random(in: 0..<10, using: &rng)]) : "")
                                + days[Int.random(in: 0..<7, using: &rng)]
                        }.joined(separator: ","))
            }
        }
        if maybe(0.25) { parts.append("BYHOUR=" + list({ Int.random(in: 0...23, using: &rng) }, 3)) }
        if maybe(0.2) { parts.append("BYMINUTE=" + list({ [0, 15, 30, 45, 59][Int.random(in: 0..<5, using: &rng)] }, 2)) }
        if maybe(0.1) { parts.append("BYSECOND=" + list({ [0, 10, 59][Int.random(in: 0..<3, using: &rng)] }, 2)) }
        // Not in weekly rules: dateutil's first week begins at DTSTART, not at WKST (see `examples`).
        if !parts[0].hasSuffix("HOURLY") && !parts[0].hasSuffix("WEEKLY") && maybe(0.25) {
            parts.append("BYSETPOS=" + list({ [1, 2, 3, -1, -2][Int.random(in: 0..<5, using: &rng)] }, 2))
        }
        if maybe(0.2) { parts.append("WKST=" + days[Int.random(in: 0..<7, using: &rng)]) }
        // A yearly BYWEEKNO's year is a week-year, which INTERVAL and BYSETPOS count in; dateutil
        // counts calendar years (see `examples`).
        if parts[0] == "FREQ=YEARLY" && parts.contains(where: { $0.hasPrefix("BYWEEKNO=") }) {
            parts.removeAll { $0.hasPrefix("INTERVAL=") || $0.hasPrefix("BYSETPOS=") }
        }
        return parts.shuffled(using: &rng).joined(separator: ";")
    }

    @Test("random rules expand as python-dateutil expands them")
    func againstDateutil() throws {
        try Repository.require(Repository.python, "the Python venv with python-dateutil")
        var rng = SeededRandom(seed: 16)
        var cases: [[String: Any]] = []
        for _ in 0..<800 {
            let rule = Self.randomRule(&rng)
            let start = LocalDateTime(
                date: CivilDate(
                    year: Int.random(in: 2019...2030, using: &rng), month: Int.random(in: 1...12, using: &rng),
                    day: Int.random(in: 1...28, using: &rng))!,
                secondsOfDay: Int.random(in: 0..<24, using: &rng) * 3600 + [0, 30, 45][Int.random(in: 0..<3, using: &rng)] * 60)
            let years = rule.contains("HOURLY") ? 0 : 6
            let through = LocalDateTime(date: start.date.adding(days: years * 366 + 20), secondsOfDay: 0)
            // BYWEEKNO with no day part in a yearly rule takes DTSTART's weekday (RFC 5545 §3.8.5.3);
            // dateutil takes the whole week: it is asked the same rule with that weekday said.
            var asked = rule
            if rule.contains("FREQ=YEARLY") && rule.contains("BYWEEKNO") && !["BYDAY", "BYYEARDAY", "BYMONTHDAY"].contains(where: rule.contains) {
                asked += ";BYDAY=" + ["MO", "TU", "WE", "TH", "FR", "SA", "SU"][start.date.weekday.isoNumber - 1]
            }
            cases.append(["rule": asked, "ours": rule, "start": Self.basic(start), "through": Self.basic(through), "limit": 60])
        }
        let answers = try askOracle(Self.oracle, cases)
        var wrong: [String] = []
        var instances = 0
        var unanswered = 0
        for (index, answer) in answers.enumerated() {
            guard let expected = answer as? [String] else {
                unanswered += 1

                continue
            }
            let rule = cases[index]["ours"] as! String, start = cases[index]["start"] as! String, through = cases[index]["through"] as! String
            let got = try Self.expand(rule, start, through: through)
            instances += got.count
            if got != expected {
                wrong.append("\(rule) from \(start): got \(got.prefix(6))…, dateutil \(expected.prefix(6))…")
            }
        }
        #expect(instances > 8_000, "only \(instances) instances compared")
        // Those dateutil gives up on are mostly rules with no instance at all (MONTHLY;INTERVAL=2;
        // BYMONTH=12 from September), which it searches for to year 9999.
        #expect(unanswered < cases.count / 4, "dateutil answered only \(cases.count - unanswered) of \(cases.count)")
        #expect(wrong.isEmpty, "\(wrong.count) of \(cases.count) rules differ:\n\(wrong.prefix(12).joined(separator: "\n"))")
    }

    @Test(
        "RFC 5545's examples, and the rules libical 3.0 expands wrong",
        arguments: [
            // §3.8.5.3: every other week on Tuesday and Thursday, for 8 occurrences.
            (
                "FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH", "19970902T090000",
                "19970902T090000 19970904T090000 19970916T090000 19970918T090000 19970930T090000 19971002T090000 19971014T090000 19971016T090000"
            ),
            // The last work day of the month.
            ("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=3", "19970930T090000", "19970930T090000 19971031T090000 19971128T090000"),
            // Monday of week number 20.
            ("FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO;COUNT=3", "19970512T090000", "19970512T090000 19980511T090000 19990517T090000"),
            // WKST changes which days an every-other-week rule takes.
            ("FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU", "19970805T090000", "19970805T090000 19970817T090000 19970819T090000 19970831T090000"),
            // Negative days of the month in a daily rule.
            ("FREQ=DAILY;BYMONTHDAY=-1,-2;COUNT=5", "20260101T090000", "20260130T090000 20260131T090000 20260227T090000 20260228T090000 20260330T090000"),
            // Lists repeated and out of order.
            ("FREQ=MONTHLY;BYMONTHDAY=15,1,15;COUNT=3", "20260101T090000", "20260101T090000 20260115T090000 20260201T090000"),
            // BYSETPOS over times of the day.
            ("FREQ=DAILY;BYHOUR=9,12,18;BYSETPOS=2;COUNT=2", "20260101T090000", "20260101T120000 20260102T120000"),
            // Every 20th Monday of the year.
            ("FREQ=YEARLY;BYDAY=20MO;COUNT=2", "19970519T090000", "19970519T090000 19980518T090000"),
            // BYDAY is a list of days to take: a first Monday or any Friday (dateutil takes none).
            ("FREQ=MONTHLY;BYDAY=1MO,FR;COUNT=3", "20260101T090000", "20260102T090000 20260105T090000 20260109T090000"),
            // ISO week 53 of 2026 runs to Sunday 2027-01-03; 2027 has none.
            ("FREQ=YEARLY;BYWEEKNO=53;BYDAY=MO,SU;COUNT=4", "20260101T090000", "20261228T090000 20270103T090000 20321227T090000 20330102T090000"),
            // Under WKST=TH, 2028 has 53 weeks, the last to 2029-01-03; 2029 has 52 (2030-01-01 is in
            // its week 52; dateutil: 53); 2034 has 53 again.
            ("FREQ=YEARLY;WKST=TH;BYWEEKNO=53;BYDAY=TU;COUNT=2", "20290101T090000", "20290102T090000 20350102T090000"),
            // INTERVAL counts week-years: 2024-12-31 is in week 1 of 2025, so the next is week 1 of
            // 2028 (from 2028-01-03), not of 2027 (libical's vector; dateutil: 2027-01-04).
            ("FREQ=YEARLY;BYWEEKNO=1;BYDAY=MO,TU;INTERVAL=3;COUNT=3", "20241231T090000", "20241231T090000 20280103T090000 20280104T090000"),
            ("FREQ=YEARLY;BYWEEKNO=-1;BYDAY=FR;INTERVAL=2;COUNT=3", "20260101T090000", "20270101T090000 20281229T090000 20301227T090000"),
            // RFC 7529: a yearly Feb 29 moves to Mar 1 in other years, or to Feb 28; a monthly 31st too.
            ("RSCALE=GREGORIAN;FREQ=YEARLY;SKIP=FORWARD;COUNT=3", "20120229T000000", "20120229T000000 20130301T000000 20140301T000000"),
            ("RSCALE=GREGORIAN;FREQ=YEARLY;SKIP=BACKWARD;COUNT=2", "20120229T000000", "20120229T000000 20130228T000000"),
            ("RSCALE=GREGORIAN;FREQ=MONTHLY;SKIP=BACKWARD;COUNT=3", "20260131T000000", "20260131T000000 20260228T000000 20260331T000000"),
            // BYSETPOS counts in the whole week, days before DTSTART too (dateutil: from DTSTART).
            ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH;BYSETPOS=2;COUNT=2", "20231220T210000", "20231226T210000 20240102T210000"),
        ])
    func examples(rule: String, start: String, expected: String) throws {
        let got = try Self.expand(rule, start, through: "21000101T000000")
        #expect(got == expected.split(separator: " ").map(String.init), "\(got)")
    }

    @Test("BYWEEKNO without a day part takes DTSTART's weekday in those weeks, not the whole week (libical's vector: 8 Tuesdays)")
    func weekNumbersAlone() throws {
        let got = try Self.expand("FREQ=YEARLY;BYWEEKNO=1,2;COUNT=8", "20130101T090000", through: "21000101T000000")
        #expect(got.count == 8, "\(got)")
        for text in got {
            let date = try #require(CivilDate(String(text.prefix(4)) + "-" + text.dropFirst(4).prefix(2) + "-" + text.dropFirst(6).prefix(2)))
            #expect(date.weekday.isoNumber == 2, "\(text) is not a Tuesday")
        }
    }

    @Test("a rule that never matches again ends at the bound, quickly")
    func neverAgain() throws {
        let clock = ContinuousClock()
        var got: [String] = []
        let elapsed = try clock.measure { got = try Self.expand("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "20260101T090000", through: "29990101T000000") }
        #expect(got.isEmpty)
        #expect(elapsed < .seconds(2))
        // The last week of year 9999 runs past it: the rule ends there, no date beyond is made.
        #expect(try Self.expand("FREQ=WEEKLY;BYDAY=FR", "99991224T090000", through: "99991231T235959") == ["99991224T090000", "99991231T090000"])
    }

    @Test(
        "bad rules are refused with the part named",
        arguments: [
            ("BYDAY=MO", "no FREQ"), ("FREQ=FORTNIGHTLY", "FREQ=FORTNIGHTLY"), ("FREQ=DAILY;INTERVAL=0", "INTERVAL=0"),
            ("FREQ=MONTHLY;BYMONTHDAY=32", "BYMONTHDAY=32"), ("FREQ=MONTHLY;BYMONTHDAY=0", "BYMONTHDAY=0"), ("FREQ=WEEKLY;BYDAY=XX", "BYDAY=XX"),
            ("FREQ=DAILY;UNTIL=2026", "UNTIL=2026"), ("FREQ=DAILY;FOO=1", "FOO"), ("FREQ=YEARLY;RSCALE=HEBREW", "RSCALE=HEBREW"),
            ("FREQ=YEARLY;SKIP=SIDEWAYS", "SKIP=SIDEWAYS"),
        ])
    func refused(rule: String, named: String) {
        #expect {
            _ = try RecurrenceRule(parsing: rule)
        } throws: { error in
            "\(error)".contains(named)
        }
    }
}
