import DawnletCore
import DawnletStore
import DawnletTestSupport
import Testing

@testable import DawnletRunner

extension RunnerLoopTests {
    @Test(
        "a locked screen: what falls due is held for it (published: held since the lock); unlocked, the two that waited go out as one summary of what came while away, each recorded on its own"
    )
    func screenLockedHolds() throws {
        let published = Published()
        let runner = try publishingRunner(published)
        try todo("Call", "09:00")
        try todo("Walk", "09:30")
        scheduler.setWallClock(to: at("2026-12-01T08:50"))
        runner.start()
        scheduler.setWallClock(to: at("2026-12-01T08:59"))
        runner.send(.screenLocked(true))
        scheduler.advance(to: at("2026-12-01T09:30"))
        #expect(channels.keys.isEmpty, "nothing shown while locked: \(channels.keys)")
        let held = try #require(published.states.last ?? nil)
        let call = DeliveryID(ReminderKey("todo:1:2026-12-01:0m")!, .desktop), walk = DeliveryID(ReminderKey("todo:2:2026-12-01:0m")!, .desktop)
        #expect(held.holds == Holds(paused: [.desktop: at("2026-12-01T08:59")], held: [call: .screenLocked, walk: .screenLocked]), "\(held.holds)")

        scheduler.setWallClock(to: at("2026-12-01T09:31"))
        runner.send(.screenLocked(false))
        #expect(channels.handed.count == 1, "one summary: \(channels.keys)")
        #expect(channels.handed.first?.message.title == "2 reminders while you were away")
        channels.end(0)
        #expect((published.states.last ?? nil)?.holds.isEmpty ?? true)
        #expect(try state("todo:1:2026-12-01:0m") == .delivered && state("todo:2:2026-12-01:0m") == .delivered)
    }
}
