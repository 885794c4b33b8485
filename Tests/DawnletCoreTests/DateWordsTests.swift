import DawnletTestSupport
import Testing

@testable import DawnletCore

/// Dates as people type them, from a fixed today.
@Suite struct DateWordsTests {
    /// Tuesday.
    let today = date("2026-12-01")

    @Test(
        "words, weekdays and offsets",
        arguments: [
            ("2026-12-04", "2026-12-04"), ("today", "2026-12-01"), ("Tomorrow", "2026-12-02"), ("yesterday", "2026-11-30"),
            ("fri", "2026-12-04"), ("friday", "2026-12-04"), ("next fri", "2026-12-04"), ("tue", "2026-12-08"), ("next tuesday", "2026-12-08"),
            ("+3d", "2026-12-04"), ("-1w", "2026-11-24"), ("+2m", "2027-02-01"), ("+1y", "2027-12-01"), ("+0d", "2026-12-01"),
        ])
    func words(_ text: String, _ expected: String) {
        #expect(DateWords.date(text, today: today) == date(expected))
    }

    @Test(
        "why a text is not a date: a day the month lacks, a month or year out of range, a time of no form, a numeric date whose order is a guess",
        arguments: [
            ("2026-02-30", "2026-02 has no day 30: it has 28 days"), ("2028-02-30T09:00", "2028-02 has no day 30: it has 29 days"),
            ("2026-04-31 10:00", "2026-04 has no day 31: it has 30 days"), ("2026-13-01", "there is no month 13: months are 01 to 12"),
            ("2026-00-10", "there is no month 00: months are 01 to 12"), ("0000-01-01", "the year must be from 1 to 9999"),
            ("tomorrow 13pm", "\"13pm\" is not a time: \(DateWords.timeForms)"), ("fri 24:00", "\"24:00\" is not a time: \(DateWords.timeForms)"),
            ("dec 24 at 9.30", "\"9.30\" is not a time: \(DateWords.timeForms)"),
            ("03/04", "03/04 could be day/month or month/day: write it as YYYY-MM-DD, or with the month's name (3 apr, apr 3)"),
            ("3.4.2027 09:00", "3.4.2027 could be day/month or month/day: write it as YYYY-MM-DD, or with the month's name (3 apr, apr 3)"),
            ("2026/12/01", "write a date with dashes: YYYY-MM-DD"), ("feb 30", "February has no day 30"),
            ("30 february 9am", "February has no day 30"), ("feb 29 2027", "February 2027 has no day 29"),
        ])
    func whyNot(_ text: String, _ why: String) {
        #expect(DateWords.dateAndTime(text, today: today) == nil)
        #expect(DateWords.whyNot(text, today: today) == why)
    }

    @Test("no reason beyond the accepted forms for a word that is not one")
    func noReason() {
        for text in ["tomorow", "someday 09:00", "dec", ""] { #expect(DateWords.whyNot(text, today: today) == nil, "\(text)") }
    }

    @Test("a month's day is clamped to the month's length; across a year end; a leap day a year on")
    func clamped() {
        #expect(DateWords.date("+1m", today: date("2027-01-31")) == date("2027-02-28"))
        #expect(DateWords.date("-1m", today: date("2027-03-31")) == date("2027-02-28"))
        #expect(DateWords.date("+1y", today: date("2028-02-29")) == date("2029-02-28"))
        #expect(DateWords.date("tomorrow", today: date("2026-12-31")) == date("2027-01-01"))
        #expect(DateWords.date("thu", today: date("2026-12-31")) == date("2027-01-07"), "never today")
        #expect(DateWords.date("fri", today: date("2026-12-31")) == date("2027-01-01"))
    }

    @Test(
        "with a time",
        arguments: [
            ("tomorrow 09:00", "2026-12-02", "09:00"), ("fri 18:30", "2026-12-04", "18:30"), ("next fri 18:30", "2026-12-04", "18:30"),
            ("2026-12-04T09:30", "2026-12-04", "09:30"), ("2026-12-04 09:30", "2026-12-04", "09:30"), ("+3d 07:15", "2026-12-04", "07:15"),
        ])
    func withTime(_ text: String, _ day: String, _ time: String) {
        let resolved = DateWords.dateAndTime(text, today: today)
        #expect(resolved?.0 == date(day))
        #expect(resolved?.1 == WallTime(time))
    }

    @Test(
        "what it cannot read is nil",
        arguments: [
            "frday", "next", "next fortnight", "in 3", "in three days", "dec 2027", "32 dec", "+d", "3d", "+3x", "+-3d", "++3d", "2026-02-30", "tomorrow 25:00",
            "fri at", "+99999999d",
            "9999-12-31 +1d", "", "T09:00", "2026-12-04T", "+10000y",
        ])
    func unreadable(_ text: String) {
        #expect(DateWords.dateAndTime(text, today: today) == nil)
    }

    /// The spoken forms, each from Tuesday 2026-12-01 (the table a person can check on a calendar).
    @Test(
        "spoken dates: month names both ways, in N units, next week, month and year, end of month and week",
        arguments: [
            ("dec 24", "2026-12-24"), ("24 dec", "2026-12-24"), ("December 24th", "2026-12-24"), ("dec 1", "2026-12-01"),
            ("nov 30", "2027-11-30"), ("30 November", "2027-11-30"), ("24 dec 2027", "2027-12-24"), ("dec 24, 2027", "2027-12-24"),
            ("feb 29", "2028-02-29"), ("sept 3", "2027-09-03"), ("3 May", "2027-05-03"), ("jan 1st", "2027-01-01"),
            ("in 3 days", "2026-12-04"), ("in 1 day", "2026-12-02"), ("in 2 weeks", "2026-12-15"), ("in 1 month", "2027-01-01"),
            ("in a year", "2027-12-01"), ("in  3   days", "2026-12-04"), ("next week", "2026-12-07"), ("next month", "2027-01-01"),
            ("next year", "2027-01-01"), ("end of month", "2026-12-31"), ("end of the month", "2026-12-31"), ("end of week", "2026-12-06"),
        ])
    func spoken(_ text: String, _ expected: String) {
        #expect(DateWords.date(text, today: today) == date(expected))
    }

    @Test("spoken dates across months: end of a short month, in a month from a 31st, next week from a Sunday and a Monday")
    func spokenEdges() {
        #expect(DateWords.date("end of month", today: date("2027-02-10")) == date("2027-02-28"))
        #expect(DateWords.date("end of month", today: date("2028-02-29")) == date("2028-02-29"))
        #expect(DateWords.date("in 1 month", today: date("2027-01-31")) == date("2027-02-28"))
        #expect(DateWords.date("next week", today: date("2026-12-06")) == date("2026-12-07"), "a Sunday: the next day")
        #expect(DateWords.date("next week", today: date("2026-12-07")) == date("2026-12-14"), "a Monday: a week on")
        #expect(DateWords.date("end of week", today: date("2026-12-06")) == date("2026-12-06"), "a Sunday: itself")
        #expect(DateWords.date("dec 31", today: date("2026-12-31")) == date("2026-12-31"))
        #expect(DateWords.date("jan 1", today: date("2026-12-31")) == date("2027-01-01"))
    }

    @Test(
        "times on either clock, with a date before or after, after at, or alone (today)",
        arguments: [
            ("9am", "2026-12-01", "09:00"), ("tomorrow 9am", "2026-12-02", "09:00"), ("fri 6:30pm", "2026-12-04", "18:30"),
            ("dec 24 at noon", "2026-12-24", "12:00"), ("9am tomorrow", "2026-12-02", "09:00"), ("tomorrow 9:30 pm", "2026-12-02", "21:30"),
            ("12am", "2026-12-01", "00:00"), ("12pm", "2026-12-01", "12:00"), ("midnight", "2026-12-01", "00:00"),
            ("tomorrow at 18:00", "2026-12-02", "18:00"), ("in 3 days 7:05am", "2026-12-04", "07:05"), ("24 dec 2027 11:59PM", "2027-12-24", "23:59"),
            ("next week noon", "2026-12-07", "12:00"), ("14:00", "2026-12-01", "14:00"),
        ])
    func spokenTimes(_ text: String, _ day: String, _ time: String) {
        let resolved = DateWords.dateAndTime(text, today: today)
        #expect(resolved?.0 == date(day), "\(text)")
        #expect(resolved?.1 == WallTime(time), "\(text)")
    }

    @Test("not times: 0am, 13pm, 9:60am, 9:5pm, 123am, am")
    func notTimes() {
        for text in ["0am", "13pm", "9:60am", "9:5pm", "123am", "am", "9 o'clock", "9"] { #expect(DateWords.time(text) == nil, "\(text)") }
    }

    @Test("offsets stay inside the years a date may have")
    func bounds() {
        #expect(DateWords.date("+1d", today: date("9999-12-31")) == nil)
        #expect(DateWords.date("+1m", today: date("9999-12-31")) == nil)
        #expect(DateWords.date("-1d", today: date("0001-01-01")) == nil)
    }
}
