import DawnletStore
import DawnletSystem
import Foundation
import Testing

@testable import DawnletCore
@testable import DawnletRunner

/// Plays the shell for the core, without a loop, a store or a channel: each request is answered
/// at once (a plan with the reminders given, claims owned, outcomes written) unless the test says
/// it fails, and every effect is kept in order.
final class CoreDriver {
    var core: RunnerCore
    var now: Instant
    var reminders: [PlannedReminder] = []
    var dataVersion: Int64 = 1
    private(set) var effects: [RunnerEffect] = []
    private(set) var tickets: [Ticket] = []
    private(set) var written: [(DeliveryID, Delivery.State)] = []
    private(set) var claimed: [DeliveryID] = []
    /// The next this many plans, claims and writes of an outcome fail.
    var failPlans = 0
    var failClaims = 0
    var failWrites = 0
    /// The channel ends each delivery while it is handed over, so.
    var answerAtOnce: DeliveryOutcome?
    /// Until when a state published holds (nil: none is published); whether an export sync
    /// changes the store; the next this many closes of a month fail.
    var publishedUntil: Instant?
    var exportChangesStore = false
    /// Whether a file of the export fails at `.syncExport`.
    var exportFails = false
    var failMonthCloses = 0
    /// Why the clock watch cannot be armed again (nil: it can).
    var clockWatchFailure: String?

    init(now: Instant, settings: Runner.Settings? = nil, databaseBegan: Instant? = nil) {
        self.now = now
        var config = Config()
        config.graceWindow = .seconds(12 * 3_600)
        core = RunnerCore(settings: settings ?? Runner.Settings(databasePath: "/db", config: config, zone: .utc), databaseBegan: databaseBegan)
    }

    func send(_ event: RunnerEvent) {
        for effect in core.handle(event, now: now) { perform(effect) }
    }

    /// The effects from here on.
    func clear() { effects = [] }

    private func perform(_ effect: RunnerEffect) {
        effects.append(effect)
        switch effect {
        case .plan(let request):
            if failPlans > 0 {
                failPlans -= 1
                return send(.planFailed(request, "database is locked"))
            }
            send(
                .planned(
                    PlanResult(
                        request: request, plan: Plan(reminders: reminders.filter { request.window.contains($0.fireAt) }), ends: request.window.upperBound,
                        version: dataVersion, position: 0)))
        case .readChanges(let request): send(.changesRead(request, .wholePlan))
        case .recordMissed: send(.missedRecorded(failures: [:]))
        case .claim(let claims, _):
            if failClaims > 0 {
                failClaims -= 1
                return send(.claimed(.failure(RunnerFailure("database is locked"))))
            }
            claimed += claims.map(\.id)
            send(.claimed(.success(claims.map { _ in true })))
        case .finish(let id, let state, _, _, _, _):
            if failWrites > 0 {
                failWrites -= 1
                return send(.finishWritten(id, failure: "disk I/O error"))
            }
            written.append((id, state))
            send(.finishWritten(id, failure: nil))
        case .resume: send(.resumed)
        case .publish: send(.published(validUntil: publishedUntil))
        case .checkDatabase: send(.databaseSettled(lost: nil, dataVersion: dataVersion))
        case .reloadConfig: send(.configReloaded)
        case .rearmClockWatch: send(.clockWatchRearmed(failure: clockWatchFailure))
        case .syncExport: send(.exportSynced(storeChanged: exportChangesStore, failed: exportFails))
        case .closeMonth(let today, _):
            let failure: String? = failMonthCloses > 0 ? "database is locked" : nil
            failMonthCloses = max(0, failMonthCloses - 1)
            send(.monthClosed(YearMonth(containing: today), failure: failure))
        case .deliver(let ticket):
            tickets.append(ticket)
            if let answerAtOnce { send(.deliveryFinished(ticket, answerAtOnce)) }
        default: break
        }
    }

    /// Ends delivery `index` as the channel would, later.
    func end(_ index: Int, _ outcome: DeliveryOutcome = DeliveryOutcome(state: .delivered, detail: nil)) {
        send(.deliveryFinished(tickets[index], outcome))
    }

    var wakes: [Instant] { effects.compactMap { if case .arm(.wake, let at) = $0 { at } else { nil } } }
    var publishes: Int { effects.filter { if case .publish = $0 { true } else { false } }.count }
    var memoryReturns: Int { effects.filter { if case .returnFreedMemory = $0 { true } else { false } }.count }
    var statuses: [String] { effects.compactMap { if case .notify(let s) = $0, s.hasPrefix("STATUS=") { String(s.dropFirst(7)) } else { nil } } }
    /// What the shell would log; a plan's cost is 0 here.
    var logs: [String] {
        effects.compactMap {
            switch $0 {
            case .log(let entry): entry.message
            case .planned(let line, let reminders): RunnerCore.plannedLine(line, reminders: reminders, took: .zero)
            default: nil
            }
        }
    }
    var exits: [Int32] { effects.compactMap { if case .exit(let code) = $0 { code } else { nil } } }
    var delivered: [String] { tickets.map(\.message.key.description) }
}

/// The runner's decisions as tables: the core handed events, its effects compared. No loop, no
/// store, no clock: what the world answers is the driver's.
@Suite struct RunnerCoreTests {
    let t0 = Instant(secondsSinceEpoch: 1_796_115_600)  // 2026-12-01T09:00:00+00:00

    func reminder(_ id: Int, at offset: Int64) -> PlannedReminder {
        let date = CivilDate(year: 2026, month: 12, day: 1)!
        let item = PlanItem(kind: .todo, definitionID: Int64(id), date: date, time: WallTime("09:00"), title: "T\(id)", source: .virtual)
        return PlannedReminder(
            key: .item(.todo, id: Int64(id), date: date, offset: .minutes(0)), fireAt: t0.adding(seconds: offset), utcOffset: 0,
            channels: [.desktop], status: .pending, settled: [:], snoozed: false, item: item, offset: .minutes(0), notes: [], items: [],
            overdueCount: 0, occurrenceDate: date)
    }

    func driver(_ offsets: [Int64], now offset: Int64) -> CoreDriver {
        let driver = CoreDriver(now: t0.adding(seconds: offset))
        driver.reminders = offsets.enumerated().map { reminder($0.offset + 1, at: $0.element) }
        return driver
    }

    @Test("on time: nothing goes out before its instant; at it, one claim and one hand-over, then the wake armed for the next")
    func onTime() {
        let d = driver([0, 600], now: -30)
        d.send(.start)
        #expect(d.tickets.isEmpty)
        #expect(d.wakes == [t0])
        #expect(d.statuses == ["next: T1 (todo:1:2026-12-01:0m) at 2026-12-01T09:00:00+00:00"])
        #expect(d.logs == ["planned (start): next: T1 (todo:1:2026-12-01:0m) at 2026-12-01T09:00:00+00:00 (2 reminders in 0.0 ms)"])
        d.now = t0
        d.clear()
        d.send(.wake(dataVersion: 1))
        #expect(d.delivered == ["todo:1:2026-12-01:0m"])
        #expect(d.claimed.map(\.description) == ["todo:1:2026-12-01:0m@desktop"])
        #expect(d.wakes == [t0.adding(seconds: 600)])
        #expect(d.core.inFlight.count == 1)
        #expect(d.memoryReturns == 0, "not while a delivery is in flight")
        d.clear()
        d.end(0)
        #expect(d.written.map { "\($0.0) \($0.1)" } == ["todo:1:2026-12-01:0m@desktop delivered"])
        #expect(d.core.inFlight.isEmpty && d.core.unwritten.isEmpty)
        #expect(d.memoryReturns == 1, "freed memory goes back once the burst is over")
    }

    @Test("a channel that ends each delivery while it is handed over: the round decides again, then arms, tells and publishes once")
    func answeredAtOnce() {
        let d = driver([0, 0, 600], now: 0)
        d.answerAtOnce = DeliveryOutcome(state: .delivered, detail: nil)
        d.send(.start)
        #expect(d.delivered == ["todo:1:2026-12-01:0m", "todo:2:2026-12-01:0m"])
        #expect(d.wakes == [t0.adding(seconds: 600)])
        #expect(d.publishes == 1)
        #expect(d.written.count == 2)
        #expect(d.claimed.count == 2, "nothing claimed twice")
    }

    @Test("an outcome that cannot be written stays settled: a whole plan does not claim it again, and the next decision writes it")
    func unwrittenOutcome() {
        let d = driver([0, 600], now: 0)
        // The write fails, and so does the decision's try again right after it.
        d.failWrites = 2
        d.send(.start)
        d.end(0)
        #expect(d.written.isEmpty)
        #expect(d.core.unwritten.count == 1)
        #expect(d.logs.contains { $0.hasPrefix("cannot record todo:1:2026-12-01:0m@desktop: disk I/O error; kept") })
        // A whole plan shows it unsettled (the store still says claimed): it is not claimed again.
        d.now = t0.adding(seconds: 1)
        d.send(.replan(reason: .notificationAction))
        #expect(d.claimed.count == 1)
        #expect(d.tickets.count == 1)
        #expect(d.written.map(\.0.description) == ["todo:1:2026-12-01:0m@desktop"])
        #expect(d.core.unwritten.isEmpty)
    }

    @Test("a claim that cannot be written hands nothing over, and the wake is a second away; then it goes out once")
    func claimFails() {
        let d = driver([0], now: 0)
        d.failClaims = 1
        d.send(.start)
        #expect(d.tickets.isEmpty)
        #expect(d.wakes == [t0.adding(seconds: 1)])
        d.now = t0.adding(seconds: 1)
        d.send(.wake(dataVersion: 1))
        #expect(d.delivered == ["todo:1:2026-12-01:0m"])
        #expect(d.tickets[0].message.late == false)
    }

    @Test("a plan that fails is made again at the next wake, even when the database has not changed since")
    func planFails() {
        let d = driver([600], now: 0)
        d.send(.start)
        d.failPlans = 1
        d.dataVersion = 1
        d.clear()
        d.send(.replan(reason: .calendarFilesChanged))
        #expect(d.wakes == [t0.adding(seconds: 5)])
        #expect(d.logs == ["plan failed (calendar files changed): database is locked; retrying in 5 s"])
        d.now = t0.adding(seconds: 5)
        d.clear()
        d.send(.wake(dataVersion: 1))
        #expect(d.logs.first?.hasPrefix("planned (calendar files changed)") == true, "\(d.logs)")
    }

    @Test("SIGTERM with a delivery in flight: STOPPING, nothing new, the bound armed; the last end exits; or the bound kills and exits")
    func stopping() {
        for endsFirst in [true, false] {
            let d = driver([0, 0], now: 0)
            d.send(.start)
            d.clear()
            d.send(.stop(reason: "SIGTERM received", exitCode: 0))
            #expect(d.logs == ["stopping: SIGTERM received; 2 deliveries in flight"])
            #expect(d.effects.contains { if case .armAfter(.shutdownBound, .seconds(15)) = $0 { true } else { false } })
            #expect(d.exits.isEmpty)
            if endsFirst {
                d.end(0)
                #expect(d.exits.isEmpty)
                d.end(1, DeliveryOutcome(state: .failed, detail: "timed out", retry: true))
                #expect(d.exits == [0])
                #expect(d.written.count == 1, "the one that failed stays claimed for the next start")
            } else {
                d.send(.shutdownBoundExpired)
                #expect(d.effects.contains { if case .killChildren = $0 { true } else { false } })
                #expect(d.exits == [0])
            }
            d.clear()
            d.send(.wake(dataVersion: 2))
            d.send(.replan(reason: .sighup))
            #expect(d.effects.isEmpty, "nothing is decided once stopping")
        }
    }

    @Test("the database lost: said, and the runner stops with 1")
    func databaseLost() {
        let d = driver([600], now: 0)
        d.send(.start)
        d.clear()
        d.send(.databaseSettled(lost: "was deleted or moved away", dataVersion: -1))
        #expect(d.logs.first == "database /db was deleted or moved away while serve ran; stopping, so that it starts again on the file now there")
        #expect(d.exits == [1])
    }

    @Test("the wake timer that cannot be armed: a second on the monotonic retry timer; when that cannot be armed either, the runner stops with 1")
    func wakeArmFails() {
        let d = driver([600], now: 0)
        d.send(.armFailed(.wake, "sd_event_source_set_time: Cannot allocate memory"))
        #expect(d.effects.contains { if case .armAfter(.wakeRetry, .seconds(1)) = $0 { true } else { false } })
        d.clear()
        d.send(.armFailed(.wakeRetry, "timerfd_create: Too many open files"))
        #expect(d.logs == ["cannot arm the wake retry timer: timerfd_create: Too many open files", "stopping: no timer can be armed to wake it"])
        #expect(d.exits == [1])
    }

    @Test("a plan owed after a failure is not put off: a round ending meanwhile wakes at the retry, and a write plans whole instead of splicing")
    func planOwedIsKept() {
        let d = driver([0, 3_600], now: 0)
        d.send(.start)
        d.failPlans = 1
        d.send(.replan(reason: .sighup))
        d.clear()
        d.end(0)
        #expect(d.wakes == [t0.adding(seconds: 5)], "not the next reminder's 09:00 + 1 h")
        d.clear()
        d.dataVersion = 2
        d.send(.databaseSettled(lost: nil, dataVersion: 2))
        #expect(d.effects.contains { if case .plan(let request) = $0 { request.reason == .sighup } else { false } }, "\(d.effects)")
        #expect(!d.effects.contains { if case .readChanges = $0 { true } else { false } })
    }

    @Test("an outcome not written is tried again within a second, and once more before the runner exits")
    func unwrittenIsRetriedSoon() {
        let d = driver([0, 3_600], now: 0)
        d.send(.start)
        d.failWrites = 2
        d.end(0)
        #expect(d.core.nextWake == t0.adding(seconds: 1))
        d.send(.stop(reason: "SIGTERM received", exitCode: 0))
        #expect(d.written.map(\.0.description) == ["todo:1:2026-12-01:0m@desktop"])
        #expect(d.exits == [0])
    }

    @Test("due before the database began: settled without a write; after it, recorded missed")
    func beforeTheDatabase() {
        var config = Config()
        config.graceWindow = .seconds(3_600)
        let d = CoreDriver(
            now: t0.adding(seconds: 86_400), settings: Runner.Settings(databasePath: "/db", config: config, zone: .utc),
            databaseBegan: t0.adding(seconds: 1))
        d.reminders = [reminder(1, at: 0), reminder(2, at: 3_600)]
        d.send(.start)
        let recorded = d.effects.compactMap { if case .recordMissed(let missed, _) = $0 { missed.map(\.reminder.key.description) } else { nil } }
        #expect(recorded == [["todo:2:2026-12-01:0m"]])
        #expect(d.tickets.isEmpty)
    }

    @Test(
        "a reminder that nags: once delivered, its item is planned again (the next return); the return is claimed as one and goes out critical; a failed return leaves it delivered; answered elsewhere, the plan has no return and nothing goes out"
    )
    func nagReturns() {
        var config = Config()
        config.graceWindow = .seconds(12 * 3_600)
        config.nag = [.todo: .seconds(300)]
        let d = CoreDriver(now: t0, settings: Runner.Settings(databasePath: "/db", config: config, zone: .utc))
        let first = reminder(1, at: 0)
        d.reminders = [first]
        d.send(.start)
        #expect(d.delivered == ["todo:1:2026-12-01:0m"])
        // What the store and the planner would now say: delivered, back at 09:05.
        var back = reminder(1, at: 300)
        back.repetition = 1
        d.reminders = [back]
        d.clear()
        d.end(0)
        let asked = d.effects.compactMap { if case .readChanges(let request) = $0 { request } else { nil } }
        #expect(asked.map { $0.also.map { "\($0.kind):\($0.id)" } } == [["todo:1"]] && asked.first?.reason == .nag)
        #expect(d.wakes == [t0.adding(seconds: 300)], "one wake, at the return")
        d.now = t0.adding(seconds: 300)
        d.send(.wake(dataVersion: 1))
        #expect(d.delivered.count == 2)
        #expect(d.tickets[1].message.urgency == .critical && d.tickets[1].message.repetition == 1)
        // The return fails for good: recorded delivered still, with why; the item is planned again
        // (the store now says: back at 09:10).
        var again = reminder(1, at: 600)
        again.repetition = 2
        d.reminders = [again]
        d.clear()
        d.end(1, DeliveryOutcome(state: .failed, detail: "no server", retry: false))
        #expect(d.written.map { "\($0.0) \($0.1)" }.last == "todo:1:2026-12-01:0m@desktop delivered")
        #expect(d.effects.contains { if case .readChanges = $0 { true } else { false } })
        #expect(d.delivered.count == 2 && d.wakes.last == t0.adding(seconds: 600))
        // Answered in a terminal meanwhile: the plan has no return, and nothing more goes out.
        d.reminders = []
        d.now = t0.adding(seconds: 600)
        d.send(.databaseSettled(lost: nil, dataVersion: 2))
        d.send(.wake(dataVersion: 2))
        #expect(d.delivered.count == 2)
    }

    @Test("a reminder of an item that does not nag is not planned again once delivered")
    func noNagNoReplan() {
        let d = driver([0, 600], now: 0)
        d.send(.start)
        d.clear()
        d.end(0)
        #expect(!d.effects.contains { if case .readChanges = $0 { true } else { false } })
        #expect(!d.effects.contains { if case .plan = $0 { true } else { false } })
    }

    @Test("a paused notification server: what it was handed is held, not settled; what falls due meanwhile waits without a wake; on resume both go out")
    func pausedServer() {
        let d = driver([0, 600, 3_600], now: 0)
        d.send(.start)
        d.end(0, .paused)
        #expect(d.core.paused == [.desktop: d.now] && d.written.isEmpty && d.core.inFlight.isEmpty)
        #expect(d.logs.contains("the notification server is paused: desktop reminders are held until it resumes"))
        // 09:10: the second falls due; nothing is handed over, and the wake goes to the third.
        d.now = t0.adding(seconds: 600)
        d.clear()
        d.send(.wake(dataVersion: 1))
        #expect(d.tickets.count == 1 && d.wakes == [t0.adding(seconds: 3_600)])
        // What it holds, and why, is published with the round, since the pause it learned at 09:00.
        #expect(
            d.core.held.map { "\($0.id) \($0.reason.rawValue)" } == [
                "todo:1:2026-12-01:0m@desktop server-paused", "todo:2:2026-12-01:0m@desktop server-paused",
            ])
        #expect(d.core.paused == [.desktop: t0] && d.publishes == 1)
        d.clear()
        d.send(.desktopPaused(false))
        #expect(d.tickets.count == 3 && d.delivered.suffix(2) == ["todo:1:2026-12-01:0m", "todo:2:2026-12-01:0m"])
        #expect(d.claimed.map(\.description) == ["todo:1:2026-12-01:0m@desktop", "todo:1:2026-12-01:0m@desktop", "todo:2:2026-12-01:0m@desktop"])
        #expect(d.core.held.isEmpty && d.core.paused.isEmpty)
        // Paused again by its signal (at 09:30): said at once, and the third waits too.
        d.now = t0.adding(seconds: 1_800)
        d.clear()
        d.send(.desktopPaused(true))
        #expect(d.publishes == 1 && d.core.paused == [.desktop: t0.adding(seconds: 1_800)])
        d.now = t0.adding(seconds: 3_600)
        d.send(.wake(dataVersion: 1))
        #expect(d.tickets.count == 3)
        #expect(d.core.held.map(\.id.description) == ["todo:3:2026-12-01:0m@desktop"])
    }
}
