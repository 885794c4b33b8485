/// Dates as people type them: `2026-12-04`, `today`, `tomorrow`, `yesterday`, a
/// weekday (`fri`: the next Friday, never today), `next fri` (the same), `+3d`, `-1w`, `+2m`,
/// `+1y`, and the spoken forms (`DateWords+Spoken.swift`: `dec 24`, `in 3 days`, `next week`,
/// `end of month`); each optionally with a time (`tomorrow 09:00`, `fri 6:30pm`, `dec 24 at noon`,
/// `2026-12-04T09:00`), or a time alone (today's).
/// Pure: "today" is an argument, the date of `--now` (or the clock) in the configured zone.
public enum DateWords {
    /// What the error message offers.
    public static let examples =
        "YYYY-MM-DD, today, tomorrow, a weekday (fri), dec 24, in 3 days, next week, end of month or +3d, with a time such as 09:00 or 9am"

    /// The date `text` names, or nil.
    public static func date(_ text: String, today: CivilDate) -> CivilDate? {
        let word = text.lowercased().split(separator: " ").joined(separator: " ")
        if let iso = CivilDate(word) { return iso }
        switch word {
        case "today": return today
        case "tomorrow": return today.adding(days: 1)
        case "yesterday": return today.adding(days: -1)
        default: break
        }
        let named = word.hasPrefix("next ") ? String(word.dropFirst(5)) : word
        if let weekday = Weekday(name: named) {
            let ahead = (weekday.isoNumber - today.weekday.isoNumber + 7) % 7
            return today.adding(days: ahead == 0 ? 7 : ahead)
        }
        return offset(word, from: today) ?? spoken(word, today: today)
    }

    /// A date, a date and a time, or a time alone (today): `DATE`, `DATETHH:MM`, `DATE TIME`,
    /// `DATE at TIME`, `TIME DATE`, with any of `date`'s forms for DATE and `time`'s for TIME
    /// (`9:30 pm` may be two words).
    public static func dateAndTime(_ text: String, today: CivilDate) -> (CivilDate, WallTime?)? {
        let words = text.lowercased().split(separator: " ").map(String.init)
        guard !words.isEmpty else { return nil }
        let whole = words.joined(separator: " ")
        if let day = date(whole, today: today) { return (day, nil) }
        if let time = time(whole) ?? (words.count == 2 ? time(words.joined()) : nil) { return (today, time) }
        if words.count == 1, whole.count > 11, whole[whole.index(whole.startIndex, offsetBy: 10)] == "t" {
            guard let day = CivilDate(String(whole.prefix(10))), let time = WallTime(String(whole.dropFirst(11))) else { return nil }
            return (day, time)
        }
        for (dateWords, timeWords) in splits(words) {
            if let time = time(timeWords.joined()), let day = date(dateWords.joined(separator: " "), today: today) { return (day, time) }
        }
        return nil
    }

    /// The ways `words` may be a date and a time: the time last (one word, or two as in `9:30 pm`),
    /// after `at`, or first.
    static func splits(_ words: [String]) -> [(date: ArraySlice<String>, time: ArraySlice<String>)] {
        var ways: [(ArraySlice<String>, ArraySlice<String>)] = []
        let n = words.count
        for timeLength in [1, 2] where n > timeLength {
            let dateEnd = n - timeLength
            ways.append((words[..<dateEnd], words[dateEnd...]))
            if dateEnd > 1, words[dateEnd - 1] == "at" { ways.append((words[..<(dateEnd - 1)], words[dateEnd...])) }
            ways.append((words[timeLength...], words[..<timeLength]))
        }
        return ways
    }

    /// Why `text`, which `dateAndTime` did not take, is not a date: a day its month does not have
    /// (`2026-02-30`, `feb 30`), a month or year out of range, a numeric date whose order is a guess
    /// (`03/04`), or a time none of the forms takes (`tomorrow 25:00`). Nil when there is nothing
    /// more to say than the accepted forms.
    public static func whyNot(_ text: String, today: CivilDate) -> String? {
        let words = text.lowercased().split(separator: " ").map(String.init)
        let trimmed = words.joined(separator: " ")
        if let why = whyNotSpoken(trimmed) ?? whyNotISO(trimmed) { return why }
        if words.count == 1, trimmed.count > 11, trimmed[trimmed.index(trimmed.startIndex, offsetBy: 10)] == "t" {
            let head = String(trimmed.prefix(10))
            if CivilDate(head) != nil { return "\"\(trimmed.dropFirst(11))\" is not a time: \(timeForms)" }
            return whyNotISO(head)
        }
        for (dateWords, timeWords) in splits(words) {
            let dateText = dateWords.joined(separator: " ")
            if date(dateText, today: today) != nil {
                if time(timeWords.joined()) == nil { return "\"\(timeWords.joined(separator: " "))\" is not a time: \(timeForms)" }
            } else if time(timeWords.joined()) != nil, let why = whyNotSpoken(dateText) ?? whyNotISO(dateText) {
                return why
            }
        }
        return nil
    }

    /// Why an ISO date in shape (YYYY-MM-DD) names no day.
    static func whyNotISO(_ head: String) -> String? {
        let parts = head.split(separator: "-", omittingEmptySubsequences: false)
        guard head.count == 10, parts.count == 3, parts.map(\.count) == [4, 2, 2], parts.allSatisfy({ $0.allSatisfy(\.isASCII) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { return nil }
        guard CivilDate.supportedYears.contains(year) else {
            return "the year must be from \(CivilDate.supportedYears.lowerBound) to \(CivilDate.supportedYears.upperBound)"
        }
        guard (1...12).contains(month) else { return "there is no month \(parts[1]): months are 01 to 12" }
        let length = CivilDate.daysInMonth(year: year, month: month)
        guard (1...length).contains(day) else { return "\(parts[0])-\(parts[1]) has no day \(parts[2]): it has \(length) days" }
        return nil
    }

    /// The time forms, as an error offers them.
    public static let timeForms = "write it as 24-hour HH:MM (09:00, 18:30), or 9am, 6:30pm, noon, midnight"

    /// `+3d`, `-1w`, `+2m` (a month's day clamped to its length: Jan 31 + 1m is Feb 28), `+1y`.
    private static func offset(_ word: String, from today: CivilDate) -> CivilDate? {
        guard let sign = word.first, sign == "+" || sign == "-", let unit = word.last, word.count >= 3, word.count <= 8,
            word.dropFirst().dropLast().allSatisfy({ ("0"..."9").contains($0) }), let n = Int(word.dropFirst().dropLast())
        else { return nil }
        let signed = sign == "-" ? -n : n
        switch unit {
        case "d": return bounded(today.adding(days: signed))
        case "w": return bounded(today.adding(days: 7 * signed))
        case "m", "y":
            let (year, month) = CivilDate.firstOfMonth(index: today.monthIndex + (unit == "y" ? 12 * signed : signed))
            guard CivilDate.supportedYears.contains(year) else { return nil }
            return CivilDate.clamped(year: year, month: month, day: today.day)
        default: return nil
        }
    }

    /// Nil outside the years a date may have.
    static func bounded(_ date: CivilDate) -> CivilDate? {
        CivilDate.supportedYears.contains(date.year) ? date : nil
    }
}

extension StringProtocol {
    var trimmingPrefixSpaces: String { String(drop { $0 == " " }) }
    var trimmingSuffixSpaces: String { String(reversed().drop { $0 == " " }.reversed()) }
}
