import DawnletTestSupport
import Testing

@testable import DawnletCore

/// Named cases for each rule of the Schedule, with the dates a person can check on a wall calendar.
@Suite struct ScheduleRuleTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let schedule: String
        let from: String
        let to: String
        let expected: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "day 31 clamps in a common February and in April",
            schedule: "monthly on day 31", from: "2026-01-01", to: "2026-05-31",
            expected: ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31"]),
        Case(
            name: "day 31 clamps to Feb 29 in a leap year",
            schedule: "monthly on day 31", from: "2028-02-01", to: "2028-03-31",
            expected: ["2028-02-29", "2028-03-31"]),
        Case(
            name: "day 30 clamps in February, leap and not, and stays in April",
            schedule: "monthly on day 30", from: "2027-02-01", to: "2028-04-30",
            expected: [
                "2027-02-28", "2027-03-30", "2027-04-30", "2027-05-30", "2027-06-30", "2027-07-30",
                "2027-08-30", "2027-09-30", "2027-10-30", "2027-11-30", "2027-12-30", "2028-01-30",
                "2028-02-29", "2028-03-30", "2028-04-30",
            ]),
        Case(
            name: "day 29 in February of a common year",
            schedule: "monthly on day 29", from: "2026-02-01", to: "2026-03-31",
            expected: ["2026-02-28", "2026-03-29"]),
        Case(
            name: "no occurrence in a month without a 5th Friday",
            schedule: "monthly on 5th fri", from: "2026-01-01", to: "2026-12-31",
            expected: ["2026-01-30", "2026-05-29", "2026-07-31", "2026-10-30"]),
        Case(
            name: "5th Sunday of February only when Feb 1 of a leap year is a Sunday",
            schedule: "monthly on 5th sun", from: "2026-02-01", to: "2026-02-28", expected: []),
        Case(
            name: "5th Thursday of February 2024 (leap year starting on a Thursday)",
            schedule: "monthly on 5th thu", from: "2024-02-01", to: "2024-02-29", expected: ["2024-02-29"]),
        Case(
            name: "last Friday",
            schedule: "monthly on last fri", from: "2026-01-01", to: "2026-04-30",
            expected: ["2026-01-30", "2026-02-27", "2026-03-27", "2026-04-24"]),
        Case(
            name: "last Tuesday when the month ends on a Tuesday",
            schedule: "monthly on last tue", from: "2026-03-01", to: "2026-03-31", expected: ["2026-03-31"]),
        Case(
            name: "2nd Tuesday",
            schedule: "monthly on 2nd tue", from: "2026-01-01", to: "2026-03-31",
            expected: ["2026-01-13", "2026-02-10", "2026-03-10"]),
        Case(
            name: "1st Monday every 2 months from the anchor's month",
            schedule: "every 2 months on 1st mon from 2026-02-15", from: "2026-01-01", to: "2026-08-31",
            expected: ["2026-04-06", "2026-06-01", "2026-08-03"]),
        Case(
            name: "weekly interval counts from the Monday week of a mid-week anchor",
            schedule: "every 2 weeks on mon,fri from 2026-01-07", from: "2026-01-01", to: "2026-02-06",
            expected: ["2026-01-09", "2026-01-19", "2026-01-23", "2026-02-02", "2026-02-06"]),
        Case(
            name: "every other week from a Sunday anchor: the anchor's week is the Monday before",
            schedule: "every other week on sat,sun from 2026-01-04", from: "2026-01-01", to: "2026-01-31",
            expected: ["2026-01-04", "2026-01-17", "2026-01-18", "2026-01-31"]),
        Case(
            name: "every 3 weeks",
            schedule: "every 3 weeks on wed from 2026-01-05", from: "2026-01-01", to: "2026-03-31",
            expected: ["2026-01-07", "2026-01-28", "2026-02-18", "2026-03-11"]),
        Case(
            name: "monthly interval counts from the anchor's month",
            schedule: "every 3 months on day 15 from 2026-02-20", from: "2026-01-01", to: "2026-12-31",
            expected: ["2026-05-15", "2026-08-15", "2026-11-15"]),
        Case(
            name: "an anchor that does not match is not an occurrence",
            schedule: "weekly on tue from 2026-01-01", from: "2026-01-01", to: "2026-01-14",
            expected: ["2026-01-06", "2026-01-13"]),
        Case(
            name: "an anchor that matches is an occurrence",
            schedule: "monthly on day 1 from 2026-03-01", from: "2026-01-01", to: "2026-04-30",
            expected: ["2026-03-01", "2026-04-01"]),
        Case(
            name: "a range across the year end",
            schedule: "weekly on thu", from: "2026-12-24", to: "2027-01-08",
            expected: ["2026-12-24", "2026-12-31", "2027-01-07"]),
        Case(
            name: "every other week across the year end keeps its parity",
            schedule: "every other week on mon from 2026-12-21", from: "2026-12-01", to: "2027-01-31",
            expected: ["2026-12-21", "2027-01-04", "2027-01-18"]),
        Case(
            name: "monthly interval across the year end",
            schedule: "every 5 months on day 31 from 2026-09-01", from: "2026-09-01", to: "2027-12-31",
            expected: ["2026-09-30", "2027-02-28", "2027-07-31", "2027-12-31"]),
        Case(
            name: "a range that ends before the anchor",
            schedule: "daily from 2026-06-01", from: "2026-01-01", to: "2026-05-31", expected: []),
        Case(
            name: "a range that ends on the anchor",
            schedule: "daily from 2026-06-01", from: "2026-05-30", to: "2026-06-01", expected: ["2026-06-01"]),
        Case(
            name: "weekdays",
            schedule: "weekdays", from: "2026-11-27", to: "2026-12-02",
            expected: ["2026-11-27", "2026-11-30", "2026-12-01", "2026-12-02"]),
        Case(
            name: "yearly takes day and month from the anchor and clamps Feb 29",
            schedule: "yearly from 2024-02-29", from: "2024-01-01", to: "2028-12-31",
            expected: ["2024-02-29", "2025-02-28", "2026-02-28", "2027-02-28", "2028-02-29"]),
        Case(
            name: "weekly without days uses the anchor's weekday",
            schedule: "every 2 weeks from 2026-01-08", from: "2026-01-01", to: "2026-02-28",
            expected: ["2026-01-08", "2026-01-22", "2026-02-05", "2026-02-19"]),
        Case(
            name: "monthly without a day uses the anchor's day, clamped",
            schedule: "monthly from 2026-01-31", from: "2026-01-01", to: "2026-04-30",
            expected: ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"]),
        Case(
            name: "without an anchor, --from anchors the interval",
            schedule: "every 2 weeks on mon", from: "2026-01-07", to: "2026-02-03",
            expected: ["2026-01-19", "2026-02-02"]),
    ]

    @Test(arguments: cases)
    func rule(_ c: Case) throws {
        let s = try schedule(c.schedule)
        let got = s.occurrences(in: date(c.from)...date(c.to), defaultAnchor: date(c.from))
        #expect(got.map(\.description) == c.expected)
    }

    @Test("a series that ends: nothing after until, until itself only if it matches; next and last occurrence stop there")
    func until() throws {
        let s = try schedule("weekly on mon,thu from 2026-12-01 until 2026-12-14")
        #expect(
            s.occurrences(in: date("2026-11-01")...date("2027-12-31"), defaultAnchor: date("2026-12-01")).map(\.description) == [
                "2026-12-03", "2026-12-07", "2026-12-10", "2026-12-14",
            ])
        #expect(s.nextOccurrence(onOrAfter: date("2026-12-15"), defaultAnchor: date("2026-12-01")) == nil)
        #expect(s.lastOccurrence(onOrBefore: date("2027-06-01"), defaultAnchor: date("2026-12-01")) == date("2026-12-14"))
        let monthly = try schedule("monthly on day 31 from 2026-01-01 until 2026-04-29")
        #expect(
            monthly.occurrences(in: date("2026-01-01")...date("2026-12-31"), defaultAnchor: date("2026-01-01")).map(\.description) == [
                "2026-01-31", "2026-02-28", "2026-03-31",
            ])
    }

    @Test("matches and nextOccurrence agree with the range")
    func matchesAndNext() throws {
        let s = try schedule("monthly on 5th fri from 2026-01-01")
        #expect(s.matches(date("2026-05-29"), defaultAnchor: date("2026-01-01")))
        #expect(!s.matches(date("2026-05-22"), defaultAnchor: date("2026-01-01")))
        #expect(s.nextOccurrence(onOrAfter: date("2026-01-31"), defaultAnchor: date("2026-01-01")) == date("2026-05-29"))
    }

    @Test("a schedule whose dates are decades apart still ends; impossible searches return nil")
    func bounded() throws {
        // February has a 5th Sunday only when Feb 1 of a leap year is a Sunday: 2032, 2060, ...
        let rare = try schedule("every 12 months on 5th sun from 2033-02-01")
        #expect(rare.nextOccurrence(onOrAfter: date("2033-02-01"), defaultAnchor: date("2033-02-01")) == date("2060-02-29"))
        // The only Februaries this visits are 2033, 2037, 2041, …: odd years, never leap, so never
        // a 5th Sunday. The search gives up at its limit instead of looping.
        let never = try schedule("every 48 months on 5th sun from 2033-02-01")
        #expect(never.nextOccurrence(onOrAfter: date("2033-02-01"), defaultAnchor: date("2033-02-01")) == nil)
    }
}
