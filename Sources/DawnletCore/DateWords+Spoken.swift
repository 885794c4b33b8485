/// The dates and times people say rather than write: month names either way round (`dec 24`,
/// `24 december 2027`, `dec 24th`), `in 3 days`, `next week` (its Monday), `next month` (its
/// first day), `end of month`, and times on a 12-hour clock (`9am`, `9:30pm`, `noon`, `midnight`).
/// A day and month without a year is the next one on or after today.
extension DateWords {
    /// A time of day: `HH:MM` (24-hour), `9am`, `9:30pm`, `12am` (midnight), `noon`, `midnight`.
    public static func time(_ text: String) -> WallTime? {
        let word = text.lowercased()
        if let time = WallTime(word) { return time }
        switch word {
        case "noon", "midday": return WallTime(hour: 12, minute: 0)
        case "midnight": return .midnight
        default: break
        }
        guard word.hasSuffix("am") || word.hasSuffix("pm") else { return nil }
        let clock = word.dropLast(2)
        let afternoon = word.hasSuffix("pm")
        let (hourText, minuteText) = clock.firstIndex(of: ":").map { (clock[..<$0], clock[clock.index(after: $0)...]) } ?? (clock, "00")
        guard hourText.count <= 2, minuteText.count == 2, let hour = parseDigits(hourText), let minute = parseDigits(minuteText), (1...12).contains(hour)
        else { return nil }
        return WallTime(hour: hour % 12 + (afternoon ? 12 : 0), minute: minute)
    }

    /// The spoken forms of a date (lowercased, single spaces), or nil.
    static func spoken(_ word: String, today: CivilDate) -> CivilDate? {
        switch word {
        case "next week": return today.mondayOfWeek.adding(days: 7)
        case "next month": return bounded(monthsAhead(1, from: today, day: 1))
        case "next year": return CivilDate(year: today.year + 1, month: 1, day: 1).flatMap(bounded)
        case "end of month", "end of the month": return monthsAhead(0, from: today, day: 31)
        case "end of week", "end of the week": return today.mondayOfWeek.adding(days: 6)
        default: break
        }
        let words = word.split(separator: " ").map(String.init)
        if words.count == 3, words[0] == "in", let n = words[1] == "a" || words[1] == "an" ? 1 : parseDigits(words[1]), n <= 100_000 {
            switch words[2] {
            case "day", "days": return bounded(today.adding(days: n))
            case "week", "weeks": return bounded(today.adding(days: 7 * n))
            case "month", "months": return bounded(monthsAhead(n, from: today, day: today.day))
            case "year", "years": return bounded(monthsAhead(12 * n, from: today, day: today.day))
            default: return nil
            }
        }
        return monthAndDay(words, today: today)
    }

    /// `dec 24`, `24 dec`, `december 24th`, `24 dec 2027`, `dec 24, 2027`: with a year, that day;
    /// without, the next one on or after today (a 29 February in the next leap year).
    static func monthAndDay(_ words: [String], today: CivilDate) -> CivilDate? {
        guard let parts = monthDayParts(words) else { return nil }
        if let year = parts.year { return CivilDate(year: year, month: parts.month, day: parts.day) }
        for year in today.year...(today.year + 8) {
            if let date = CivilDate(year: year, month: parts.month, day: parts.day), date >= today { return bounded(date) }
        }
        return nil
    }

    /// The month, day and year (if given) of a month-name date, whether or not that day exists.
    static func monthDayParts(_ words: [String]) -> (month: Int, day: Int, year: Int?)? {
        let words = words.map { $0.hasSuffix(",") ? String($0.dropLast()) : $0 }
        guard (2...3).contains(words.count) else { return nil }
        let monthFirst = Self.month(words[0]) != nil
        guard monthFirst || Self.month(words[1]) != nil else { return nil }
        let (monthWord, dayWord) = monthFirst ? (words[0], words[1]) : (words[1], words[0])
        var dayDigits = Substring(dayWord)
        for suffix in ["st", "nd", "rd", "th"] where dayDigits.hasSuffix(suffix) { dayDigits = dayDigits.dropLast(2) }
        guard let month = Self.month(monthWord), dayDigits.count <= 2, let day = parseDigits(dayDigits) else { return nil }
        if words.count == 3 {
            guard words[2].count == 4, let year = parseDigits(words[2]) else { return nil }
            return (month, day, year)
        }
        return (month, day, nil)
    }

    /// January is 1: `jan`, `january`, `sept`, any case.
    static func month(_ word: String) -> Int? {
        let names = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
        let word = word.lowercased()
        if word == "sept" { return 9 }
        guard word.count >= 3, let index = names.firstIndex(where: { $0 == word || $0.prefix(3) == word }) else { return nil }
        return index + 1
    }

    /// `n` months after `today`'s, on `day` clamped to that month's length.
    static func monthsAhead(_ n: Int, from today: CivilDate, day: Int) -> CivilDate {
        let (year, month) = CivilDate.firstOfMonth(index: today.monthIndex + n)
        return CivilDate.clamped(year: year, month: month, day: day)
    }

    /// Why a spoken date is not one: a day its month lacks, a numeric date whose order is a guess.
    static func whyNotSpoken(_ text: String) -> String? {
        let words = text.lowercased().split(separator: " ").map(String.init)
        if let parts = monthDayParts(words), parts.day > 0 {
            let names = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
            let longest = CivilDate.daysInMonth(year: 2024, month: parts.month)
            if parts.day > longest { return "\(names[parts.month - 1]) has no day \(parts.day)" }
            if let year = parts.year, !CivilDate.supportedYears.contains(year) {
                return "the year must be from \(CivilDate.supportedYears.lowerBound) to \(CivilDate.supportedYears.upperBound)"
            }
            if let year = parts.year, parts.day > CivilDate.daysInMonth(year: year, month: parts.month) {
                return "\(names[parts.month - 1]) \(year) has no day \(parts.day)"
            }
        }
        // 03/04, 3.4.2027: day-month or month-day is a guess this program will not make.
        for separator: Character in ["/", "."] {
            let parts = text.split(separator: separator, omittingEmptySubsequences: false)
            guard (2...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && parseDigits($0) != nil }) else { continue }
            if parts[0].count == 4 { return "write a date with dashes: YYYY-MM-DD" }
            return "\(text) could be day/month or month/day: write it as YYYY-MM-DD, or with the month's name (3 apr, apr 3)"
        }
        return nil
    }
}
