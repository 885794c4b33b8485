import DawnletTestSupport
import Testing

@testable import DawnletCore

/// The rules of definitions and occurrences (virtual and stored, skipped, overdue), on the merge.
@Suite struct OccurrenceMergeTests {
    static let bins = ItemDefinition(
        kind: .todo, id: 1, title: "Take out bins",
        schedule: Schedule(rule: .weekly(interval: 1, days: WeekdaySet([.tuesday])), anchor: date("2026-11-03")))
    static let rent = ItemDefinition(kind: .todo, id: 2, title: "Pay rent", date: date("2026-11-25"))
    static let standup = ItemDefinition(
        kind: .event, id: 1, title: "Standup", time: WallTime("09:30"),
        schedule: Schedule(rule: .weekly(interval: 1, days: .workdays), anchor: date("2026-11-02")))

    func row(
        _ id: Int64, _ kind: ItemKind, _ definition: Int64, _ day: String, _ status: OccurrenceStatus,
        title: String? = nil, time: String? = nil
    ) -> StoredOccurrence {
        StoredOccurrence(
            rowID: id, kind: kind, definitionID: definition, date: date(day), status: status,
            title: title, time: time.flatMap(WallTime.init))
    }

    @Test("skip this Tuesday and the series carries on")
    func skipOneInstance() {
        let stored = [row(7, .todo, 1, "2026-12-01", .skipped)]
        let merged = OccurrenceMerge.occurrences(of: [Self.bins], stored: stored, in: date("2026-11-24")...date("2026-12-15"))
        #expect(merged.map(\.date) == dates("2026-11-24", "2026-12-01", "2026-12-08", "2026-12-15"))
        #expect(merged.map(\.status) == [.open, .skipped, .open, .open])
        #expect(merged.map(\.source) == [.virtual, .stored, .virtual, .virtual])
        #expect(merged[1].rowID == 7)
    }

    @Test("regeneration never brings a skipped instance back, and never doubles it")
    func regenerationIsIdempotent() {
        let stored = [row(7, .todo, 1, "2026-12-01", .skipped)]
        for _ in 0..<3 {
            let merged = OccurrenceMerge.occurrences(of: [Self.bins], stored: stored, in: date("2026-12-01")...date("2026-12-01"))
            #expect(merged.count == 1)
            #expect(merged.first?.status == .skipped)
        }
    }

    @Test("editing one instance leaves the series alone; editing the series leaves edited instances alone")
    func edits() {
        let stored = [row(3, .event, 1, "2026-12-02", .open, title: "Standup (moved)", time: "10:00")]
        var series = Self.standup
        series.title = "Daily standup"
        series.time = WallTime("09:00")
        let merged = OccurrenceMerge.occurrences(of: [series], stored: stored, in: date("2026-12-01")...date("2026-12-03"))
        #expect(merged.map(\.title) == ["Daily standup", "Standup (moved)", "Daily standup"])
        #expect(merged.map { $0.time?.description } == ["09:00", "10:00", "09:00"])
    }

    @Test("a stored row on a date the schedule no longer produces is history: it produces nothing")
    func orphanRowIsHistory() {
        let stored = [row(9, .todo, 1, "2026-12-03", .done), row(10, .todo, 1, "2026-12-01", .skipped)]
        let merged = OccurrenceMerge.occurrences(of: [Self.bins], stored: stored, in: date("2026-11-30")...date("2026-12-06"))
        #expect(merged.map(\.date) == dates("2026-12-01"))
        #expect(merged.map(\.status) == [.skipped], "the row of a date it still produces is kept")
    }

    @Test("rows of other definitions, kinds, or outside the range are ignored")
    func ignoresForeignRows() {
        let stored = [
            row(1, .event, 1, "2026-12-01", .skipped), row(2, .todo, 99, "2026-12-01", .done),
            row(3, .todo, 1, "2026-12-08", .skipped),
        ]
        let merged = OccurrenceMerge.occurrences(of: [Self.bins], stored: stored, in: date("2026-12-01")...date("2026-12-01"))
        #expect(merged.map(\.status) == [.open])
    }

    @Test("an overdue one-off stays on today, marked; a missed repeating instance does not pile up")
    func overdue() {
        let today = date("2026-12-02")
        let items = OccurrenceMerge.day(today, definitions: [Self.bins, Self.rent], stored: [])
        // Tuesday 2026-12-01's bins were missed: nothing of them shows on Wednesday.
        #expect(items.count == 1)
        #expect(items.first?.definition.id == 2)
        #expect(items.first?.overdue == true)
        // Done: gone from later days.
        let done = OccurrenceMerge.day(today, definitions: [Self.rent], stored: [row(4, .todo, 2, "2026-11-25", .done)])
        #expect(done.isEmpty)
        // On its own due date it is not overdue.
        let onTheDay = OccurrenceMerge.day(date("2026-11-25"), definitions: [Self.rent], stored: [])
        #expect(onTheDay.map(\.overdue) == [false])
        // Before its due date it is not on today.
        #expect(OccurrenceMerge.day(date("2026-11-24"), definitions: [Self.rent], stored: []).isEmpty)
    }

    @Test("an undated todo stays on today until done, and shows done on the day it was done")
    func undated() {
        let todo = ItemDefinition(kind: .todo, id: 5, title: "Read book")
        #expect(OccurrenceMerge.day(date("2026-12-02"), definitions: [todo], stored: []).map(\.status) == [.open])
        let doneRow = row(1, .todo, 5, "2026-12-02", .done)
        #expect(OccurrenceMerge.day(date("2026-12-02"), definitions: [todo], stored: [doneRow]).map(\.status) == [.done])
        #expect(OccurrenceMerge.day(date("2026-12-03"), definitions: [todo], stored: [doneRow]).isEmpty)
    }

    @Test("the day is ordered: timed items by time, then the rest")
    func dayOrder() {
        let call = ItemDefinition(kind: .todo, id: 3, title: "Call", time: WallTime("18:00"), date: date("2026-12-01"))
        let items = OccurrenceMerge.day(date("2026-12-01"), definitions: [Self.bins, Self.rent, call, Self.standup], stored: [])
        #expect(items.map(\.title) == ["Standup", "Call", "Take out bins", "Pay rent"])
    }
}

@Suite struct MoneyRulesTests {
    static let rent = RecurringTransaction(
        id: 1, name: "Rent", amount: Amount(minorUnits: -95_000),
        schedule: Schedule(rule: .monthlyOnDay(interval: 1, day: 1), anchor: date("2026-01-01")),
        created: date("2026-01-01"))
    static let stream = RecurringTransaction(
        id: 2, name: "Stream", amount: Amount(minorUnits: -1299),
        schedule: Schedule(rule: .monthlyOnDay(interval: 1, day: 31), anchor: nil),
        created: date("2026-01-15"))

    @Test("a month needs a row for each (definition, date) without one, skipped rows counting as one")
    func missing() throws {
        let feb = try #require(YearMonth("2026-02"))
        let due = MoneyRules.missing(in: feb, definitions: [Self.rent, Self.stream], existing: [])
        #expect(due.map { "\($0.definition.id) \($0.date)" } == ["1 2026-02-01", "2 2026-02-28"])
        let skipped = Transaction(id: 1, definitionID: 2, date: date("2026-02-28"), name: "Stream", amount: Self.stream.amount, status: .skipped)
        #expect(MoneyRules.missing(in: feb, definitions: [Self.rent, Self.stream], existing: [skipped]).map(\.definition.id) == [1])
        // Before the anchor (created 2026-01-15, day 31): January's 31st is after it, so it counts.
        let jan = try #require(YearMonth("2026-01"))
        #expect(MoneyRules.missing(in: jan, definitions: [Self.stream], existing: []).map(\.date) == [date("2026-01-31")])
    }

    @Test("totals exclude skipped rows")
    func total() {
        let rows = [
            Transaction(id: 1, definitionID: 1, date: date("2026-02-01"), name: "Rent", amount: Amount(minorUnits: -95_000), status: .posted),
            Transaction(id: 2, definitionID: 2, date: date("2026-02-28"), name: "Stream", amount: Amount(minorUnits: -1299), status: .skipped),
            Transaction(id: 3, definitionID: nil, date: date("2026-02-10"), name: "Pay", amount: Amount(minorUnits: 250_000), status: .posted),
        ]
        #expect(MoneyRules.total(rows) == Total(minorUnits: 155_000))
    }

    @Test(
        "amounts parse and print as decimals",
        arguments: [
            ("-12.50", "-12.50"), ("12", "12.00"), ("+0.5", "0.50"), ("0.05", "0.05"), ("-0", "0.00"),
            ("1234567890123.45", "1234567890123.45"), ("10000000000000", "10000000000000.00"),
        ])
    func amounts(_ text: String, _ printed: String) {
        #expect(Amount(text)?.description == printed)
    }

    @Test("not amounts", arguments: ["", "-", "12.", ".5", "12.505", "1e3", "12,50", "abc", "--1", " 1", "10000000000000.01", "99999999999999"])
    func notAmounts(_ text: String) {
        #expect(Amount(text) == nil)
    }

    @Test("reminder offsets")
    func offsets() {
        #expect(ReminderOffset.list("0m,10m,2h,1d,1w") == [.minutes(0), .minutes(10), .hours(2), .days(1), .weeks(1)])
        #expect(ReminderOffset.list("") == [])
        // The byte parser against the plain one (split on commas, each part an offset), on
        // random texts of the characters that matter.
        func plain(_ text: String) -> [ReminderOffset]? {
            if text.isEmpty { return [] }
            var result: [ReminderOffset] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let offset = ReminderOffset(String(part)) else { return nil }
                result.append(offset)
            }
            return result
        }
        var rng = SeededRandom(seed: 5)
        let alphabet = Array("0123456789mhdw,x é")
        var accepted = 0
        for _ in 0..<20_000 {
            let text = String(
                (0..<Int.random(in: 1...12, using: &rng)).map { _ in
                    Int.random(in: 0..<4, using: &rng) == 0 ? alphabet.randomElement(using: &rng)! : "0123456789mhdw,".randomElement(using: &rng)!
                })
            #expect(ReminderOffset.list(text) == plain(text), "\(text)")
            if plain(text) != nil { accepted += 1 }
        }
        #expect(accepted > 500, "too few valid lists to compare: \(accepted)")
        for bad in ["10", "m", "-5m", "1y", "10m,", "1.5h", "999d"] { #expect(ReminderOffset(bad) == nil, "\(bad)") }
        #expect(ReminderOffset.text([.hours(2), .days(1)]) == "2h,1d")
    }
}

/// A month of the largest amounts a person may type sums exactly (Int64 overflowed and
/// crashed every later `money month`).
@Suite struct MoneyTotalTests {
    @Test("9,300 rows of the largest amount, in and out, sum exactly")
    func largestAmounts() {
        let day = date("2026-12-01")
        let rows = (0..<9_300).map { i in
            Transaction(id: Int64(i), definitionID: 1, date: day, name: "b", amount: Amount(minorUnits: Amount.limit), status: .posted)
        }
        #expect(MoneyRules.total(rows).description == "93000000000000000.00")
        let negative = rows.map { Transaction(id: $0.id, definitionID: 1, date: day, name: "b", amount: Amount(minorUnits: -Amount.limit), status: .posted) }
        #expect(MoneyRules.total(negative).description == "-93000000000000000.00")
        #expect(MoneyRules.total(rows + negative).description == "0.00")
    }
}
