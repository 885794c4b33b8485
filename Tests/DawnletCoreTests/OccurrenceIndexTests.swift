import DawnletTestSupport
import Testing

@testable import DawnletCore

/// A plan's slices look only at the definitions an `OccurrenceIndex` finds for their dates: the
/// merge over those must be the merge over all of them, occurrence for occurrence and in order.
@Suite struct OccurrenceIndexTests {
    /// Weekly, every few weeks, a day of the month (clamped), the nth or last weekday, with and
    /// without anchors and ends; dated one-offs; undated todos with rows on the days they were marked.
    static func definitions(count: Int, using random: inout SeededRandom) -> [ItemDefinition] {
        let base = CivilDate(year: 2027, month: 1, day: 1)!
        func day(_ spread: Int) -> CivilDate { base.adding(days: Int.random(in: -spread...spread, using: &random)) }
        return (0..<count).map { i in
            let id = Int64(i + 1)
            let anchor = Bool.random(using: &random) ? day(200) : nil
            let until = Int.random(in: 0..<4, using: &random) == 0 ? day(300) : nil
            let rule: Schedule.Rule
            switch Int.random(in: 0..<6, using: &random) {
            case 0:
                let days = WeekdaySet(Weekday.allCases.filter { _ in Int.random(in: 0..<3, using: &random) == 0 })
                rule = .weekly(interval: Int.random(in: 1...3, using: &random), days: days.rawValue == 0 ? nil : days)
            case 1:
                rule = .monthlyOnDay(
                    interval: Int.random(in: 1...2, using: &random), day: Bool.random(using: &random) ? Int.random(in: 1...31, using: &random) : nil)
            case 2:
                let ordinal: Schedule.Ordinal = Bool.random(using: &random) ? .last : .nth(Int.random(in: 1...5, using: &random))
                rule = .monthlyOnWeekday(
                    interval: Int.random(in: 1...3, using: &random), ordinal: ordinal, weekday: Weekday.allCases.randomElement(using: &random)!)
            case 3: return ItemDefinition(kind: .todo, id: id, title: "One-off \(i)", date: day(60))
            case 4: return ItemDefinition(kind: .todo, id: id, title: "Undated \(i)")
            default: rule = .monthlyOnDay(interval: 12, day: nil)
            }
            let kind: ItemKind = Bool.random(using: &random) ? .todo : .event
            return ItemDefinition(kind: kind, id: id, title: "Item \(i)", schedule: Schedule(rule: rule, anchor: anchor, until: until))
        }
    }

    @Test("slices merged over the definitions the index finds are the merge over all of them, for ranges in order, fuzzed")
    func indexAgreesWithTheWholeMerge() {
        var random = SeededRandom(seed: SeededRandom.fuzzSeed(45))
        for round in 0..<20 {
            let definitions = Self.definitions(count: Int.random(in: 1...300, using: &random), using: &random)
            let anchor = CivilDate(year: 2027, month: 1, day: 1)!.adding(days: Int.random(in: -30...30, using: &random))
            // Rows on some occurrences' dates, on dates no schedule makes, and of undated todos.
            let stored = (0..<Int.random(in: 0...60, using: &random)).map { n in
                let definition = definitions.randomElement(using: &random)!
                return StoredOccurrence(
                    rowID: Int64(n + 1), kind: definition.kind, definitionID: definition.id,
                    date: anchor.adding(days: Int.random(in: 0...120, using: &random)), status: Bool.random(using: &random) ? .done : .skipped)
            }
            // A small run makes the slices cross runs: a range wider than a run, and runs let go.
            var index = OccurrenceIndex(definitions, defaultAnchor: anchor, occurrencesPerRun: Double.random(in: 1...400, using: &random))
            var first = anchor.adding(days: Int.random(in: -5...5, using: &random))
            for _ in 0..<12 {
                let range = first...first.adding(days: Int.random(in: 0...20, using: &random))
                var all: [String] = [], visited: [String] = []
                OccurrenceMerge.forEachInPlace(of: definitions, stored: stored, in: range, defaultAnchor: anchor) { i, _, date, row in
                    all.append("\(i) \(date) \(row?.pointee.rowID ?? 0)")
                }
                let visiting = index.visiting(range)
                #expect(visiting == visiting.sorted() && Set(visiting).count == visiting.count)
                OccurrenceMerge.forEachInPlace(of: definitions, stored: stored, in: range, defaultAnchor: anchor, visiting: visiting) { i, _, date, row in
                    visited.append("\(i) \(date) \(row?.pointee.rowID ?? 0)")
                }
                #expect(visited == all, "round \(round), \(range)")
                // Only what has something there, or may (an undated todo's row), is visited.
                #expect(visiting.count <= definitions.count)
                first = first.adding(days: Int.random(in: 0...10, using: &random))
            }
        }
    }

    @Test("a definition is visited only on the dates it has an occurrence")
    func visitsOnlyWhatOccurs() {
        let tuesdays = ItemDefinition(
            kind: .todo, id: 1, title: "Bins", schedule: Schedule(rule: .weekly(interval: 1, days: WeekdaySet([.tuesday])), anchor: date("2027-01-05")))
        let rent = ItemDefinition(kind: .todo, id: 2, title: "Rent", date: date("2027-01-08"))
        let undated = ItemDefinition(kind: .todo, id: 3, title: "Read")
        var index = OccurrenceIndex([tuesdays, rent, undated], defaultAnchor: date("2027-01-01"))
        #expect(index.visiting(date("2027-01-06")...date("2027-01-07")) == [2])
        #expect(index.visiting(date("2027-01-08")...date("2027-01-11")) == [1, 2])
        #expect(index.visiting(date("2027-01-12")...date("2027-01-12")) == [0, 2])
        // Asked again from an earlier date: found again, not taken from what was let go.
        #expect(index.visiting(date("2027-01-05")...date("2027-01-05")) == [0, 2])
    }
}
