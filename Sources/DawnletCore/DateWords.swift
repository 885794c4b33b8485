/// Dates as people type them: `2026-12-04`, `today`, `tomorrow`, `yesterday`, a
/// weekday (`fri`: the next Friday, never today), `next fri` (the same), `+3d`, `-1w`, `+2m`,
/// `+1y`; each optionally followed by a time (`tomorrow 09:00`, `fri 18:30`, `2026-12-04T09:00`).
/// Pure: "today" is an argument, the date of `--now` (or the clock) in the configured zone.
public enum DateWords {
    /// What the error message offers.
    public static let examples = "YYYY-MM-DD, today, tomorrow, yesterday, a weekday (fri), next fri, +3d, -1w or +2m"

    /// The date `text` names, or nil.
    public static func date(_ text: String, today: CivilDate) -> CivilDate? {
        let word = text.lowercased()
        if let iso = CivilDate(word) { return iso }
        switch word {
        case "today": return today
        case "tomorrow": return today.adding(days: 1)
        case "yesterday": return today.adding(days: -1)
        default: break
        }
        let named = word.hasPrefix("next ") ? String(word.dropFirst(5)).trimmingPrefixSpaces : word
        if let weekday = Weekday(name: named) {
            let ahead = (weekday.isoNumber - today.weekday.isoNumber + 7) % 7
            return today.adding(days: ahead == 0 ? 7 : ahead)
        }
        return offset(word, from: today)
    }

    /// `DATE`, `DATETHH:MM` or `DATE HH:MM`, with any of `date`'s forms for DATE.
    public static func dateAndTime(_ text: String, today: CivilDate) -> (CivilDate, WallTime?)? {
        let trimmed = text.trimmingPrefixSpaces
        if let day = date(trimmed, today: today) { return (day, nil) }
        // The time is the last word ("next fri 18:30"), or follows an ISO date's T.
        var head = Substring(trimmed)
        var tail = Substring("")
        if let space = trimmed.lastIndex(of: " ") {
            head = trimmed[..<space]
            tail = trimmed[trimmed.index(after: space)...]
        } else if trimmed.count > 11, trimmed[trimmed.index(trimmed.startIndex, offsetBy: 10)] == "T" {
            head = trimmed.prefix(10)
            tail = trimmed.dropFirst(11)
        }
        guard !tail.isEmpty, let time = WallTime(String(tail)), let day = date(String(head).trimmingSuffixSpaces, today: today) else {
            return nil
        }
        return (day, time)
    }

    /// Why `text`, which `dateAndTime` did not take, is not a date: a day its month does not have
    /// (`2026-02-30`), a month or year out of range, or a time not written as 24-hour HH:MM
    /// (`tomorrow 9am`). Nil when there is nothing more to say than the accepted forms.
    public static func whyNot(_ text: String, today: CivilDate) -> String? {
        let trimmed = text.trimmingPrefixSpaces.trimmingSuffixSpaces
        var (head, tail) = (trimmed, String?.none)
        if let space = trimmed.lastIndex(of: " ") {
            (head, tail) = (String(trimmed[..<space]).trimmingSuffixSpaces, String(trimmed[trimmed.index(after: space)...]))
        } else if trimmed.count > 11, trimmed[trimmed.index(trimmed.startIndex, offsetBy: 10)] == "T" {
            (head, tail) = (String(trimmed.prefix(10)), String(trimmed.dropFirst(11)))
        }
        if let tail, WallTime(tail) == nil, date(head, today: today) != nil {
            return "\"\(tail)\" is not a time: write it as 24-hour HH:MM (09:00, 18:30)"
        }
        // An ISO date in shape (YYYY-MM-DD) that names no day.
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
    private static func bounded(_ date: CivilDate) -> CivilDate? {
        CivilDate.supportedYears.contains(date.year) ? date : nil
    }
}

extension StringProtocol {
    var trimmingPrefixSpaces: String { String(drop { $0 == " " }) }
    var trimmingSuffixSpaces: String { String(reversed().drop { $0 == " " }.reversed()) }
}
