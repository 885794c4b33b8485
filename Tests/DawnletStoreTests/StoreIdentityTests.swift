import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletCore
@testable import DawnletStore

/// An id names one item for ever: never reused after a delete, in every table
/// a reminder key, a delivery row, an export UID or a person can name.
@Suite struct StoreIdentityTests {
    let today = CivilDate(year: 2026, month: 12, day: 1)!
    let monthly = Schedule(rule: .monthlyOnDay(interval: 1, day: 5), anchor: nil, time: nil)

    /// Each table, through the store's own add, and a raw delete (not every kind has a delete command yet).
    func adders(_ store: Store) -> [(table: String, add: () throws -> Int64)] {
        [
            ("todos", { try store.items.addItem(kind: .todo, title: "t", date: today, time: nil, schedule: nil, today: today) }),
            ("events", { try store.items.addItem(kind: .event, title: "e", date: today, time: nil, schedule: nil, today: today) }),
            (
                "habits",
                {
                    try store.items.addItem(
                        kind: .habit, title: "h", date: nil, time: nil, schedule: Schedule(rule: .weekly(interval: 1, days: nil)), today: today)
                }
            ),
            (
                "recurring_transactions",
                { try store.money.addRecurringTransaction(name: "b", amount: Amount(minorUnits: 100), schedule: monthly, today: today) }
            ),
            ("subscriptions", { try store.sources.addSubscription(name: "s", amount: Amount(minorUnits: 100), schedule: monthly, today: today) }),
            ("debts", { try store.sources.addDebt(name: "d", balance: Amount(minorUnits: 1000), minimum: Amount(minorUnits: 100), day: 5, today: today) }),
            ("goals", { try store.sources.addGoal(name: "g", target: Amount(minorUnits: 100), by: nil, today: today) }),
            ("income_sources", { try store.sources.addIncome(name: "i", amount: Amount(minorUnits: 100), schedule: monthly, today: today) }),
        ]
    }

    @Test("deleting the newest item and adding another gives a new id, in every table")
    func neverReused() throws {
        let folder = try TemporaryFolder()
        let store = try Store(path: folder.path("d.sqlite"))
        for (table, add) in adders(store) {
            #expect(try add() == 1, "\(table)")
            #expect(try add() == 2, "\(table)")
            try store.db.run("DELETE FROM \(table) WHERE id = 2")
            #expect(try add() == 3, "\(table): id 2 was reused")
        }
        // Payments: logged, deleted, logged again.
        func log(_ day: Int) throws -> Int64 {
            try store.sources.logPayment(
                kind: .subscription, sourceID: 1, date: CivilDate(year: 2026, month: 12, day: day)!, amount: Amount(minorUnits: 100),
                periodStart: CivilDate(year: 2026, month: 12, day: day)!, periodText: "December"
            ).id
        }
        #expect(try log(5) == 1)
        try store.db.run("DELETE FROM payments WHERE id = 1")
        #expect(try log(6) == 2)
    }

    @Test("migrating keeps every id and row, and starts each sequence past what the delivery log has seen")
    func migrationKeepsIDs() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("d.sqlite")
        FileManager.default.createFile(atPath: path, contents: nil)
        do {
            let old = try Connection(path: path, busyTimeout: .milliseconds(100))
            for sql in Migrations.all.prefix(5) { try old.execute(sql) }
            try old.execute(
                """
                PRAGMA user_version = 5; PRAGMA foreign_keys = ON;
                INSERT INTO todos (id, title, reminders, created) VALUES (1, 'one', '', '2026-01-01'), (4, 'four', '', '2026-01-01');
                INSERT INTO todo_occurrences (definition_id, date, status) VALUES (4, '2026-12-01', 'done');
                INSERT INTO recurring_transactions (id, name, amount_minor, schedule, created) VALUES (2, 'rent', 100, 'monthly on day 1', '2026-01-01');
                INSERT INTO transactions (definition_id, date, name, amount_minor, status) VALUES (2, '2026-12-01', 'rent', 100, 'posted');
                INSERT INTO deliveries (key, channel, state, kind, title, fire_at, claimed_at)
                    VALUES ('todo:9:2026-11-30:0m', 'desktop', 'delivered', 'todo', 'gone', 0, 0),
                           ('todo:10:2026-11-30:0m', 'desktop', 'delivered', 'todo', 'gone too', 0, 0),
                           ('event:3:2026-11-30:10m', 'desktop', 'delivered', 'event', 'gone', 0, 0),
                           ('digest:2026-11-30', 'desktop', 'delivered', 'digest', 'x', 0, 0);
                """)
        }
        let store = try Store(path: path)
        #expect(try store.items.definitions([.todo]).map(\.id) == [1, 4])
        // The rebuilt parent table cascaded nothing: occurrences and transactions keep their definitions.
        #expect(try store.db.query("SELECT definition_id FROM todo_occurrences") { $0.int(0) } == [4])
        #expect(try store.db.query("SELECT definition_id FROM transactions") { $0.int(0) } == [2])
        #expect(try store.db.query("PRAGMA foreign_keys") { $0.int(0) } == [1])
        #expect(try store.items.addItem(kind: .todo, title: "new", date: nil, time: nil, schedule: nil, today: today) == 11)
        #expect(try store.items.addItem(kind: .event, title: "new", date: today, time: nil, schedule: nil, today: today) == 4)
        #expect(try store.money.addRecurringTransaction(name: "new", amount: Amount(minorUnits: 1), schedule: monthly, today: today) == 3)
        #expect(try store.sources.addGoal(name: "new", target: Amount(minorUnits: 1), by: nil, today: today) == 1)
    }
}
