import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletCore
@testable import DawnletStore

/// The organizer's cases on a real database file: definitions apart from occurrences.
@Suite struct StoreModuleTests {
    let folder: TemporaryFolder
    let store: Store
    let today = date("2026-11-30")

    init() throws {
        folder = try TemporaryFolder()
        store = try Store(path: folder.path("dawnlet.sqlite"))
    }

    func weeklyTuesday() throws -> Int64 {
        try store.items.addItem(kind: .todo, title: "Bins", date: nil, time: nil, schedule: try schedule("weekly on tue"), today: today)
    }

    func merged(_ from: String, _ to: String) throws -> [Occurrence] {
        let range = date(from)...date(to)
        return OccurrenceMerge.occurrences(of: try store.items.definitions(), stored: try store.items.storedOccurrences(in: range), in: range)
    }

    @Test("a schedule without an anchor is stored with its anchor made explicit")
    func anchorStored() throws {
        let id = try weeklyTuesday()
        #expect(try store.items.definition(.todo, id: id).schedule?.description == "weekly on tue from 2026-11-30")
    }

    @Test("skip this Tuesday: the series carries on, and the skip survives regeneration")
    func skip() throws {
        let id = try weeklyTuesday()
        try store.items.setOccurrence(.todo, definitionID: id, date: date("2026-12-01"), status: .skipped)
        for _ in 0..<2 {
            let items = try merged("2026-12-01", "2026-12-15")
            #expect(items.map(\.status) == [.skipped, .open, .open])
        }
        #expect(try store.items.storedOccurrences(in: date("2026-12-01")...date("2026-12-15")).count == 1)
    }

    @Test("deleting the series is not skipping: nothing of it remains")
    func deleteSeries() throws {
        let id = try weeklyTuesday()
        let other = try weeklyTuesday()
        try store.items.setOccurrence(.todo, definitionID: id, date: date("2026-12-01"), status: .done)
        try store.items.delete(.todo, id: id)
        #expect(try merged("2026-12-01", "2026-12-08").map(\.definition.id) == [other, other])
        #expect(try store.db.query("SELECT count(*) FROM todo_occurrences") { $0.int(0) } == [0])
        #expect { try store.items.delete(.todo, id: id) } throws: { ($0 as? StoreError)?.code == .notFound }
    }

    @Test("editing one instance leaves the series alone, and editing the series leaves the instance alone")
    func edits() throws {
        let id = try store.items.addItem(
            kind: .event, title: "Standup", date: date("2026-11-30"), time: WallTime("09:30"),
            schedule: try schedule("weekdays"), today: today)
        try store.items.setOccurrence(.event, definitionID: id, date: date("2026-12-01"), status: nil, title: nil, time: WallTime("11:00"))
        #expect(try merged("2026-11-30", "2026-12-02").map { $0.time?.description } == ["09:30", "11:00", "09:30"])
        var series = try store.items.definition(.event, id: id)
        series.title = "Daily"
        series.time = WallTime("09:00")
        try store.items.replaceDefinition(series)
        let items = try merged("2026-11-30", "2026-12-02")
        #expect(items.map { $0.time?.description } == ["09:00", "11:00", "09:00"])
        #expect(items.map(\.title) == ["Daily", "Daily", "Daily"])
        // Skipping an edited instance keeps its edit.
        try store.items.setOccurrence(.event, definitionID: id, date: date("2026-12-01"), status: .skipped)
        #expect(try merged("2026-12-01", "2026-12-01").map { "\($0.status) \($0.time!)" } == ["skipped 11:00"])
    }

    @Test("a stored time, date or schedule this version cannot read is corrupt, never silently dropped")
    func unreadableRows() throws {
        let id = try store.items.addItem(kind: .todo, title: "Water", date: nil, time: nil, schedule: try schedule("daily"), today: today)
        try store.items.setOccurrence(.todo, definitionID: id, date: today, status: .done)
        try store.db.run("UPDATE todo_occurrences SET time = '25:99'")
        #expect { try store.items.storedOccurrences(in: today...today) } throws: {
            ($0 as? StoreError)?.code == .corrupt && ($0 as? StoreError)?.message == "todo occurrence 1 cannot be read"
        }
        try store.db.run("UPDATE todo_occurrences SET time = NULL")
        try store.db.run("UPDATE todos SET due_time = 'noon'")
        #expect { try store.items.definitions([.todo]) } throws: { ($0 as? StoreError)?.message == "todo 1 has a time this version cannot read" }
    }

    @Test("habit entries: done and skipped per day")
    func habits() throws {
        let id = try store.items.addItem(
            kind: .habit, title: "Run", date: nil, time: WallTime("07:00"),
            schedule: Schedule(rule: .weekly(interval: 1, days: WeekdaySet([.monday, .wednesday, .friday])), anchor: today),
            today: today)
        try store.items.setOccurrence(.habit, definitionID: id, date: date("2026-12-02"), status: .done)
        try store.items.setOccurrence(.habit, definitionID: id, date: date("2026-12-04"), status: .skipped)
        #expect(try merged("2026-11-30", "2026-12-06").map(\.status) == [.open, .done, .skipped])
    }

    @Test("an overdue one-off stays on today while a missed repeating instance does not pile up")
    func overdue() throws {
        _ = try weeklyTuesday()
        let rent = try store.items.addItem(kind: .todo, title: "Rent", date: date("2026-11-25"), time: nil, schedule: nil, today: today)
        let day = date("2026-12-09")
        let items = OccurrenceMerge.day(
            day, definitions: try store.items.definitions(),
            stored: try store.items.storedOccurrences(in: day...day) + store.items.oneOffTodoRows())
        #expect(items.map(\.definition.id) == [rent])
        #expect(items.first?.overdue == true)
        try store.items.setOccurrence(.todo, definitionID: rent, date: date("2026-11-25"), status: .done)
        #expect(
            OccurrenceMerge.day(
                day, definitions: try store.items.definitions(),
                stored: try store.items.storedOccurrences(in: day...day) + store.items.oneOffTodoRows()
            ).isEmpty)
    }

    @Test("materialising a month twice creates nothing new; skipped rows stay skipped and out of the total")
    func money() throws {
        let rent = try store.money.addRecurringTransaction(
            name: "Rent", amount: Amount(minorUnits: -95_000),
            schedule: try schedule("monthly on day 1 from 2026-01-01"), today: today)
        let stream = try store.money.addRecurringTransaction(
            name: "Stream", amount: Amount(minorUnits: -1299),
            schedule: try schedule("monthly on day 31 from 2026-01-01"), today: today)
        let feb = try #require(YearMonth("2026-02"))
        try store.money.skipTransaction(definitionID: stream, date: date("2026-02-28"))
        let first = try store.money.loadMonth(feb)
        let second = try store.money.loadMonth(feb)
        #expect(first == second)
        #expect(first.map { "\($0.date) \($0.definitionID!) \($0.status)" } == ["2026-02-01 \(rent) posted", "2026-02-28 \(stream) skipped"])
        #expect(MoneyRules.total(second) == Total(minorUnits: -95_000))
        #expect(try store.db.query("SELECT count(*) FROM transactions") { $0.int(0) } == [2])
        // Deleting the definition keeps past rows as history, drops the rest.
        _ = try store.money.loadMonth(try #require(YearMonth("2026-12")))
        try store.money.deleteRecurringTransaction(id: rent, today: today)
        #expect(try store.money.transactions(in: date("2026-02-01")...date("2026-02-01")).map(\.definitionID) == [nil])
        #expect(try store.money.transactions(in: date("2026-12-01")...date("2026-12-31")).map(\.name) == ["Stream"])
    }
}
