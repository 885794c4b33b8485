import DawnletCore
import DawnletStore
import DawnletTestSupport
import Testing

@testable import DawnletRunner

extension RunnerLoopTests {
    @Test(
        "the state for next while the notification server is paused: the reminder it holds is next, held since the pause, until the next wake; resumed, it goes out and nothing is held"
    )
    func publishedHolds() throws {
        let published = Published()
        let runner = try publishingRunner(published)
        try todo("Call", "09:00")
        try todo("Walk", "09:30")
        scheduler.setWallClock(to: at("2026-12-01T09:00"))
        runner.start()
        #expect(channels.keys == ["todo:1:2026-12-01:0m"])
        // Handed over, and the server says it is paused: held, not settled.
        scheduler.setWallClock(to: at("2026-12-01T09:00:02"))
        channels.end(0, .paused)
        let held = try #require(published.states.last ?? nil)
        let call = DeliveryID(ReminderKey("todo:1:2026-12-01:0m")!, .desktop)
        #expect(held.next?.title == "Call", "\(held)")
        #expect(held.holds == Holds(paused: [.desktop: at("2026-12-01T09:00:02")], held: [call: .serverPaused]), "\(held.holds)")
        #expect(held.validUntil == at("2026-12-01T09:30"), "held until the runner wakes for Walk: \(held)")
        // Walk falls due while paused: held too, and Call is still the next.
        scheduler.advance(to: at("2026-12-01T09:30"))
        let both = try #require(published.states.last ?? nil)
        #expect(both.next?.title == "Call" && both.holds.held.count == 2, "\(both)")
        // Resumed: both go out, and what is published holds nothing.
        runner.send(.desktopPaused(false))
        #expect(channels.keys == ["todo:1:2026-12-01:0m", "todo:1:2026-12-01:0m", "todo:2:2026-12-01:0m"])
        channels.end(1)
        channels.end(2)
        let resumed = published.states.last ?? nil
        #expect(resumed?.holds.isEmpty ?? true, "\(String(describing: resumed))")
        #expect(try state("todo:1:2026-12-01:0m") == .delivered && state("todo:2:2026-12-01:0m") == .delivered)
    }
}
