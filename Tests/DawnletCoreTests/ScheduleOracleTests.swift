import DawnletTestSupport
import Testing

@testable import DawnletCore

/// The fast generator against the naive day-by-day matcher, on thousands of random schedules and
/// ranges: any disagreement is a wrong answer in one of them.
@Suite struct ScheduleOracleTests {
    static let oracle = NaiveScheduleMatcher(from: RandomSchedules.firstDay, through: RandomSchedules.lastDay)

    @Test("fast generator == naive matcher", arguments: [1, 2, 3, 4] as [UInt64])
    func agreesWithNaiveMatcher(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        var compared = 0
        for _ in 0..<1500 {
            let s = RandomSchedules.make(&rng)
            let range = RandomSchedules.randomRange(&rng)
            let fallback = Bool.random(using: &rng) ? range.lowerBound : RandomSchedules.randomDate(&rng)
            let fast = s.occurrences(in: range, defaultAnchor: fallback)
            let naive = Self.oracle.occurrences(of: s, in: range, defaultAnchor: fallback)
            #expect(fast == naive, "\(s) in \(range.lowerBound)...\(range.upperBound) default anchor \(fallback)")
            compared += naive.count
            for day in [range.lowerBound, range.upperBound] {
                #expect(s.matches(day, defaultAnchor: fallback) == naive.contains(day))
            }
            if let first = naive.first {
                #expect(s.nextOccurrence(onOrAfter: range.lowerBound, defaultAnchor: fallback) == first)
            }
        }
        #expect(compared > 20_000, "the random cases must produce real occurrences to compare")
    }
}
