/// A schedule text that does not parse: which word broke it, why, and a text that would work.
public struct ScheduleParseError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Hashable, Sendable {
        case empty, unknownWord, missingWord, badNumber, badDate, badTime, repeatedClause, tooLong
    }

    public let code: Code
    /// The word that broke the parse; nil when the text ended too early.
    public let word: String?
    public let problem: String
    public let example: String

    public var description: String {
        let at = word.map { "\"\($0)\": " } ?? ""
        return "bad schedule: \(at)\(problem) (example: \"\(example)\")"
    }
}

extension Schedule: CustomStringConvertible, LosslessStringConvertible {
    /// Longer texts (in UTF-8 bytes) are refused before any work is done.
    public static let maximumTextLength = 200

    /// The canonical text: the shortest standard spelling, weekdays in Monday-first order, then
    /// `from DATE`, `until DATE`, then `at HH:MM`. `Schedule(parsing: s.description) == s` for every schedule.
    public var description: String {
        var text: String
        switch rule {
        case .weekly(1, let days?) where days == .all: text = "daily"
        case .weekly(1, let days?) where days == .workdays: text = "weekdays"
        case .weekly(let interval, let days):
            text = interval == 1 ? "weekly" : "every \(interval) weeks"
            if let days { text += " on " + days.map(\.shortName).joined(separator: ",") }
        case .monthlyOnDay(12, nil): text = "yearly"
        case .monthlyOnDay(let interval, let day):
            text = interval == 1 ? "monthly" : "every \(interval) months"
            if let day { text += " on day \(day)" }
        case .monthlyOnWeekday(let interval, let ordinal, let weekday):
            text = interval == 1 ? "monthly" : "every \(interval) months"
            text += " on " + ordinal.description + " " + weekday.shortName
        }
        if let anchor { text += " from \(anchor)" }
        if let until { text += " until \(until)" }
        if let time { text += " at \(time)" }
        return text
    }

    /// Parses a schedule's text form, or returns nil. Use `init(parsing:)` for the reason.
    public init?(_ text: String) {
        guard let parsed = try? Schedule(parsing: text) else { return nil }
        self = parsed
    }

    /// Parses a schedule's text form, case-insensitively:
    ///
    ///     weekly on tue,thu       every 2 weeks on mon       every other week on fri
    ///     monthly on day 31       every 3 months on day 15   yearly
    ///     monthly on 2nd tue      monthly on last fri        every 2 months on 1st mon
    ///     daily   weekdays        … [from YYYY-MM-DD] [until YYYY-MM-DD] [at HH:MM]
    ///
    /// Also accepted: full weekday names, `and` or spaces between weekdays, `the` before a day,
    /// ordinals spelt out (`second`), `monthly on the 15th`, `monthly on the last day` (day 31),
    /// `every week`, `every month`, `every N years`, `every tue`, `every day`, `every weekday`.
    public init(parsing text: String) throws(ScheduleParseError) {
        guard text.utf8.count <= Schedule.maximumTextLength else {
            throw ScheduleParseError(
                code: .tooLong, word: nil,
                problem: "longer than \(Schedule.maximumTextLength) characters",
                example: ScheduleParser.Example.weekly)
        }
        var parser = ScheduleParser(text)
        self = try parser.parse()
    }
}

extension Schedule.Ordinal: CustomStringConvertible {
    /// `1st`, `2nd`, `3rd`, `4th`, `5th`, `last`.
    public var description: String {
        switch self {
        case .nth(1): return "1st"
        case .nth(2): return "2nd"
        case .nth(3): return "3rd"
        case .nth(let n): return "\(n)th"
        case .last: return "last"
        }
    }
}

/// A recursive-descent parser over the words of a schedule text.
struct ScheduleParser {
    enum Example {
        static let weekly = "every 2 weeks on mon,thu from 2026-01-05 at 09:30"
        static let monthly = "monthly on day 31"
        static let nthWeekday = "monthly on 2nd tue"
        static let anchor = "monthly on day 15 from 2026-01-15"
        static let time = "weekly on fri at 18:00"
        static let until = "weekly on mon from 2026-01-05 until 2026-03-30"
    }

    /// The words of the lowercased text (keywords are compared without case).
    private var words: [Substring]
    /// The text as typed, for quoting words in error messages.
    private let typed: String
    private var position = 0

    init(_ text: String) {
        // Stored schedules are canonical, already lowercase ASCII: lowercase only when needed.
        let lower = text.utf8.allSatisfy { $0 < 0x80 && !($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) }
        words = ScheduleParser.split(lower ? text : text.lowercased())
        typed = text
    }

    private static func split(_ text: String) -> [Substring] {
        // Words are runs between ASCII spaces, tabs and newlines; commas separate weekdays, so each
        // is a word of its own ("tue,thu" and "tue, thu" read alike). Scanned as UTF-8 bytes.
        var words: [Substring] = []
        let utf8 = text.utf8
        var start: String.Index?
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            let next = utf8.index(after: index)
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: ",") {
                if let s = start { words.append(text[s..<index]) }
                start = nil
                if byte == UInt8(ascii: ",") { words.append(text[index..<next]) }
            } else if start == nil {
                start = index
            }
            index = next
        }
        if let s = start { words.append(text[s..<utf8.endIndex]) }
        return words
    }

    mutating func parse() throws(ScheduleParseError) -> Schedule {
        guard !words.isEmpty else {
            throw ScheduleParseError(code: .empty, word: nil, problem: "the schedule is empty", example: Example.weekly)
        }
        let rule = try parseRule()
        var anchor: CivilDate?
        var until: CivilDate?
        var time: WallTime?
        while let word = next() {
            switch word {
            case "from", "starting":
                guard anchor == nil else { throw error(.repeatedClause, word, "`from` given twice", Example.anchor) }
                let value = try expectWord(after: word, example: Example.anchor)
                guard let date = CivilDate(String(value)) else {
                    throw error(.badDate, value, "not a date as YYYY-MM-DD that exists", Example.anchor)
                }
                anchor = date
            case "until":
                guard until == nil else { throw error(.repeatedClause, word, "`until` given twice", Example.until) }
                let value = try expectWord(after: word, example: Example.until)
                guard let date = CivilDate(String(value)) else {
                    throw error(.badDate, value, "not a date as YYYY-MM-DD that exists", Example.until)
                }
                until = date
            case "at":
                guard time == nil else { throw error(.repeatedClause, word, "`at` given twice", Example.time) }
                let value = try expectWord(after: word, example: Example.time)
                guard let wall = WallTime(String(value)) else {
                    throw error(.badTime, value, "not a time as HH:MM (00:00 to 23:59)", Example.time)
                }
                time = wall
            default:
                throw error(.unknownWord, word, "expected `from DATE`, `until DATE` or `at HH:MM` here", Example.weekly)
            }
        }
        if let anchor, let until, until < anchor {
            throw ScheduleParseError(
                code: .badDate, word: "\(until)", problem: "`until` is before `from` \(anchor): nothing would be left", example: Example.until)
        }
        return Schedule(rule: rule, anchor: anchor, until: until, time: time)
    }

    private mutating func parseRule() throws(ScheduleParseError) -> Schedule.Rule {
        let first = try expectWord(after: nil, example: Example.weekly)
        switch first {
        case "daily": return .weekly(interval: 1, days: .all)
        case "weekdays": return .weekly(interval: 1, days: .workdays)
        case "yearly", "annually": return .monthlyOnDay(interval: 12, day: nil)
        case "weekly": return .weekly(interval: 1, days: try parseOptionalWeekdays())
        case "monthly": return try parseOptionalMonthDay(interval: 1)
        case "every": return try parseEvery(first)
        default:
            throw error(
                .unknownWord, first, "a schedule starts with daily, weekdays, weekly, monthly, yearly or every",
                Example.weekly)
        }
    }

    /// After `every`: a count (`2`, `other`) then a unit, or directly a unit or weekdays.
    private mutating func parseEvery(_ every: Substring) throws(ScheduleParseError) -> Schedule.Rule {
        var word = try expectWord(after: every, example: Example.weekly)
        var interval = 1
        var counted = false
        if word == "other" {
            interval = 2
            counted = true
        } else if let n = parseDigits(word) {
            guard Schedule.intervalLimit.contains(n) else {
                throw error(
                    .badNumber, word, "the interval must be 1 to \(Schedule.intervalLimit.upperBound)",
                    Example.weekly)
            }
            interval = n
            counted = true
        }
        if counted { word = try expectWord(after: word, example: Example.weekly) }
        switch word {
        case "week", "weeks":
            return .weekly(interval: interval, days: try parseOptionalWeekdays())
        case "month", "months":
            return try parseOptionalMonthDay(interval: interval)
        case "year", "years":
            guard Schedule.intervalLimit.contains(interval * 12) else {
                throw error(
                    .badNumber, word, "the interval must be at most \(Schedule.intervalLimit.upperBound) months",
                    "yearly")
            }
            return .monthlyOnDay(interval: interval * 12, day: nil)
        case "day" where !counted:
            return .weekly(interval: 1, days: .all)
        case "weekday" where !counted:
            return .weekly(interval: 1, days: .workdays)
        default:
            if !counted, Weekday(name: String(word)) != nil {
                position -= 1
                return .weekly(interval: 1, days: try parseWeekdayList())
            }
            throw error(
                .unknownWord, word, counted ? "expected weeks, months or years" : "expected a number, other, week or month",
                Example.weekly)
        }
    }

    private mutating func parseOptionalWeekdays() throws(ScheduleParseError) -> WeekdaySet? {
        guard peek() == "on" else { return nil }
        position += 1
        return try parseWeekdayList()
    }

    /// `mon,wed`, `mon, wed`, `monday and wednesday`, `mon wed`.
    private mutating func parseWeekdayList() throws(ScheduleParseError) -> WeekdaySet {
        var days = WeekdaySet(rawValue: 0)
        var expectingDay = true
        while let word = peek() {
            if word == "," || word == "and" {
                guard !expectingDay else { throw error(.unknownWord, word, "expected a weekday", Example.weekly) }
                expectingDay = true
            } else if let day = Weekday(name: String(word)) {
                days.insert(day)
                expectingDay = false
            } else {
                break
            }
            position += 1
        }
        if expectingDay {
            if let word = peek() {
                throw error(.unknownWord, word, "not a weekday (mon … sun, or monday … sunday)", Example.weekly)
            }
            throw error(.missingWord, nil, "a weekday is missing at the end", Example.weekly)
        }
        return days
    }

    /// `on day 31`, `on the 15th`, `on 2nd tue`, `on last fri`, `on the last day`; or nothing
    /// (the anchor's day).
    private mutating func parseOptionalMonthDay(interval: Int) throws(ScheduleParseError) -> Schedule.Rule {
        guard peek() == "on" else { return .monthlyOnDay(interval: interval, day: nil) }
        position += 1
        var word = try expectWord(after: "on", example: Example.monthly)
        if word == "the" { word = try expectWord(after: word, example: Example.monthly) }
        if word == "day" {
            let number = try expectWord(after: word, example: Example.monthly)
            guard let day = parseDigits(number), (1...31).contains(day) else {
                throw error(.badNumber, number, "the day of the month must be 1 to 31", Example.monthly)
            }
            return .monthlyOnDay(interval: interval, day: day)
        }
        guard let ordinal = ScheduleParser.ordinal(String(word)) else {
            throw error(.unknownWord, word, "expected day N, or an ordinal and a weekday", Example.nthWeekday)
        }
        if let following = peek(), let weekday = Weekday(name: String(following)) {
            position += 1
            if case .nth(let n) = ordinal, n > 5 {
                throw error(.badNumber, word, "a month has at most five of a weekday", Example.nthWeekday)
            }
            return .monthlyOnWeekday(interval: interval, ordinal: ordinal, weekday: weekday)
        }
        switch ordinal {
        case .last:
            if peek() == "day" {
                position += 1
                return .monthlyOnDay(interval: interval, day: 31)
            }
            throw error(.unknownWord, peek() ?? word, "expected a weekday or `day` after `last`", "monthly on last fri")
        case .nth(let n):
            guard (1...31).contains(n) else {
                throw error(.badNumber, word, "the day of the month must be 1 to 31", Example.monthly)
            }
            return .monthlyOnDay(interval: interval, day: n)
        }
    }

    /// `1st` … `31st` (any of st/nd/rd/th), `first` … `fifth`, `last`.
    static func ordinal(_ word: String) -> Schedule.Ordinal? {
        switch word {
        case "last": return .last
        case "first": return .nth(1)
        case "second": return .nth(2)
        case "third": return .nth(3)
        case "fourth": return .nth(4)
        case "fifth": return .nth(5)
        default:
            guard word.count >= 3, ["st", "nd", "rd", "th"].contains(String(word.suffix(2))),
                let n = parseDigits(word.dropLast(2)), n >= 1
            else { return nil }
            return .nth(n)
        }
    }

    private func peek() -> Substring? { position < words.count ? words[position] : nil }

    private mutating func next() -> Substring? {
        guard position < words.count else { return nil }
        defer { position += 1 }
        return words[position]
    }

    private mutating func expectWord(after previous: Substring?, example: String) throws(ScheduleParseError) -> Substring {
        guard let word = next() else {
            let problem = previous.map { "something is missing after \"\(original($0))\"" } ?? "the schedule is empty"
            throw ScheduleParseError(code: .missingWord, word: nil, problem: problem, example: example)
        }
        return word
    }

    private func error(_ code: ScheduleParseError.Code, _ word: Substring?, _ problem: String, _ example: String)
        -> ScheduleParseError
    {
        ScheduleParseError(code: code, word: word.map(original), problem: problem, example: example)
    }

    /// A word as the person typed it. Lowercasing can change how non-ASCII text splits; then the
    /// lowercased word is quoted.
    private func original(_ word: Substring) -> String {
        let typedWords = ScheduleParser.split(typed)
        guard typedWords.count == words.count,
            let i = words.firstIndex(where: { $0.startIndex == word.startIndex && $0.endIndex == word.endIndex })
        else { return String(word) }
        return String(typedWords[i])
    }
}
