import DawnletTestSupport

@testable import DawnletCore

/// Random valid schedules, spread over every rule and option, anchored between 2000 and 2039.
enum RandomSchedules {
    static let firstDay = date("2000-01-01")
    static let lastDay = date("2039-12-31")

    static func make(_ rng: inout SeededRandom) -> Schedule {
        let interval =
            Int.random(in: 0..<4, using: &rng) == 0
            ? Int.random(in: 1...30, using: &rng)
            : Int.random(in: 1...4, using: &rng)
        let rule: Schedule.Rule
        switch Int.random(in: 0..<3, using: &rng) {
        case 0:
            var days: WeekdaySet? = WeekdaySet(rawValue: UInt8.random(in: 1...127, using: &rng))
            if Int.random(in: 0..<6, using: &rng) == 0 { days = nil }
            rule = .weekly(interval: interval, days: days)
        case 1:
            let day: Int? =
                Int.random(in: 0..<6, using: &rng) == 0
                ? nil
                : (Bool.random(using: &rng) ? Int.random(in: 26...31, using: &rng) : Int.random(in: 1...31, using: &rng))
            rule = .monthlyOnDay(interval: Bool.random(using: &rng) ? interval : [1, 12][Int.random(in: 0...1, using: &rng)], day: day)
        default:
            let ordinal: Schedule.Ordinal = Int.random(in: 0..<6, using: &rng) == 0 ? .last : .nth(Int.random(in: 1...5, using: &rng))
            rule = .monthlyOnWeekday(
                interval: interval, ordinal: ordinal,
                weekday: Weekday(rawValue: Int.random(in: 1...7, using: &rng))!)
        }
        let anchor: CivilDate? = Int.random(in: 0..<4, using: &rng) == 0 ? nil : randomDate(&rng)
        let time: WallTime? =
            Bool.random(using: &rng)
            ? nil
            : WallTime(hour: Int.random(in: 0...23, using: &rng), minute: Int.random(in: 0...59, using: &rng))
        return Schedule(rule: rule, anchor: anchor, time: time)
    }

    static func randomDate(_ rng: inout SeededRandom) -> CivilDate {
        CivilDate(dayNumber: Int.random(in: firstDay.dayNumber...lastDay.dayNumber, using: &rng))
    }

    /// A range of up to about three years inside the table, sometimes before the anchor.
    static func randomRange(_ rng: inout SeededRandom) -> ClosedRange<CivilDate> {
        let start = randomDate(&rng)
        let length = Int.random(in: 0...1100, using: &rng)
        return start...CivilDate(dayNumber: min(start.dayNumber + length, lastDay.dayNumber))
    }
}
