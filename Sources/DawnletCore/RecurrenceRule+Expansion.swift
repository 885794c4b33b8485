extension RecurrenceRule {
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
        } else if frequency == .yearly && byDay.isEmpty && byYearDay.isEmpty && byMonthDay.isEmpty {
            // BYWEEKNO alone names weeks, not days: the day is DTSTART's weekday, as what a rule
            // does not say comes from DTSTART (RFC 5545 §3.8.5.3).
            byDay = [WeekdayEntry(ordinal: 0, weekday: start.date.weekday)]
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
        case .yearly:
            guard weekYears else { return c.year }
            let day = t.date.dayNumber
            if day >= WeekNumbers.weekOne(c.year + 1, weekStart) { return c.year + 1 }
            return day < WeekNumbers.weekOne(c.year, weekStart) ? c.year - 1 : c.year
        case .monthly: return c.year * 12 + c.month - 1
        case .weekly: return (weekStartDay(t.date.dayNumber) - weekAnchor) / 7
        case .daily: return t.date.dayNumber
        case .hourly: return t.date.dayNumber * 24 + t.hour
        case .minutely: return t.date.dayNumber * 1440 + t.secondsOfDay / 60
        case .secondly: return t.date.dayNumber * 86_400 + t.secondsOfDay
        }
    }

    /// A yearly rule with BYWEEKNO counts its years as week-years (from the first day of week 1
    /// to the next one's): INTERVAL=3 from a DTSTART in week 1 of 2025 (2024-12-31) is next in
    /// week 1 of 2028, not of 2027.
    var weekYears: Bool { frequency == .yearly && !byWeekNo.isEmpty }

    /// A day number that begins a week under WKST (weeks are counted from it; the value is
    /// a multiple of 7 away from every week start).
    var weekAnchor: Int { CivilDate(year: 1970, month: 1, day: 5)!.dayNumber + weekStart.isoNumber - 1 - 7_000_000 }

    func weekStartDay(_ day: Int) -> Int { day - (day - weekAnchor) % 7 }

    /// The day number the period begins on; nil past year 9999.
    func firstDay(of period: Int) -> Int? {
        let day: Int?
        switch frequency {
        case .yearly:
            guard CivilDate.supportedYears.contains(period) else { return nil }
            day = weekYears ? WeekNumbers.weekOne(period, weekStart) : CivilDate(year: period, month: 1, day: 1)?.dayNumber
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
        case .yearly:
            span = weekYears ? WeekNumbers.weekOne(period + 1, weekStart) - first : CivilDate.isLeapYear(period) ? 366 : 365
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
