/// Which definitions can have an occurrence on the dates a plan's slice asks for: found a run of
/// dates at a time by one pass over all the definitions, so that a slice visits only those.
///
/// A plan of many definitions is cut into many short slices; when each slice walked every
/// definition's schedule over its dates, a plan's work grew with the definitions times the
/// slices (a month of 100,000 todos: 31 walks of all of them). Here all of them are walked once
/// per run of dates (a run holds some hundred thousand occurrences at most, so its memory is
/// bounded too), and a slice's merge (`OccurrenceMerge.forEachInPlace(…visiting:)`) visits the
/// definitions this finds, in the same order: the same occurrences, the same plan.
public struct OccurrenceIndex: Sendable {
    private let definitions: [ItemDefinition]
    private let defaultAnchor: CivilDate
    /// Undated todos: their rows may be on any date, so every slice visits them.
    private let undated: [Int32]
    /// How many dates one pass covers.
    private let runDays: Int32
    /// The runs found and still wanted: each run's first date, and per date the definitions with
    /// an occurrence there, in ascending order.
    private var runs: [(first: Int32, days: [[Int32]])] = []
    /// Scratch marks, one bit per definition, cleared after each use.
    private var marks: [UInt64]

    /// `defaultAnchor` is the merge's: where a schedule with no anchor of its own counts from.
    public init(_ definitions: [ItemDefinition], defaultAnchor: CivilDate, occurrencesPerRun: Double = 200_000) {
        self.definitions = definitions
        self.defaultAnchor = defaultAnchor
        var undated: [Int32] = []
        var perDay = 0.0
        for (index, definition) in definitions.enumerated() {
            if let schedule = definition.schedule {
                perDay += schedule.mostPerDay
            } else if definition.date == nil {
                undated.append(Int32(index))
            }
        }
        self.undated = undated
        runDays = Int32(max(1, min(64, occurrencesPerRun / max(perDay, 1))))
        marks = Array(repeating: 0, count: definitions.count / 64 + 1)
    }

    /// The indices (ascending, among the definitions given) of those with an occurrence in
    /// `range`, undated todos among them. Runs before the range's first date are let go: ranges
    /// asked for in order (as a plan's slices are) are each found once.
    public mutating func visiting(_ range: ClosedRange<CivilDate>) -> [Int32] {
        let (low, high) = (range.lowerBound.number, range.upperBound.number)
        if let first = runs.first, low < first.first { runs.removeAll() }
        runs.removeAll { $0.first + Int32($0.days.count) <= low }
        var next = runs.last.map { $0.first + Int32($0.days.count) } ?? low
        while next <= high {
            runs.append((next, run(from: next)))
            next += runDays
        }
        var found = 0
        for run in runs {
            for (offset, day) in run.days.enumerated() where (low...high).contains(run.first + Int32(offset)) {
                for index in day {
                    let (word, bit) = (Int(index) >> 6, UInt64(1) << UInt64(index & 63))
                    if marks[word] & bit == 0 {
                        marks[word] |= bit
                        found += 1
                    }
                }
            }
        }
        for index in undated where marks[Int(index) >> 6] & (UInt64(1) << UInt64(index & 63)) == 0 {
            marks[Int(index) >> 6] |= UInt64(1) << UInt64(index & 63)
            found += 1
        }
        var result: [Int32] = []
        result.reserveCapacity(found)
        for word in marks.indices where marks[word] != 0 {
            var bits = marks[word]
            while bits != 0 {
                result.append(Int32(word << 6 + bits.trailingZeroBitCount))
                bits &= bits - 1
            }
            marks[word] = 0
        }
        return result
    }

    /// One pass over every definition: the dated ones with an occurrence on each of `runDays`
    /// dates from `first`.
    private func run(from first: Int32) -> [[Int32]] {
        let dates = CivilDate(dayNumber: Int(first))...CivilDate(dayNumber: Int(first + runDays - 1))
        var days = Array(repeating: [Int32](), count: Int(runDays))
        definitions.withUnsafeBufferPointer { definitions in
            for index in definitions.indices {
                let definition = definitions.baseAddress! + index
                if let schedule = definition.pointee.schedule {
                    schedule.forEachOccurrence(in: dates, defaultAnchor: definition.pointee.date ?? defaultAnchor) { date in
                        days[Int(date.number - first)].append(Int32(index))
                        return true
                    }
                } else if let date = definition.pointee.date, dates.contains(date) {
                    days[Int(date.number - first)].append(Int32(index))
                }
            }
        }
        return days
    }
}
