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
        "why a text is not a date: a day the month lacks, a month or year out of range, a time not HH:MM; nothing more for a mere unknown word",
        arguments: [
            ("2026-02-30", "2026-02 has no day 30: it has 28 days"), ("2028-02-30T09:00", "2028-02 has no day 30: it has 29 days"),
            ("2026-04-31 10:00", "2026-04 has no day 31: it has 30 days"), ("2026-13-01", "there is no month 13: months are 01 to 12"),
            ("2026-00-10", "there is no month 00: months are 01 to 12"), ("0000-01-01", "the year must be from 1 to 9999"),
            ("tomorrow 9am", "\"9am\" is not a time: write it as 24-hour HH:MM (09:00, 18:30)"),
            ("fri 24:00", "\"24:00\" is not a time: write it as 24-hour HH:MM (09:00, 18:30)"),
        ])
    func whyNot(_ text: String, _ why: String) {
        #expect(DateWords.dateAndTime(text, today: today) == nil)
        #expect(DateWords.whyNot(text, today: today) == why)
    }

    @Test("no reason beyond the accepted forms for a word that is not one")
    func noReason() {
        for text in ["tomorow", "someday 09:00", "2026/12/01", ""] { #expect(DateWords.whyNot(text, today: today) == nil, "\(text)") }
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
            "frday", "next", "next week", "+d", "3d", "+3x", "+-3d", "++3d", "2026-02-30", "tomorrow 25:00", "fri at", "+99999999d",
            "9999-12-31 +1d", "", "T09:00", "2026-12-04T", "+10000y",
        ])
    func unreadable(_ text: String) {
        #expect(DateWords.dateAndTime(text, today: today) == nil)
    }

    @Test("offsets stay inside the years a date may have")
    func bounds() {
        #expect(DateWords.date("+1d", today: date("9999-12-31")) == nil)
        #expect(DateWords.date("+1m", today: date("9999-12-31")) == nil)
        #expect(DateWords.date("-1d", today: date("0001-01-01")) == nil)
    }
}
