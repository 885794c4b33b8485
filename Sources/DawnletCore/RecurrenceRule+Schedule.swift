/// An RRULE read back into our one schedule shape (`Schedule`), where it fits exactly: the
/// inverse of `Schedule.rrule(anchor:)` (`CalendarExport.swift`), which writes every schedule
/// in a form read here. What does not fit is refused with the reason, never approximated.
extension RecurrenceRule {
    /// The schedule that gives the same days as this rule from `start` (its DTSTART's day, an
    /// occurrence of it), its UNTIL or COUNT as the schedule's last day; `time` is the series'
    /// time, against which a DATE-TIME UNTIL is weighed, in `zone`.
    public func schedule(start: CivilDate, time: WallTime?, zone: Zone) -> Result<Schedule, ItemImport.Problem> {
        func refuse(_ why: String) -> Result<Schedule, ItemImport.Problem> { .failure(ItemImport.Problem(why)) }
        for (name, list) in [("BYSECOND", bySecond), ("BYMINUTE", byMinute), ("BYHOUR", byHour), ("BYYEARDAY", byYearDay), ("BYWEEKNO", byWeekNo)]
        where !list.isEmpty {
            return refuse("it repeats by \(name), which dawnlet's schedules do not keep")
        }
        if skip != .omit { return refuse("it moves missing days (SKIP), which dawnlet's schedules do not") }
        let rule: Schedule.Rule
        switch frequency {
        case .secondly, .minutely, .hourly:
            return refuse("it repeats \(frequency.name.lowercased()), more often than daily")
        case .daily, .weekly:
            guard byMonthDay.isEmpty, byMonth.isEmpty, bySetPos.isEmpty, byDay.allSatisfy({ $0.ordinal == 0 }) else {
                return refuse("it repeats \(frequency.name.lowercased()) only on some days of the month or year")
            }
            let days = byDay.isEmpty ? nil : WeekdaySet(byDay.map(\.weekday))
            if frequency == .daily {
                guard interval == 1 else { return refuse("it repeats every \(interval) days, which is no weekly or monthly pattern") }
                rule = .weekly(interval: 1, days: days ?? .all)
            } else {
                guard Schedule.intervalLimit.contains(interval) else { return refuse("it repeats every \(interval) weeks") }
                if interval > 1, weekStart != .monday, (days?.count ?? 1) > 1 {
                    return refuse("its weeks start on \(weekStart.icalCode), and dawnlet counts every \(interval) weeks from Mondays")
                }
                rule = .weekly(interval: interval, days: days)
            }
        case .monthly, .yearly:
            let months = frequency == .yearly ? interval * 12 : interval
            guard Schedule.intervalLimit.contains(months) else { return refuse("it repeats every \(months) months") }
            if frequency == .monthly, !byMonth.isEmpty { return refuse("it repeats only in some months (BYMONTH)") }
            if frequency == .yearly, !byMonth.isEmpty, byMonth != [start.month] { return refuse("it repeats in other months than its first") }
            if frequency == .yearly, !byDay.isEmpty, byMonth.isEmpty { return refuse("it repeats on a weekday of the year, not of a month") }
            if !byDay.isEmpty {
                guard byMonthDay.isEmpty, byDay.count == 1, byDay[0].ordinal == 0 || bySetPos.isEmpty, bySetPos.count <= 1 else {
                    return refuse("it repeats on several weekdays of a month")
                }
                let n = byDay[0].ordinal != 0 ? byDay[0].ordinal : bySetPos.first ?? 0
                let ordinal: Schedule.Ordinal
                switch n {
                case 1...5: ordinal = .nth(n)
                case -1: ordinal = .last
                case 0: return refuse("it repeats on every \(byDay[0].weekday.icalCode) of a month")
                default: return refuse("it repeats on the \(-n)th \(byDay[0].weekday.icalCode) from a month's end")
                }
                rule = .monthlyOnWeekday(interval: months, ordinal: ordinal, weekday: byDay[0].weekday)
            } else {
                // Our monthly day is clamped to a shorter month's last day; RFC 5545 leaves that
                // month out. The same days only when no month it falls in is shorter, or when the
                // rule says the clamp itself (the last day, or `Schedule.rrule`'s BYSETPOS form).
                let day: Int
                var clamped = false
                if byMonthDay.isEmpty, bySetPos.isEmpty {
                    day = start.day
                } else if byMonthDay == [-1], bySetPos.isEmpty {
                    (day, clamped) = (31, true)
                } else if byMonthDay.count == 1, byMonthDay[0] > 0, bySetPos.isEmpty {
                    day = byMonthDay[0]
                } else if let last = byMonthDay.last, last > 28, byMonthDay == Array(28...last), bySetPos == [-1] {
                    (day, clamped) = (last, true)
                } else {
                    return refuse("it repeats on several days of a month")
                }
                var shortest = 31
                for k in 0..<12 {
                    let month = (start.month - 1 + k * months) % 12 + 1
                    shortest = min(shortest, CivilDate.daysInMonth(year: 2001, month: month))
                }
                if !clamped, day > shortest {
                    return refuse("it repeats on day \(day), which some of its months lack (dawnlet's take their last day instead)")
                }
                rule = .monthlyOnDay(interval: months, day: day)
            }
        }
        var schedule = Schedule(rule: rule, anchor: start)
        guard schedule.matches(start, defaultAnchor: start) else {
            return refuse("its start, \(start), is not one of its own repeats")
        }
        if let count {
            var seen = 0
            var last: CivilDate?
            schedule.forEachOccurrence(in: start...start.adding(days: Schedule.searchLimitDays), defaultAnchor: start) { date in
                seen += 1
                last = date
                return seen < count
            }
            schedule.until = last
        } else if let until {
            let end: (date: CivilDate, time: WallTime?)
            switch until {
            case .date(let date): end = (date, nil)
            case .local(let wall): end = (wall.date, WallTime(hour: wall.hour, minute: wall.minute))
            case .utc(let at):
                let (date, seconds) = ISO8601.localDate(of: at, in: zone)
                end = (date, WallTime(hour: seconds / 3600, minute: seconds / 60 % 60))
            }
            // A last instant before the series' time that day ends it the day before.
            schedule.until = time.map { time in end.time.map { $0 < time } ?? false } == true ? end.date.adding(days: -1) : end.date
            if let last = schedule.until, last < start { return refuse("it ends (\(last)) before it starts") }
        }
        return .success(schedule)
    }
}
