import Foundation

@testable import DawnletCore

/// A deliberately naive second implementation of the Schedule: it walks every day of the range and
/// asks whether that one day matches, reading year, month, day and weekday from Foundation's
/// Gregorian calendar instead of the engine's integer arithmetic. Slow, obvious, independent.
struct NaiveScheduleMatcher {
    struct Day { let year: Int; let month: Int; let day: Int; let isoWeekday: Int; let lastDayOfMonth: Int }

    /// Calendar facts for every day from `first`, computed once with Foundation.
    private let table: [Day]
    private let first: CivilDate

    init(from first: CivilDate, through last: CivilDate) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let (y, m, d) = (first.year, first.month, first.day)
        var cursor = calendar.date(from: DateComponents(year: y, month: m, day: d, hour: 12))!
        var days: [Day] = []
        for _ in first.dayNumber...last.dayNumber {
            let c = calendar.dateComponents([.year, .month, .day, .weekday], from: cursor)
            let monthRange = calendar.range(of: .day, in: .month, for: cursor)!
            // Foundation numbers weekdays Sunday = 1.
            let iso = (c.weekday! + 5) % 7 + 1
            days.append(Day(year: c.year!, month: c.month!, day: c.day!, isoWeekday: iso, lastDayOfMonth: monthRange.count))
            cursor = calendar.date(byAdding: .day, value: 1, to: cursor)!
        }
        self.table = days
        self.first = first
    }

    func day(_ index: Int) -> Day { table[index] }

    /// Every date in `range` for which `matches` holds, one day at a time.
    func occurrences(of schedule: Schedule, in range: ClosedRange<CivilDate>, defaultAnchor: CivilDate) -> [CivilDate] {
        let anchor = schedule.anchor ?? defaultAnchor
        var result: [CivilDate] = []
        var index = range.lowerBound.dayNumber - first.dayNumber
        while index <= range.upperBound.dayNumber - first.dayNumber {
            if index >= anchor.dayNumber - first.dayNumber, matches(schedule.rule, index, anchor: anchor) {
                result.append(CivilDate(dayNumber: first.dayNumber + index))
            }
            index += 1
        }
        return result
    }

    private func matches(_ rule: Schedule.Rule, _ index: Int, anchor: CivilDate) -> Bool {
        let today = table[index]
        let anchorIndex = anchor.dayNumber - first.dayNumber
        let anchorDay = table[anchorIndex]
        switch rule {
        case .weekly(let interval, let days):
            let weekdayOK =
                days.map { set in set.contains(where: { $0.isoNumber == today.isoWeekday }) }
                ?? (today.isoWeekday == anchorDay.isoWeekday)
            let anchorMonday = anchorIndex - (anchorDay.isoWeekday - 1)
            let monday = index - (today.isoWeekday - 1)
            return weekdayOK && ((monday - anchorMonday) / 7) % interval == 0
        case .monthlyOnDay(let interval, let day):
            let wanted = min(day ?? anchorDay.day, today.lastDayOfMonth)
            return today.day == wanted && monthsBetween(anchorDay, today) % interval == 0
        case .monthlyOnWeekday(let interval, let ordinal, let weekday):
            guard today.isoWeekday == weekday.isoNumber, monthsBetween(anchorDay, today) % interval == 0 else { return false }
            switch ordinal {
            case .nth(let n): return (today.day - 1) / 7 + 1 == n
            case .last: return today.day + 7 > today.lastDayOfMonth
            }
        }
    }

    private func monthsBetween(_ a: Day, _ b: Day) -> Int { (b.year - a.year) * 12 + (b.month - a.month) }
}
