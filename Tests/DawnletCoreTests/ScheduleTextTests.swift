import DawnletTestSupport
import Testing

@testable import DawnletCore

@Suite struct ScheduleTextTests {
    @Test(
        "accepted spellings and their canonical text",
        arguments: [
            ("weekly on tue,thu", "weekly on tue,thu"),
            ("Weekly on THURSDAY, Tuesday", "weekly on tue,thu"),
            ("weekly on tue and thu", "weekly on tue,thu"),
            ("every 2 weeks on mon", "every 2 weeks on mon"),
            ("every other week on fri", "every 2 weeks on fri"),
            ("every week on sun", "weekly on sun"),
            ("every 1 weeks on sun", "weekly on sun"),
            ("every tue", "weekly on tue"),
            ("every day", "daily"),
            ("every weekday", "weekdays"),
            ("monthly on day 31", "monthly on day 31"),
            ("monthly on the 15th", "monthly on day 15"),
            ("monthly on the last day", "monthly on day 31"),
            ("every 3 months on day 15", "every 3 months on day 15"),
            ("yearly", "yearly"),
            ("annually", "yearly"),
            ("every 12 months", "yearly"),
            ("every year", "yearly"),
            ("every 2 years", "every 24 months"),
            ("monthly on 2nd tue", "monthly on 2nd tue"),
            ("monthly on the second Tuesday", "monthly on 2nd tue"),
            ("monthly on last fri", "monthly on last fri"),
            ("every 2 months on 1st mon", "every 2 months on 1st mon"),
            ("daily", "daily"),
            ("weekly on mon,tue,wed,thu,fri,sat,sun", "daily"),
            ("weekdays", "weekdays"),
            ("weekly on fri,mon,wed,tue,thu", "weekdays"),
            ("every 2 weeks on mon,tue,wed,thu,fri", "every 2 weeks on mon,tue,wed,thu,fri"),
            ("weekly", "weekly"),
            ("monthly", "monthly"),
            ("weekly on fri at 9:05", "weekly on fri at 09:05"),
            ("monthly on day 1 at 18:00 from 2026-01-01", "monthly on day 1 from 2026-01-01 at 18:00"),
            ("  DAILY   FROM 2026-03-01   AT 07:30 ", "daily from 2026-03-01 at 07:30"),
            ("weekly on mon until 2026-05-01", "weekly on mon until 2026-05-01"),
            ("monthly on day 1 at 18:00 until 2027-06-30 from 2026-01-01", "monthly on day 1 from 2026-01-01 until 2027-06-30 at 18:00"),
        ])
    func canonical(_ input: String, _ expected: String) throws {
        let s = try schedule(input)
        #expect(s.description == expected)
        #expect(try Schedule(parsing: s.description) == s)
    }

    @Test("the sugar means its long form: daily, weekdays, yearly, every other week")
    func sugar() throws {
        #expect(try schedule("daily").rule == .weekly(interval: 1, days: .all))
        #expect(try schedule("weekdays").rule == .weekly(interval: 1, days: .workdays))
        #expect(try schedule("yearly").rule == .monthlyOnDay(interval: 12, day: nil))
        #expect(try schedule("every other week on fri").rule == .weekly(interval: 2, days: WeekdaySet([.friday])))
        #expect(
            try schedule("monthly on last fri from 2026-01-02 at 23:59")
                == Schedule(
                    rule: .monthlyOnWeekday(interval: 1, ordinal: .last, weekday: .friday),
                    anchor: date("2026-01-02"), time: WallTime(hour: 23, minute: 59)))
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        let text: String
        let word: String?
        let code: ScheduleParseError.Code
        var testDescription: String { "\"\(text)\"" }
    }

    @Test(
        "a text that does not parse names the word that broke it",
        arguments: [
            Bad(text: "", word: nil, code: .empty),
            Bad(text: "   ", word: nil, code: .empty),
            Bad(text: "fortnightly", word: "fortnightly", code: .unknownWord),
            Bad(text: "weekly on tuz", word: "tuz", code: .unknownWord),
            Bad(text: "weekly on", word: nil, code: .missingWord),
            Bad(text: "weekly on mon,", word: nil, code: .missingWord),
            Bad(text: "weekly on mon,,tue", word: ",", code: .unknownWord),
            Bad(text: "monthly on day 32", word: "32", code: .badNumber),
            Bad(text: "monthly on day 0", word: "0", code: .badNumber),
            Bad(text: "monthly on day x", word: "x", code: .badNumber),
            Bad(text: "monthly on 6th fri", word: "6th", code: .badNumber),
            Bad(text: "monthly on the 32nd", word: "32nd", code: .badNumber),
            Bad(text: "monthly on last", word: "last", code: .unknownWord),
            Bad(text: "monthly on tuesday", word: "tuesday", code: .unknownWord),
            Bad(text: "every 0 weeks on mon", word: "0", code: .badNumber),
            Bad(text: "every 1000 weeks on mon", word: "1000", code: .badNumber),
            Bad(text: "every 100 years", word: "years", code: .badNumber),
            Bad(text: "every 2 days", word: "days", code: .unknownWord),
            Bad(text: "every -1 weeks", word: "-1", code: .unknownWord),
            Bad(text: "every", word: nil, code: .missingWord),
            Bad(text: "daily from 2026-02-30", word: "2026-02-30", code: .badDate),
            Bad(text: "daily from tomorrow", word: "tomorrow", code: .badDate),
            Bad(text: "daily at 24:00", word: "24:00", code: .badTime),
            Bad(text: "daily at 9", word: "9", code: .badTime),
            Bad(text: "daily at", word: nil, code: .missingWord),
            Bad(text: "daily at 09:00 at 10:00", word: "at", code: .repeatedClause),
            Bad(text: "daily from 2026-01-01 from 2026-01-02", word: "from", code: .repeatedClause),
            Bad(text: "weekly on mon until 2026-05-31 until 2026-06-01", word: "until", code: .repeatedClause),
            Bad(text: "weekly on mon until next week", word: "next", code: .badDate),
            Bad(text: "weekly on mon until", word: nil, code: .missingWord),
            Bad(text: "weekly on mon from 2026-05-04 until 2026-05-01", word: "2026-05-01", code: .badDate),
            Bad(text: "hourly", word: "hourly", code: .unknownWord),
        ])
    func errors(_ bad: Bad) {
        #expect {
            try Schedule(parsing: bad.text)
        } throws: { error in
            guard let e = error as? ScheduleParseError else { return false }
            return e.code == bad.code && e.word == bad.word && e.description.contains("example: \"")
                && (try? Schedule(parsing: e.example)) != nil
        }
    }

    @Test("error messages read as one line naming the word")
    func message() {
        #expect(throws: ScheduleParseError.self) { try Schedule(parsing: "weekly on tuz") }
        do {
            _ = try Schedule(parsing: "weekly on tuz")
        } catch {
            #expect(
                error.description
                    == #"bad schedule: "tuz": not a weekday (mon … sun, or monday … sunday) (example: "every 2 weeks on mon,thu from 2026-01-05 at 09:30")"#)
        }
    }

    @Test("parse(print(s)) == s for thousands of generated schedules")
    func roundTripGenerated() throws {
        var rng = SeededRandom(seed: 42)
        for _ in 0..<5000 {
            let s = RandomSchedules.make(&rng)
            #expect(try Schedule(parsing: s.description) == s, "\(s)")
        }
    }

    @Test("random garbage never crashes and never parses into something that prints differently")
    func garbage() throws {
        var rng = SeededRandom(seed: 7)
        let vocabulary = [
            "every", "other", "week", "weeks", "month", "months", "on", "day", "the", "last", "2nd",
            "5th", "31", "mon", "fri", ",", "and", "from", "at", "2026-02-29", "2028-02-29", "25:00",
            "09:30", "daily", "weekly", "monthly", "yearly", "weekdays", "0", "999", "1000", "ü", "\u{0}",
            "-", "tue,thu", "year", "years", "99999999999999999999",
        ]
        for _ in 0..<20_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...8, using: &rng) {
                if Int.random(in: 0..<10, using: &rng) == 0 {
                    text += String(UnicodeScalar(UInt8.random(in: 0...127, using: &rng)))
                } else {
                    text += vocabulary.randomElement(using: &rng)! + (Bool.random(using: &rng) ? " " : "")
                }
            }
            if let s = try? Schedule(parsing: text) {
                #expect(try Schedule(parsing: s.description) == s, "\(text)")
            }
        }
        #expect(throws: ScheduleParseError.self) { try Schedule(parsing: String(repeating: "weekly ", count: 100)) }
    }
}
