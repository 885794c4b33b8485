import DawnletCore
import Testing

/// An RRULE read back into a schedule (`RecurrenceRule.schedule`): each schedule export writes
/// comes back as the same days; rules our shape cannot keep are refused with the reason.
@Suite struct RecurrenceRuleScheduleTests {
    let utc = Zone.utc

    func read(_ text: String, from start: CivilDate, time: WallTime? = nil) throws -> Result<Schedule, ItemImport.Problem> {
        try RecurrenceRule(parsing: text).schedule(start: start, time: time, zone: utc)
    }

    @Test("every shape export writes reads back to the same occurrences over three years")
    func roundTrip() throws {
        let start = CivilDate(year: 2026, month: 1, day: 31)!
        let rules: [Schedule.Rule] = [
            .weekly(interval: 1, days: .all), .weekly(interval: 2, days: WeekdaySet([.monday, .saturday])), .weekly(interval: 3, days: nil),
            .monthlyOnDay(interval: 1, day: 31), .monthlyOnDay(interval: 2, day: 30), .monthlyOnDay(interval: 12, day: 29),
            .monthlyOnWeekday(interval: 1, ordinal: .last, weekday: .friday), .monthlyOnWeekday(interval: 24, ordinal: .nth(5), weekday: .saturday),
        ]
        for rule in rules {
            let schedule = Schedule(rule: rule, anchor: start)
            guard let first = schedule.nextOccurrence(onOrAfter: start, defaultAnchor: start) else { continue }
            let text = schedule.rrule(anchor: start)
            let back = try read(text, from: first).get()
            let range = start...start.adding(days: 3 * 366)
            #expect(back.occurrences(in: range, defaultAnchor: first) == schedule.occurrences(in: range, defaultAnchor: start), "\(text)")
        }
    }

    @Test("COUNT becomes the last repeat's day; a UTC UNTIL before the series' time ends it the day before")
    func ends() throws {
        let start = CivilDate(year: 2026, month: 12, day: 31)!
        #expect(try read("FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=3", from: start).get().until == CivilDate(year: 2027, month: 2, day: 28))
        let weekly = try read("FREQ=WEEKLY;UNTIL=20270114T080000Z", from: start, time: WallTime(hour: 9, minute: 0)).get()
        #expect(weekly.until == CivilDate(year: 2027, month: 1, day: 13))
    }

    @Test("what does not fit is refused with why")
    func refusals() throws {
        let start = CivilDate(year: 2026, month: 12, day: 31)!
        let cases = [
            ("FREQ=DAILY;INTERVAL=2", "every 2 days"), ("FREQ=HOURLY", "more often than daily"), ("FREQ=MONTHLY", "day 31, which some of its months lack"),
            ("FREQ=MONTHLY;BYMONTHDAY=1,15", "several days of a month"), ("FREQ=YEARLY;BYMONTH=6", "other months than its first"),
            ("FREQ=WEEKLY;BYDAY=MO", "is not one of its own repeats"), ("FREQ=DAILY;BYHOUR=9", "BYHOUR"),
        ]
        for (text, why) in cases {
            guard case .failure(let problem) = try read(text, from: start) else {
                Issue.record("\(text) was taken")
                continue
            }
            #expect(problem.description.contains(why), "\(text): \(problem)")
        }
    }
}
