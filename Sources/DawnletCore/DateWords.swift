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
