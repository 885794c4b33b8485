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

    // MARK: Expansion

    /// Calls `body` with each instance at or after `start` (DTSTART, as a wall time), in order,
    /// until it returns false, COUNT instances have come, or a period begins after `through`.
    /// `from`, without COUNT, skips the periods that end before it (an old rule read for this week).
    /// DTSTART itself is given only when the rule makes it; UNTIL is the caller's to compare.
    public func forEach(start: LocalDateTime, from: LocalDateTime? = nil, through: LocalDateTime, _ body: (LocalDateTime) -> Bool) {
        var rule = self
        rule.fillDefaults(start)
        let times = rule.timesOfDay(start)
        var period = rule.firstPeriod(start, from: count == nil ? from : nil)
        var left = count ?? Int.max
        var days: [Int] = []
        var instances: [LocalDateTime] = []
        while let first = rule.firstDay(of: period), first <= through.date.dayNumber {
            rule.days(of: period, into: &days)
            instances.removeAll(keepingCapacity: true)
            if frequency == .hourly || frequency == .minutely || frequency == .secondly {
                rule.subDailyInstances(period, days: days, start: start, into: &instances)
            } else {
                for day in days {
                    for time in times { instances.append(LocalDateTime(date: CivilDate(dayNumber: day), secondsOfDay: time)) }
                }
            }
            if !bySetPos.isEmpty { instances = rule.setPositions(instances) }
            for instance in instances where instance >= start {
                if instance > through || !body(instance) { return }
                left -= 1
                if left == 0 { return }
            }
            period += interval
        }
    }

    /// RFC 5545's defaults: a rule with no day part repeats on DTSTART's day of the week, month
    /// or year; times not given are DTSTART's.
    mutating func fillDefaults(_ start: LocalDateTime) {
        let c = start.date.components
        if byWeekNo.isEmpty && byYearDay.isEmpty && byMonthDay.isEmpty && byDay.isEmpty {
            switch frequency {
            case .yearly:
                if byMonth.isEmpty { byMonth = [c.month] }
                byMonthDay = [c.day]
            case .monthly: byMonthDay = [c.day]
            case .weekly: byDay = [WeekdayEntry(ordinal: 0, weekday: start.date.weekday)]
            default: break
            }
        }
        // An ordinal means something only within a month or a year.
        if frequency < .monthly {
            byDay = Array(Set(byDay.map { WeekdayEntry(ordinal: 0, weekday: $0.weekday) })).sorted { $0.weekday < $1.weekday }
        }
        if frequency > .hourly && byHour.isEmpty { byHour = [start.hour] }
        if frequency > .minutely && byMinute.isEmpty { byMinute = [start.minute] }
        if frequency > .secondly && bySecond.isEmpty { bySecond = [start.second] }
    }

    /// Seconds of the day each instance of a day takes (daily and longer rules).
    func timesOfDay(_ start: LocalDateTime) -> [Int] {
        guard frequency > .hourly else { return [] }
        var result: [Int] = []
        for h in byHour { for m in byMinute { for s in bySecond { result.append(h * 3600 + m * 60 + s) } } }
        return result
    }

    /// The index of a period: years, months (year × 12 + month − 1), weeks (the day number of
    /// their first day / 7, counted from a week-start day), days, hours, minutes, seconds. The
    /// first is DTSTART's, or the last one at the rule's interval that begins before `from`.
    func firstPeriod(_ start: LocalDateTime, from: LocalDateTime?) -> Int {
        let first = periodIndex(start)
        guard let from, from > start else { return first }
        let steps = (periodIndex(from) - first) / interval - 1
        return steps > 0 ? first + steps * interval : first
    }

    func periodIndex(_ t: LocalDateTime) -> Int {
        let c = t.date.components
        switch frequency {
        case .yearly: return c.year
        case .monthly: return c.year * 12 + c.month - 1
        case .weekly: return (weekStartDay(t.date.dayNumber) - weekAnchor) / 7
        case .daily: return t.date.dayNumber
        case .hourly: return t.date.dayNumber * 24 + t.hour
        case .minutely: return t.date.dayNumber * 1440 + t.secondsOfDay / 60
        case .secondly: return t.date.dayNumber * 86_400 + t.secondsOfDay
        }
    }

    /// A day number that begins a week under WKST (weeks are counted from it; the value is
    /// a multiple of 7 away from every week start).
    var weekAnchor: Int { CivilDate(year: 1970, month: 1, day: 5)!.dayNumber + weekStart.isoNumber - 1 - 7_000_000 }

    func weekStartDay(_ day: Int) -> Int { day - (day - weekAnchor) % 7 }

    /// The day number the period begins on; nil past year 9999.
    func firstDay(of period: Int) -> Int? {
        let day: Int?
        switch frequency {
        case .yearly: day = CivilDate(year: period, month: 1, day: 1)?.dayNumber
        case .monthly: day = CivilDate(year: period / 12, month: period % 12 + 1, day: 1)?.dayNumber
        case .weekly: day = weekAnchor + period * 7
        case .daily: day = period
        case .hourly: day = period / 24
        case .minutely: day = period / 1440
        case .secondly: day = period / 86_400
        }
        guard let day, day <= Self.lastDay else { return nil }
        return day
    }

    /// 9999-12-31: no period's days go past it.
    static let lastDay = CivilDate(year: CivilDate.supportedYears.upperBound, month: 12, day: 31)!.dayNumber

    /// The days of a period the day parts let through, in order.
    func days(of period: Int, into days: inout [Int]) {
        days.removeAll(keepingCapacity: true)
        guard let first = firstDay(of: period) else { return }
        let span: Int
        switch frequency {
        case .yearly: span = CivilDate.isLeapYear(period) ? 366 : 365
        case .monthly: span = CivilDate.daysInMonth(year: period / 12, month: period % 12 + 1)
        case .weekly: span = 7
        default: span = 1
        }
        var year = Int.min
        var week = WeekNumbers(year: 1970, weekStart: weekStart)
        for day in first..<min(first + span, Self.lastDay + 1) {
            let date = CivilDate(dayNumber: day)
            let c = date.components
            let length = CivilDate.daysInMonth(year: c.year, month: c.month)
            if !(byMonth.isEmpty || byMonth.contains(c.month)) || !(byMonthDay.isEmpty || byMonthDay.contains(c.day) || byMonthDay.contains(c.day - length - 1))
            {
                guard skip != .omit, let missing = byMonthDay.last, missing > 28 else { continue }
                // SKIP: the last day takes its month's missing days; the next month's first, forward.
                if skip == .backward {
                    guard c.day == length, missing > length, byMonth.isEmpty || byMonth.contains(c.month) else { continue }
                } else {
                    let previous = date.adding(days: -1).components
                    guard c.day == 1, missing > CivilDate.daysInMonth(year: previous.year, month: previous.month),
                        byMonth.isEmpty || byMonth.contains(previous.month)
                    else { continue }
                }
            }
            let yearStart = CivilDate(year: c.year, month: 1, day: 1)!.dayNumber
            let yearLength = CivilDate.isLeapYear(c.year) ? 366 : 365
            if !byYearDay.isEmpty {
                let n = day - yearStart + 1
                if !byYearDay.contains(n) && !byYearDay.contains(n - yearLength - 1) { continue }
            }
            if !byWeekNo.isEmpty {
                if c.year != year { (year, week) = (c.year, WeekNumbers(year: c.year, weekStart: weekStart)) }
                if !week.matches(day, byWeekNo) { continue }
            }
            if !byDay.isEmpty && !byDay.contains(where: { matches($0, date, c, yearStart: yearStart, yearLength: yearLength) }) { continue }
            days.append(day)
        }
    }

    /// Whether a BYDAY entry takes the date: its weekday, and its ordinal counted in the month
    /// (monthly rules, and yearly ones with BYMONTH) or in the year.
    func matches(_ entry: WeekdayEntry, _ date: CivilDate, _ c: (year: Int, month: Int, day: Int), yearStart: Int, yearLength: Int) -> Bool {
        guard date.weekday == entry.weekday else { return false }
        guard entry.ordinal != 0 else { return true }
        let (index, length): (Int, Int)
        if frequency == .monthly || !byMonth.isEmpty {
            (index, length) = (c.day - 1, CivilDate.daysInMonth(year: c.year, month: c.month))
        } else {
            (index, length) = (date.dayNumber - yearStart, yearLength)
        }
        return entry.ordinal > 0 ? index / 7 + 1 == entry.ordinal : (length - 1 - index) / 7 + 1 == -entry.ordinal
    }

    /// An hourly (or finer) period's instances: its one hour, minute or second, when the day and
    /// the BYHOUR/BYMINUTE/BYSECOND parts allow it, expanded by the finer parts.
    func subDailyInstances(_ period: Int, days: [Int], start: LocalDateTime, into instances: inout [LocalDateTime]) {
        guard let day = days.first else { return }
        let (hours, minutes, seconds): ([Int], [Int], [Int])
        switch frequency {
        case .hourly:
            let hour = period - day * 24
            guard byHour.isEmpty || byHour.contains(hour) else { return }
            (hours, minutes, seconds) = ([hour], byMinute.isEmpty ? [start.minute] : byMinute, bySecond.isEmpty ? [start.second] : bySecond)
        case .minutely:
            let minuteOfDay = period - day * 1440
            guard byHour.isEmpty || byHour.contains(minuteOfDay / 60), byMinute.isEmpty || byMinute.contains(minuteOfDay % 60) else { return }
            (hours, minutes, seconds) = ([minuteOfDay / 60], [minuteOfDay % 60], bySecond.isEmpty ? [start.second] : bySecond)
        default:
            let s = period - day * 86_400
            guard byHour.isEmpty || byHour.contains(s / 3600), byMinute.isEmpty || byMinute.contains(s / 60 % 60),
                bySecond.isEmpty || bySecond.contains(s % 60)
            else { return }
            (hours, minutes, seconds) = ([s / 3600], [s / 60 % 60], [s % 60])
        }
        for h in hours {
            for m in minutes {
                for s in seconds {
                    instances.append(LocalDateTime(date: CivilDate(dayNumber: day), secondsOfDay: h * 3600 + m * 60 + s))
                }
            }
        }
    }

    /// BYSETPOS: the n-th (from the end when negative) of a period's instances, in order, once each.
    func setPositions(_ instances: [LocalDateTime]) -> [LocalDateTime] {
        var picked = Set<Int>()
        for position in bySetPos {
            let index = position > 0 ? position - 1 : instances.count + position
            if index >= 0 && index < instances.count { picked.insert(index) }
        }
        return picked.sorted().map { instances[$0] }
    }

    /// The weeks of one year under a week start: week 1 is the first with four of its days in the year.
    struct WeekNumbers {
        let firstWeek: Int, nextFirstWeek: Int, previousFirstWeek: Int
        let weekStart: Weekday

        init(year: Int, weekStart: Weekday) {
            self.weekStart = weekStart
            firstWeek = Self.weekOne(year, weekStart)
            nextFirstWeek = Self.weekOne(year + 1, weekStart)
            previousFirstWeek = Self.weekOne(year - 1, weekStart)
        }

        static func weekOne(_ year: Int, _ weekStart: Weekday) -> Int {
            let january1 = CivilDate.clamped(year: year, month: 1, day: 1)
            let offset = (january1.weekday.isoNumber - weekStart.isoNumber + 7) % 7
            return offset <= 3 ? january1.dayNumber - offset : january1.dayNumber + 7 - offset
        }

        /// Whether the day's week (of this year, the last of the year before, or the first of the
        /// next) is one of `numbers` (negative ones counted from the end of that week's year).
        func matches(_ day: Int, _ numbers: [Int]) -> Bool {
            let (n, weeks): (Int, Int)
            if day < firstWeek {
                (n, weeks) = ((day - previousFirstWeek) / 7 + 1, (firstWeek - previousFirstWeek) / 7)
            } else if day >= nextFirstWeek {
                (n, weeks) = (1, (Self.weekOne(CivilDate(dayNumber: nextFirstWeek + 7).year + 1, weekStart) - nextFirstWeek) / 7)
            } else {
                (n, weeks) = ((day - firstWeek) / 7 + 1, (nextFirstWeek - firstWeek) / 7)
            }
            return numbers.contains(n) || numbers.contains(n - weeks - 1)
        }
    }
}
