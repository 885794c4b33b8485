/// A date and a time of day with no zone: an iCalendar DATE-TIME as written, before its TZID is
/// applied (RFC 5545 §3.3.5). Rules are expanded on these, then each instance is put in its zone.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let date: CivilDate
    /// 0..<86,400.
    public let secondsOfDay: Int

    public init(date: CivilDate, secondsOfDay: Int = 0) {
        self.date = date
        self.secondsOfDay = secondsOfDay
    }

    /// Seconds since 1970-01-01T00:00 of the same wall clock: what orders and spaces local times.
    public var localSeconds: Int64 { Int64(date.dayNumber) * 86_400 + Int64(secondsOfDay) }

    public init(localSeconds: Int64) {
        let day = localSeconds >= 0 ? localSeconds / 86_400 : (localSeconds - 86_399) / 86_400
        self.init(date: CivilDate(dayNumber: Int(day)), secondsOfDay: Int(localSeconds - day * 86_400))
    }

    public var hour: Int { secondsOfDay / 3600 }
    public var minute: Int { secondsOfDay / 60 % 60 }
    public var second: Int { secondsOfDay % 60 }

    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool { a.localSeconds < b.localSeconds }

    /// `2026-03-02T09:00:00`.
    public var description: String { "\(date)T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))" }
}

/// An RFC 5545 recurrence rule (§3.3.10), read from its text and expanded here rather than by
/// libical, whose iterator gets a third of its own test vectors wrong (BYWEEKNO, BYSETPOS with
/// times or in WEEKLY, unsorted or repeated lists, negative BYMONTHDAY in DAILY) and can spend a
/// second on one event. Expansion follows the RFC's table of which BYxxx parts expand the set and
/// which limit it, the way python-dateutil (the oracle of the tests) does; instances are wall
/// times, so the zone, UNTIL as an instant and EXDATE are the caller's.
public struct RecurrenceRule: Hashable, Sendable {
    public enum Frequency: Int, Comparable, Sendable, CaseIterable {
        case secondly, minutely, hourly, daily, weekly, monthly, yearly
        public static func < (a: Frequency, b: Frequency) -> Bool { a.rawValue < b.rawValue }
        public var name: String { ["SECONDLY", "MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"][rawValue] }
    }

    /// UNTIL as written: a date, a floating date-time, or a UTC one.
    public enum Until: Hashable, Sendable {
        case date(CivilDate)
        case local(LocalDateTime)
        case utc(Instant)

        /// Whether an instance at wall time `wall` (its instant `at`, nil when it cannot be told)
        /// comes after the last one this UNTIL allows.
        public func passed(by wall: LocalDateTime, at: Instant?) -> Bool {
            switch self {
            case .utc(let until): at.map { $0 > until } ?? false
            case .local(let until): wall > until
            case .date(let until): wall.date > until
            }
        }
    }

    /// A BYDAY entry: `MO` (ordinal 0, every Monday of the period) or `-1FR`.
    public struct WeekdayEntry: Hashable, Sendable {
        public let ordinal: Int
        public let weekday: Weekday
    }

    public var frequency: Frequency
    public var interval = 1
    public var count: Int?
    public var until: Until?
    /// Each list sorted, without repeats.
    public var bySecond: [Int] = []
    public var byMinute: [Int] = []
    public var byHour: [Int] = []
    public var byDay: [WeekdayEntry] = []
    public var byMonthDay: [Int] = []
    public var byYearDay: [Int] = []
    public var byWeekNo: [Int] = []
    public var byMonth: [Int] = []
    public var bySetPos: [Int] = []
    public var weekStart: Weekday = .monday
    /// RFC 7529's SKIP, for a day of the month that a month lacks (a yearly Feb 29): left out,
    /// or moved to the next day or the last of the month.
    public enum Skip: Hashable, Sendable { case omit, forward, backward }
    public var skip = Skip.omit

    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    public init(frequency: Frequency) { self.frequency = frequency }

    /// `FREQ=MONTHLY;BYDAY=1MO;COUNT=3`: names are case-insensitive, unknown `X-` parts ignored.
    public init(parsing text: String) throws(ParseError) {
        var frequency: Frequency?
        var rule = RecurrenceRule(frequency: .daily)
        for part in text.split(separator: ";", omittingEmptySubsequences: true) {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { throw ParseError("\"\(part)\" is not NAME=VALUE") }
            let name = pair[0].uppercased()
            let value = String(pair[1])
            func integers(_ range: ClosedRange<Int>, signed: Bool) throws(ParseError) -> [Int] {
                var result = Set<Int>()
                for item in value.split(separator: ",", omittingEmptySubsequences: false) {
                    guard let n = Int(item), range.contains(abs(n)), signed || n >= 0, n != 0 || range.lowerBound == 0 else {
                        throw ParseError("\(name)=\(value): \"\(item)\" is not \(signed ? "±" : "")\(range.lowerBound)…\(range.upperBound)")
                    }
                    result.insert(n)
                }
                return result.sorted()
            }
            switch name {
            case "FREQ":
                guard let f = Frequency.allCases.first(where: { $0.name == value.uppercased() }) else { throw ParseError("FREQ=\(value) is no frequency") }
                frequency = f
            case "INTERVAL":
                guard let n = Int(value), n >= 1, n <= 1_000_000 else { throw ParseError("INTERVAL=\(value) is not a positive number") }
                rule.interval = n
            case "COUNT":
                guard let n = Int(value), n >= 1 else { throw ParseError("COUNT=\(value) is not a positive number") }
                rule.count = n
            case "UNTIL":
                guard let until = Self.until(value) else { throw ParseError("UNTIL=\(value) is no DATE or DATE-TIME") }
                rule.until = until
            case "BYSECOND": rule.bySecond = try integers(0...60, signed: false).filter { $0 < 60 }  // a leap second never comes
            case "BYMINUTE": rule.byMinute = try integers(0...59, signed: false)
            case "BYHOUR": rule.byHour = try integers(0...23, signed: false)
            case "BYMONTHDAY": rule.byMonthDay = try integers(1...31, signed: true)
            case "BYYEARDAY": rule.byYearDay = try integers(1...366, signed: true)
            case "BYWEEKNO": rule.byWeekNo = try integers(1...53, signed: true)
            case "BYMONTH": rule.byMonth = try integers(1...12, signed: false)
            case "BYSETPOS": rule.bySetPos = try integers(1...366, signed: true)
            case "WKST":
                guard let day = Weekday(icalCode: value) else { throw ParseError("WKST=\(value) is no weekday") }
                rule.weekStart = day
            case "BYDAY":
                var entries = Set<WeekdayEntry>()
                for item in value.split(separator: ",", omittingEmptySubsequences: false) {
                    let digits = item.prefix { "+-0123456789".contains($0) }
                    guard let day = Weekday(icalCode: String(item.dropFirst(digits.count))),
                        let ordinal = digits.isEmpty ? 0 : Int(digits), abs(ordinal) <= 53, digits.isEmpty || ordinal != 0
                    else {
                        throw ParseError("BYDAY=\(value): \"\(item)\" is no weekday")
                    }
                    entries.insert(WeekdayEntry(ordinal: ordinal, weekday: day))
                }
                rule.byDay = entries.sorted { ($0.ordinal, $0.weekday.isoNumber) < ($1.ordinal, $1.weekday.isoNumber) }
            case "RSCALE":
                guard value.uppercased() == "GREGORIAN" else { throw ParseError("RSCALE=\(value): only the Gregorian calendar is followed") }
            case "SKIP":
                switch value.uppercased() {
                case "OMIT": rule.skip = .omit
                case "FORWARD": rule.skip = .forward
                case "BACKWARD": rule.skip = .backward
                default: throw ParseError("SKIP=\(value) is not OMIT, FORWARD or BACKWARD")
                }
            default:
                guard name.hasPrefix("X-") else { throw ParseError("\(name) is no rule part") }
            }
        }
        guard let frequency else { throw ParseError("no FREQ") }
        rule.frequency = frequency
        self = rule
    }

    /// `20260304`, `20260304T080000` or `20260304T080000Z`.
    public static func until(_ text: String) -> Until? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var n = 0
            for b in bytes[range] {
                guard b >= 48, b <= 57 else { return nil }
                n = n * 10 + Int(b - 48)
            }
            return n
        }
        guard let y = number(0..<4), let m = number(4..<6), let d = number(6..<8), let date = CivilDate(year: y, month: m, day: d) else { return nil }
        if bytes.count == 8 { return .date(date) }
        guard bytes.count == 15 || (bytes.count == 16 && (bytes[15] == 90 || bytes[15] == 122)), bytes[8] == 84 || bytes[8] == 116,
            let h = number(9..<11), let mi = number(11..<13), let s = number(13..<15), h < 24, mi < 60, s <= 60
        else { return nil }
        let local = LocalDateTime(date: date, secondsOfDay: h * 3600 + mi * 60 + min(s, 59))
        return bytes.count == 16 ? .utc(Instant(secondsSinceEpoch: local.localSeconds)) : .local(local)
    }

}
