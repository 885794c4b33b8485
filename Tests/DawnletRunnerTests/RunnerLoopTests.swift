import DawnletCore
import DawnletRunner
import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletStore

/// Channels that record what the runner hands them and end each delivery when the test says.
final class FakeChannels: DeliveryChannels {
    struct Handed {
        let message: ReminderMessage
        let channel: Channel
        let done: (DeliveryOutcome) -> Void
    }
    private(set) var handed: [Handed] = []
    private var ended = Set<Int>()
    /// Called after each hand-over.
    var onHand: () -> Void = {}

    func deliver(_ message: ReminderMessage, through channel: Channel, replacing: UInt32?, done: @escaping (DeliveryOutcome) -> Void) {
        handed.append(Handed(message: message, channel: channel, done: done))
        onHand()
    }

    /// Ends delivery `index` (once).
    func end(_ index: Int, _ outcome: DeliveryOutcome = DeliveryOutcome(state: .delivered, detail: nil)) {
        precondition(ended.insert(index).inserted, "delivery \(index) ended twice")
        handed[index].done(outcome)
    }

    var keys: [String] { handed.map(\.message.key.description) }
}

/// The runner without real time: a test scheduler, fake channels, a real database in a temporary
/// folder. The test moves time, and the scheduler fires the runner's timers as they fall due.
@Suite struct RunnerLoopTests {
    let folder: TemporaryFolder
    let store: Store
    let channels = FakeChannels()
    let scheduler = TestScheduler(now: Instant(secondsSinceEpoch: 0))
    let runner: Runner
    let berlin = Zone.named("Europe/Berlin")
    let today = date("2026-12-01")

    init() throws {
        folder = try TemporaryFolder()
        store = try Self.store(in: folder)
        runner = try Self.runner(in: folder, scheduler, channels)
    }

    /// The tests' database, begun before their clock (made now, it would begin after their 2026-12-01).
    static func store(in folder: TemporaryFolder) throws -> Store {
        let store = try Store(path: folder.path("dawnlet.sqlite"))
        try store.db.run("UPDATE settings SET value = '0' WHERE key = 'created'")
        return store
    }

    /// A runner on that database: Berlin, a 12 h grace window, the tests' clock and channels.
    static func runner(in folder: TemporaryFolder, _ scheduler: TestScheduler, _ channels: FakeChannels) throws -> Runner {
        var config = Config()
        config.graceWindow = .seconds(12 * 3_600)
        return try Runner(
            Runner.Settings(databasePath: folder.path("dawnlet.sqlite"), config: config, zone: .named("Europe/Berlin")), scheduler: scheduler,
            channels: channels, log: { _ in })
    }

    /// Where the delivery log has a reminder's key (any channel), or nil.
    static func state(_ key: String, in store: Store) throws -> Delivery.State? {
        for state in [Delivery.State.delivered, .failed, .missed, .claimed] where try store.log.deliveries(state).contains(where: { $0.key.description == key })
        {
            return state
        }
        return nil
    }

    func at(_ text: String) -> Instant { ISO8601.parse(text, zone: berlin)! }

    @discardableResult
    func todo(_ title: String, _ time: String, on day: String = "2026-12-01") throws -> Int64 {
        try store.items.addItem(kind: .todo, title: title, date: date(day), time: WallTime(time), schedule: nil, today: today)
    }

    /// Moves time to the instant the wake timer is armed for, firing what falls due on the way.
    func fireTimer() {
        scheduler.advance(to: runner.nextWake!)
    }

    func state(_ key: String) throws -> Delivery.State? { try Self.state(key, in: store) }

    @Test("sleeps until the reminder's instant, fires it on time, records it, and sleeps until the next")
    func fires() throws {
        try todo("Call", "09:00")
        try todo("Walk", "09:30")
        scheduler.setWallClock(to: at("2026-12-01T08:59:30"))
        runner.start()
        #expect(channels.handed.isEmpty)
        #expect(runner.nextWake == at("2026-12-01T09:00"))
        fireTimer()
        #expect(channels.keys == ["todo:1:2026-12-01:0m"])
        #expect(channels.handed[0].message.late == false)
        #expect(try state("todo:1:2026-12-01:0m") == .claimed)
        channels.end(0)
        #expect(try state("todo:1:2026-12-01:0m") == .delivered)
        #expect(runner.nextWake == at("2026-12-01T09:30"))
        // Woken early (a spurious wake-up): nothing goes out again.
        runner.timerFired()
        #expect(channels.handed.count == 1)
    }

    @Test("a plan past its budget ends just before the first reminder it leaves out; the timer re-plans there, and that one fires")
    func planBudget() throws {
        var config = Config()
        config.graceWindow = .seconds(12 * 3_600)
        var settings = Runner.Settings(databasePath: folder.path("dawnlet.sqlite"), config: config, zone: berlin)
        settings.planBudget = 2
        let budgeted = try Runner(settings, scheduler: scheduler, channels: channels, log: { _ in })
        // Events (a todo left open would join the next morning's digest as overdue): 10 minutes ahead.
        for day in ["2026-12-03", "2026-12-04", "2026-12-05"] {
            try store.items.addItem(kind: .event, title: "On \(day)", date: date(day), time: WallTime("09:00"), schedule: nil, today: today)
        }
        scheduler.setWallClock(to: at("2026-12-01T08:00:30"))
        budgeted.start()
        #expect(budgeted.nextWake == at("2026-12-03T08:50"))
        func fire() {
            scheduler.advance(to: budgeted.nextWake!)
        }
        fire()
        channels.end(0)
        #expect(budgeted.nextWake == at("2026-12-04T08:50"))
        fire()
        channels.end(1)
        // The plan held two: it ends a second before the third, and the timer plans again there.
        #expect(budgeted.nextWake == at("2026-12-05T08:49:59"))
        fire()
        #expect(channels.handed.count == 2)
        #expect(budgeted.nextWake == at("2026-12-05T08:50"))
        fire()
        #expect(channels.keys == ["event:1:2026-12-03:10m", "event:2:2026-12-04:10m", "event:3:2026-12-05:10m"])
    }

    @Test("two reminders at one instant go out together, before either has ended")
    func simultaneous() throws {
        try todo("A", "09:00")
        try todo("B", "09:00")
        scheduler.setWallClock(to: at("2026-12-01T08:00:30"))
        runner.start()
        _ = channels.handed.count  // the 08:00 digest holds nothing: these have times
        fireTimer()
        #expect(channels.keys == ["todo:1:2026-12-01:0m", "todo:2:2026-12-01:0m"])
    }

    @Test("started late: due within the grace window goes out marked late; more than three as one summary")
    func lateAndSummary() throws {
        for minute in 0..<5 { try todo("Task \(minute)", "08:0\(minute)") }
        try todo("Later", "10:00")
        scheduler.setWallClock(to: at("2026-12-01T08:30"))
        runner.start()
        #expect(channels.keys == ["summary:todo:1:2026-12-01:0m,todo:2:2026-12-01:0m,todo:3:2026-12-01:0m,todo:4:2026-12-01:0m,todo:5:2026-12-01:0m"])
        #expect(channels.handed[0].message.late)
        channels.end(0)
        for id in 1...5 { #expect(try state("todo:\(id):2026-12-01:0m") == .delivered) }
        #expect(try store.log.deliveries(.delivered).allSatisfy { $0.detail == "in one summary of 5" })
        #expect(runner.nextWake == at("2026-12-01T10:00"))
    }

    @Test("a temporary failure is tried again after 1, 2, 4 and 8 s, then recorded missed (never failed for ever); a permanent one failed at once")
    func retries() throws {
        try todo("Flaky", "09:00")
        try todo("Broken", "09:05")
        scheduler.setWallClock(to: at("2026-12-01T09:00"))
        runner.start()
        var expected = at("2026-12-01T09:00")
        for (attempt, wait) in [1, 2, 4, 8].enumerated() {
            #expect(channels.handed.count == attempt + 1)
            channels.end(attempt, DeliveryOutcome(state: .failed, detail: "exited 1", retry: true))
            expected = expected.adding(seconds: Int64(wait))
            #expect(runner.nextWake == expected, "after failure \(attempt + 1)")
            #expect(try state("todo:1:2026-12-01:0m") == .claimed)
            fireTimer()
        }
        channels.end(4, DeliveryOutcome(state: .failed, detail: "exited 1", retry: true))
        #expect(try state("todo:1:2026-12-01:0m") == .missed)
        #expect(try store.log.deliveries(.missed).first?.detail == "exited 1; gave up after 5 attempts")
        // The log counts them too (it once said 1 after 5).
        #expect(try store.log.deliveries(.missed).first?.attempts == 5)
        #expect(runner.retries.isEmpty)
        #expect(runner.nextWake == at("2026-12-01T09:05"))
        fireTimer()
        channels.end(5, DeliveryOutcome(state: .failed, detail: "550 no such user", retry: false))
        #expect(try state("todo:2:2026-12-01:0m") == .failed)
        #expect(channels.handed.count == 6)
    }

    @Test("a snooze fires the reminder again at its new instant, once")
    func snooze() throws {
        try todo("Call", "09:00")
        scheduler.setWallClock(to: at("2026-12-01T09:00"))
        runner.start()
        channels.end(0)
        let id = DeliveryID(ReminderKey("todo:1:2026-12-01:0m")!, .desktop)
        #expect(try store.log.snooze(id, until: at("2026-12-01T09:10"), from: .button, words: "snoozed until 09:10"))
        runner.replan(reason: .notificationAction)
        #expect(runner.nextWake == at("2026-12-01T09:10"))
        fireTimer()
        #expect(channels.keys == ["todo:1:2026-12-01:0m", "todo:1:2026-12-01:0m"])
        channels.end(1)
        // Next is tomorrow's digest (the todo is still open), and the todo is not sent a third time.
        #expect(runner.nextWake == at("2026-12-02T08:00"))
        fireTimer()
        #expect(channels.keys == ["todo:1:2026-12-01:0m", "todo:1:2026-12-01:0m", "digest:2026-12-02"])
    }

    @Test("done, skipped or deleted while pending: nothing goes out", arguments: ["done", "skip", "delete"])
    func changedWhilePending(change: String) throws {
        let id = try todo("Call", "09:00")
        scheduler.setWallClock(to: at("2026-12-01T08:59"))
        runner.start()
        #expect(runner.nextWake == at("2026-12-01T09:00"))
        switch change {
        case "done": try store.items.setOccurrence(.todo, definitionID: id, date: today, status: .done)
        case "skip": try store.items.setOccurrence(.todo, definitionID: id, date: today, status: .skipped)
        default: try store.items.delete(.todo, id: id)
        }
        // The runner's own connection sees another connection's write as a new data version.
        let other = try Store(path: folder.path("dawnlet.sqlite"))
        _ = try other.items.addItem(kind: .todo, title: "Unrelated", date: nil, time: nil, schedule: nil, today: today)
        scheduler.advance(to: at("2026-12-01T09:00"))
        #expect(channels.handed.isEmpty)
    }

    @Test("the clock jumps past the grace window: what it skipped is recorded missed, never sent")
    func clockJump() throws {
        try todo("Call", "09:00")
        scheduler.setWallClock(to: at("2026-12-01T08:00:30"))
        runner.start()
        scheduler.setWallClock(to: at("2026-12-02T09:00:30"))
        runner.replan(reason: .clockSet)
        // (The day's digest, listing the overdue todo, is inside the grace window: it goes out.)
        #expect(channels.keys == ["digest:2026-12-02"])
        #expect(try state("todo:1:2026-12-01:0m") == .missed)
    }

    @Test("nothing due before the database began is recorded missed; after it, it is")
    func beforeTheDatabase() throws {
        try store.db.run("UPDATE settings SET value = ? WHERE key = 'created'", [.text(String(at("2026-11-30T12:00").secondsSinceEpoch))])
        let late = try Runner(
            Runner.Settings(
                databasePath: folder.path("dawnlet.sqlite"),
                config: {
                    var c = Config(); c.graceWindow = .seconds(3_600); return c
                }(),
                zone: berlin), scheduler: scheduler, channels: channels, log: { _ in })
        _ = try store.items.addItem(
            kind: .todo, title: "Water", date: nil, time: WallTime("09:00"), schedule: Schedule(parsing: "daily from 2026-11-27 at 09:00"),
            today: CivilDate(year: 2026, month: 11, day: 27)!)
        scheduler.setWallClock(to: at("2026-12-02T08:00"))
        late.start()
        #expect(try store.log.deliveries(.missed).map(\.key.description) == ["todo:1:2026-12-01:0m"])
    }

    @Test("the zone changes: the wall time is re-read in the new zone")
    func zoneChange() throws {
        try todo("Call", "09:00")
        scheduler.setWallClock(to: at("2026-12-01T08:00:30"))
        runner.start()
        #expect(runner.nextWake == at("2026-12-01T09:00"))
        runner.zoneChanged(to: Zone.named("America/New_York"))
        #expect(runner.nextWake == ISO8601.parse("2026-12-01T09:00-05:00", zone: berlin))
    }

    @Test("a channel that never answers delays nothing else")
    func hangingChannel() throws {
        try todo("Hangs", "09:00")
        try todo("Next", "09:10")
        scheduler.setWallClock(to: at("2026-12-01T09:00"))
        runner.start()
        #expect(runner.inFlight.count == 1)
        #expect(runner.nextWake == at("2026-12-01T09:10"))
        fireTimer()
        #expect(channels.keys == ["todo:1:2026-12-01:0m", "todo:2:2026-12-01:0m"])
        channels.end(1)
        #expect(try state("todo:2:2026-12-01:0m") == .delivered)
        #expect(try state("todo:1:2026-12-01:0m") == .claimed)
    }

    final class Published: @unchecked Sendable {
        var states: [RunnerState?] = []
    }

    /// A runner on the test clock that publishes the state for `next` into `published`.
    func publishingRunner(_ published: Published) throws -> Runner {
        var config = Config()
        config.graceWindow = .seconds(12 * 3_600)
        var settings = Runner.Settings(databasePath: folder.path("dawnlet.sqlite"), config: config, zone: berlin)
        settings.publish = { [published] state in
            published.states.append(state)
            return nil
        }
        return try Runner(settings, scheduler: scheduler, channels: channels, log: { _ in })
    }

    @Test(
        "the state for next: the next reminder, held until it goes out or midnight; a delivery moves it on; todos overdue from their time, and at midnight, count"
    )
    func publishedState() throws {
        let published = Published()
        let runner = try publishingRunner(published)
        try todo("Tonight", "22:00")
        try store.items.addItem(kind: .todo, title: "Yesterday's", date: date("2026-11-30"), time: nil, schedule: nil, today: today)
        try todo("Tomorrow", "09:00", on: "2026-12-02")
        scheduler.setWallClock(to: at("2026-12-01T21:00"))
        runner.start()
        let first = try #require(published.states.last ?? nil)
        #expect(first.next?.title == "Tonight" && first.validUntil == at("2026-12-01T22:00") && first.overdue == 1, "\(first)")
        #expect(first.files.map(\.path) == [folder.path("dawnlet.sqlite"), folder.path("dawnlet.sqlite") + "-wal"])
        // The same answer a second later is not published again.
        scheduler.setWallClock(to: at("2026-12-01T21:00:01"))
        runner.replan(reason: .other("test"))
        #expect(published.states.count == 1)

        scheduler.advance(to: runner.nextWake!)
        // In flight: not the next any more, and not delivered yet.
        #expect(channels.keys == ["todo:1:2026-12-01:0m"])
        channels.end(0)
        let after = try #require(published.states.last ?? nil)
        // The morning digest at 08:00 is next, but midnight comes first; Tonight is overdue since 22:00.
        #expect(after.next?.kind == .digest && after.validUntil == at("2026-12-02T00:00") && after.overdue == 2, "\(after)")
        // Midnight: the state runs out, and is published again.
        scheduler.advance(to: at("2026-12-02T00:00"))
        let midnight = try #require(published.states.last ?? nil)
        #expect(midnight.overdue == 2 && midnight.validUntil == at("2026-12-02T08:00"), "\(midnight)")
    }
}

extension RunnerLoopTests {
    @Test("serve closes each month at its first decision of the next: the month's money and debts' balances kept once, not rewritten by later edits")
    func closesMonths() throws {
        try store.money.addRecurringTransaction(
            name: "Rent", amount: Amount(minorUnits: -95_000), schedule: try Schedule(parsing: "monthly on day 1 from 2026-10-01"), today: date("2026-10-01"))
        let card = try store.sources.addDebt(
            name: "Card", balance: Amount(minorUnits: 50_000), minimum: Amount(minorUnits: 4_000), day: 3, today: date("2026-10-01"))
        // Paid in December: November's end balance is worked back to before it.
        _ = try store.sources.logPayment(for: .debt, id: card, on: date("2026-12-01"), amount: Amount(minorUnits: 10_000))
        try todo("New year", "09:00", on: "2027-01-01")
        // The database began before November: it saw the month end.
        try store.db.run("UPDATE settings SET value = ? WHERE key = 'created'", [.text(String(at("2026-10-01T00:00").secondsSinceEpoch))])
        var delivered = Set<Int>()
        scheduler.setWallClock(to: at("2026-12-01T00:30"))
        runner.start()
        let november = try #require(try store.sources.snapshot(of: YearMonth("2026-11")!))
        #expect(november.outgoing.description == "-990.00" && november.incoming.description == "0.00", "\(november)")
        #expect(november.debts[card] == Amount(minorUnits: 50_000))
        // Edited afterwards: the snapshot stays as it was.
        try store.db.run("UPDATE transactions SET amount_minor = -120000 WHERE date = '2026-11-01'")
        // Through December's digests and bills to the new year's first reminder.
        while !channels.keys.contains("todo:1:2027-01-01:0m"), let wake = runner.nextWake, wake <= at("2027-01-01T09:00") {
            scheduler.advance(to: wake)
            for i in channels.handed.indices where !delivered.contains(i) {
                delivered.insert(i)
                channels.end(i)
            }
        }
        #expect(channels.keys.contains("todo:1:2027-01-01:0m"))
        #expect(try store.sources.snapshot(of: YearMonth("2026-11")!) == november)
        let december = try #require(try store.sources.snapshot(of: YearMonth("2026-12")!))
        #expect(december.debts[card] == Amount(minorUnits: 40_000) && december.outgoing.description == "-1050.00", "\(december)")
    }
}
