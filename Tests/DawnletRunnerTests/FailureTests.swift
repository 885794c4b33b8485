import DawnletCCall
import DawnletSystem
import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletCore
@testable import DawnletRunner
@testable import DawnletStore

/// The runner when a C call fails, made to fail on purpose (`FailureInjection`): SQLite busy or
/// failing to write on the claim and on the finish, the wake timer refused by sd-event. Each ends
/// with nothing lost and nothing sent twice.
@Suite(.enabled(if: FailureInjection.isCompiledIn, "failures are injected in debug builds only")) struct FailureTests {
    let folder: TemporaryFolder
    let store: Store
    let channels = FakeChannels()
    let scheduler = TestScheduler(now: Instant(secondsSinceEpoch: 0))
    let runner: Runner
    let berlin = Zone.named("Europe/Berlin")
    let key = "todo:1:2026-12-01:0m"
    /// The claim's statement, and the finish's.
    static let claimSQL = "fire_at, late, claimed_at"
    static let finishSQL = "UPDATE deliveries SET state"

    init() throws {
        folder = try TemporaryFolder()
        store = try RunnerLoopTests.store(in: folder)
        runner = try RunnerLoopTests.runner(in: folder, scheduler, channels)
        _ = try store.items.addItem(
            kind: .todo, title: "Call", date: date("2026-12-01"), time: WallTime("09:00"), schedule: nil, today: date("2026-12-01"))
        scheduler.setWallClock(to: ISO8601.parse("2026-12-01T08:59:30", zone: berlin)!)
        runner.start()
    }

    func state() throws -> Delivery.State? { try RunnerLoopTests.state(key, in: store) }

    /// Runs `body` with `rules` in force; every rule must have failed a call.
    func failing(_ rules: FailureInjection.Rule..., body: () throws -> Void) rethrows {
        let plan = FailureInjection.Plan(rules)
        try FailureInjection.$plan.withValue(plan) { try body() }
        #expect(plan.unfired.isEmpty, "never failed a call: \(plan.unfired)")
    }

    @Test(
        "the claim busy or failing to write (its insert, or the transaction's commit): nothing handed over; a second later it goes out, once",
        arguments: [
            FailureInjection.Rule("sqlite3_step", context: claimSQL, code: 5),  // SQLITE_BUSY
            FailureInjection.Rule("sqlite3_step", context: claimSQL, code: 778),  // SQLITE_IOERR_WRITE
            FailureInjection.Rule("sqlite3_exec", context: "COMMIT", code: 5),
        ])
    func claimFails(rule: FailureInjection.Rule) throws {
        let due = runner.nextWake!
        try failing(rule) {
            scheduler.advance(to: due)
        }
        #expect(channels.handed.isEmpty)
        #expect(try state() == nil)
        #expect(runner.nextWake == due.adding(seconds: 1))
        scheduler.advance(to: runner.nextWake!)
        #expect(channels.keys == [key])
        channels.end(0)
        #expect(try state() == .delivered)
        runner.replan(reason: .notificationAction)
        #expect(channels.handed.count == 1)
    }

    @Test(
        "the finish busy or failing to write: the outcome is kept, a whole plan does not send it again, the next decision records it; a new runner sends nothing",
        arguments: [Int32(5), 778])
    func finishFails(code: Int32) throws {
        scheduler.advance(to: runner.nextWake!)
        #expect(channels.keys == [key])
        // The write fails, and so does the decision's try again right after it.
        try failing(FailureInjection.Rule("sqlite3_step", context: Self.finishSQL, times: 2, code: code)) {
            channels.end(0)
        }
        #expect(try state() == .claimed)
        #expect(runner.core.unwritten.count == 1)
        // A whole plan sees the row still claimed: it is not claimed (or sent) again, and the
        // decision after it writes what was kept.
        runner.replan(reason: .notificationAction)
        #expect(channels.handed.count == 1)
        #expect(try state() == .delivered)
        #expect(runner.core.unwritten.isEmpty)
        let again = try RunnerLoopTests.runner(in: folder, scheduler, channels)
        again.start()
        #expect(channels.handed.count == 1)
    }
}

/// The wake timer refused by sd-event, on the real loop: the runner says so, wakes on its
/// monotonic retry timer a second later, arms the wake again, and the reminder goes out once.
@Suite(.enabled(if: FailureInjection.isCompiledIn, "failures are injected in debug builds only")) struct WakeTimerFailureTests {
    @Test("sd_event_source_set_time fails for the wake timer: retried a second later; the reminder goes out on time, once")
    func wakeTimerRefused() throws {
        let folder = try TemporaryFolder()
        let store = try Store(path: folder.path("dawnlet.sqlite"))
        try store.db.run("UPDATE settings SET value = '0' WHERE key = 'created'")
        let channels = FakeChannels()
        let logged = Logged()
        // Due three seconds from now: an alarm of a calendar file's event (item times are whole
        // minutes, a calendar's are to the second).
        let due = Instant(secondsSinceEpoch: Int64(Date().timeIntervalSince1970) + 3)
        let stamp = CalendarExport.basic(due)
        try """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:soon@test\r\nDTSTAMP:\(stamp)\r\nDTSTART:\(stamp)\r\n\
        SUMMARY:Stretch\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Stretch\r\nTRIGGER:PT0S\r\nEND:VALARM\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
        """.write(toFile: folder.path("soon.ics"), atomically: true, encoding: .utf8)
        var config = Config()
        config.calendars = [Config.CalendarSource(name: "test", path: folder.path("soon.ics"))]
        let runner = try Runner(
            Runner.Settings(databasePath: folder.path("dawnlet.sqlite"), config: config, zone: .utc), channels: channels, log: { logged.add($0.message) })
        channels.onHand = { runner.loop.exit(0) }
        let bound = EventLoop.RelativeTimer(loop: runner.loop) { runner.loop.exit(1) }
        try bound.arm(after: .seconds(20))
        let plan = FailureInjection.Plan([FailureInjection.Rule("sd_event_source_set_time", code: ENOMEM)])
        let code = try FailureInjection.$plan.withValue(plan) { () throws -> Int32 in
            runner.start()
            return try runner.loop.run()
        }
        #expect(plan.unfired.isEmpty)
        #expect(code == 0, "nothing was handed over")
        #expect(channels.handed.count == 1)
        #expect(Int64(Date().timeIntervalSince1970) >= due.secondsSinceEpoch, "not before its instant")
        #expect(
            logged.lines.contains { $0.hasPrefix("cannot arm the wake timer: sd_event_source_set_time: Cannot allocate memory; trying again in 1 s") },
            "\(logged.lines)")
    }

    final class Logged: @unchecked Sendable {
        private(set) var lines: [String] = []
        func add(_ line: String) { lines.append(line) }
    }
}
