/// The one recurrence shape of every repeating thing: weekly with an interval
/// and weekdays, monthly by date (clamped), or monthly by nth/last weekday; an optional anchor the
/// pattern counts from; an optional last date (`until`); an optional wall-clock time.
///
/// Not in the shape, on purpose: hourly, every N days, end-after-N, full RRULE.
///
/// Policies, each with the dates it produces:
/// - **Anchor.** Nothing falls before the anchor; the anchor itself is an occurrence only if it matches.
///   `every 2 weeks on mon from 2026-01-07` (a Wednesday) yields 2026-01-19, 2026-02-02, …: intervals
///   count from the Monday-started week holding the anchor (RFC 5545 WKST=MO), so Monday 2026-01-05,
///   before the anchor, is dropped and its fortnight still counts.
/// - **Monthly intervals** count from the anchor's month: `every 3 months on day 15 from 2026-02-20`
///   yields 2026-05-15, 2026-08-15, … (February's 15th is before the anchor).
/// - **Clamping.** `monthly on day 31` yields Jan 31, Feb 28 (Feb 29 in a leap year), Mar 31, Apr 30:
///   one occurrence every month, on its last day when the month is shorter.
/// - **Missing nth weekday.** `monthly on 5th fri` yields nothing in a month with four Fridays.
/// - **Omitted day.** `monthly`, `every 3 months` and `yearly` take the day of month from the anchor
///   (clamped like any other day); `weekly` and `every 2 weeks` without `on` take the anchor's weekday.
///   `yearly` from 2024-02-29 yields 2025-02-28, 2026-02-28, 2027-02-28, 2028-02-29.
public struct Schedule: Hashable, Sendable {
    public enum Ordinal: Hashable, Sendable {
        /// 1st … 5th.
        case nth(Int)
        case last
    }

    public enum Rule: Hashable, Sendable {
        /// Every `interval` weeks on `days`; nil means the anchor's weekday.
        case weekly(interval: Int, days: WeekdaySet?)
        /// Every `interval` months on day `day` (1–31, clamped); nil means the anchor's day of month.
        case monthlyOnDay(interval: Int, day: Int?)
        /// Every `interval` months on the nth (or last) `weekday` of the month.
        case monthlyOnWeekday(interval: Int, ordinal: Ordinal, weekday: Weekday)
    }

    /// The most occurrences a day this pattern has, on average over its period: what a plan
    /// sizes its slices by (daily: 1; weekly on two days: 2/7; monthly: 1/28).
    public var mostPerDay: Double {
        switch rule {
        case .weekly(let interval, let days): Double(days?.count ?? 1) / Double(7 * interval)
        case .monthlyOnDay(let interval, _), .monthlyOnWeekday(let interval, _, _): 1 / Double(28 * interval)
        }
    }

    /// Intervals a user may type. Larger ones are refused rather than silently accepted.
    public static let intervalLimit = 1...999

    public var rule: Rule
    /// The first day the pattern may produce, and the origin its intervals count from.
    public var anchor: CivilDate?
    /// The last day the pattern may produce (it is an occurrence only if it matches); nil: no end.
    public var until: CivilDate?
    /// A wall-clock time in the configured zone; nil for a date-only schedule.
    public var time: WallTime?

    public init(rule: Rule, anchor: CivilDate? = nil, until: CivilDate? = nil, time: WallTime? = nil) {
        switch rule {
        case .weekly(let interval, let days):
            precondition(Schedule.intervalLimit.contains(interval) && days?.isEmpty != true, "\(rule)")
        case .monthlyOnDay(let interval, let day):
            precondition(Schedule.intervalLimit.contains(interval) && (day.map { (1...31).contains($0) } ?? true), "\(rule)")
        case .monthlyOnWeekday(let interval, let ordinal, _):
            if case .nth(let n) = ordinal { precondition((1...5).contains(n), "\(rule)") }
            precondition(Schedule.intervalLimit.contains(interval), "\(rule)")
        }
        self.rule = rule
        self.anchor = anchor
        self.until = until
        self.time = time
    }
}

// MARK: - Occurrences

extension Schedule {
    /// The occurrences inside `range` (inclusive), in order. `defaultAnchor` stands in for a missing
    /// anchor (the CLI passes `--from`; stored definitions pass their creation date).
    public func occurrences(in range: ClosedRange<CivilDate>, defaultAnchor: CivilDate) -> [CivilDate] {
        var result: [CivilDate] = []
        forEachOccurrence(in: range, defaultAnchor: defaultAnchor) {
            result.append($0); return true
        }
        return result
    }

    /// Whether `date` is an occurrence.
    public func matches(_ date: CivilDate, defaultAnchor: CivilDate) -> Bool {
        var found = false
        forEachOccurrence(in: date...date, defaultAnchor: defaultAnchor) { _ in
            found = true; return false
        }
        return found
    }

    /// How far `nextOccurrence` looks before deciding there is none: 400 years, one full Gregorian
    /// cycle, after which any calendar pattern repeats.
    public static let searchLimitDays = 146_097

    /// The first occurrence on or after `date`, or nil if none falls within `searchLimitDays`
    /// (a `yearly` on Feb 30 cannot exist, but `every 12 months on 5th fri` can be decades apart).
    public func nextOccurrence(onOrAfter date: CivilDate, defaultAnchor: CivilDate) -> CivilDate? {
        var found: CivilDate?
        forEachOccurrence(in: date...date.adding(days: Schedule.searchLimitDays), defaultAnchor: defaultAnchor) {
            found = $0
            return false
        }
        return found
    }

    /// The last occurrence on or before `date`, or nil if there is none after the anchor (within
    /// `searchLimitDays`). Searches back a window at a time.
    public func lastOccurrence(onOrBefore date: CivilDate, defaultAnchor: CivilDate) -> CivilDate? {
        let anchor = self.anchor ?? defaultAnchor
        var upper = date
        while upper >= anchor && date.dayNumber - upper.dayNumber < Schedule.searchLimitDays {
            let lower = max(anchor, upper.adding(days: -400))
            var last: CivilDate?
            forEachOccurrence(in: lower...upper, defaultAnchor: anchor) {
                last = $0; return true
            }
            if let last { return last }
            upper = lower.adding(days: -1)
        }
        return nil
    }

    /// Calls `body` with each occurrence in `range` in order until it returns false.
    ///
    /// Generation jumps straight to each candidate with integer arithmetic: to the first eligible week
    /// or month at or after the range start, then by whole intervals. It never walks day by day, and
    /// it ends when the candidate passes the range end, so it is bounded by the range.
    public func forEachOccurrence(
        in range: ClosedRange<CivilDate>, defaultAnchor: CivilDate, _ body: (CivilDate) -> Bool
    ) {
        let anchor = self.anchor ?? defaultAnchor
        let start = max(range.lowerBound, anchor).dayNumber
        let end = min(range.upperBound, until ?? range.upperBound).dayNumber
        guard start <= end else { return }

        switch rule {
        case .weekly(let interval, let days):
            let mask = (days ?? WeekdaySet([anchor.weekday])).rawValue
            let anchorMonday = anchor.mondayOfWeek.dayNumber
            var monday = CivilDate(dayNumber: start).mondayOfWeek.dayNumber
            let offset = ((monday - anchorMonday) / 7) % interval
            if offset != 0 { monday += (interval - offset) * 7 }
            while monday <= end {
                var bits = mask
                while bits != 0 {
                    let day = monday + bits.trailingZeroBitCount
                    bits &= bits - 1
                    if day < start { continue }
                    if day > end { return }
                    if !body(CivilDate(dayNumber: day)) { return }
                }
                monday += 7 * interval
            }

        case .monthlyOnDay(let interval, let dayOfMonth):
            let day = dayOfMonth ?? anchor.day
            forEachEligibleMonth(interval: interval, anchor: anchor, start: start, end: end) { year, month in
                let last = CivilDate.daysInMonth(year: year, month: month)
                return CivilDate.days(year: year, month: month, day: min(day, last))
            } body: {
                body($0)
            }

        case .monthlyOnWeekday(let interval, let ordinal, let weekday):
            let target = weekday.isoNumber
            forEachEligibleMonth(interval: interval, anchor: anchor, start: start, end: end) { year, month in
                let first = CivilDate.days(year: year, month: month, day: 1)
                let length = CivilDate.daysInMonth(year: year, month: month)
                switch ordinal {
                case .nth(let n):
                    let firstMatch = first + (target - isoWeekday(first) + 7) % 7
                    let day = firstMatch + 7 * (n - 1)
                    return day < first + length ? day : nil
                case .last:
                    let lastDay = first + length - 1
                    return lastDay - (isoWeekday(lastDay) - target + 7) % 7
                }
            } body: {
                body($0)
            }
        }
    }

    /// Visits the months `interval` apart from the anchor's month that can hold a date in
    /// [start, end]; `candidate` gives each month's day number (nil: none that month).
    @inline(__always)
    private func forEachEligibleMonth(
        interval: Int, anchor: CivilDate, start: Int, end: Int,
        candidate: (_ year: Int, _ month: Int) -> Int?, body: (CivilDate) -> Bool
    ) {
        let anchorMonth = anchor.monthIndex
        var monthIndex = CivilDate(dayNumber: start).monthIndex
        let lastMonth = CivilDate(dayNumber: end).monthIndex
        let offset = (monthIndex - anchorMonth) % interval
        if offset != 0 { monthIndex += interval - offset }
        while monthIndex <= lastMonth {
            let (year, month) = CivilDate.firstOfMonth(index: monthIndex)
            if let day = candidate(year, month), day >= start {
                if day > end { return }
                if !body(CivilDate(dayNumber: day)) { return }
            }
            monthIndex += interval
        }
    }
}

/// ISO weekday number (Monday 1) of a day number.
@inline(__always)
func isoWeekday(_ dayNumber: Int) -> Int {
    // (dayNumber + 3) mod 7 is 0 for Monday; Swift's % keeps the sign, hence the correction.
    let r = (dayNumber + 3) % 7
    return (r < 0 ? r + 7 : r) + 1
}
