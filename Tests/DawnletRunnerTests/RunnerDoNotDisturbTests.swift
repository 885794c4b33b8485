import DawnletCore
import DawnletStore
import DawnletTestSupport
import Testing

@testable import DawnletRunner

extension RunnerLoopTests {
    @Test(
        "Do Not Disturb on: what falls due on the desktop is held, published as held for Do Not Disturb with no since; ended, it goes out"
    )
    func doNotDisturbHolds() throws {
        let published = Published()
        let runner = try publishingRunner(published)
        try todo("Call", "09:00")
        scheduler.setWallClock(to: at("2026-12-01T08:59"))
        runner.start()
        runner.send(.desktopDoNotDisturb(true))
        scheduler.advance(to: at("2026-12-01T09:00"))
        #expect(channels.keys.isEmpty, "held, not handed over")
        let held = try #require(published.states.last ?? nil)
        let call = DeliveryID(ReminderKey("todo:1:2026-12-01:0m")!, .desktop)
        #expect(held.holds == Holds(held: [call: .doNotDisturb]), "\(held.holds)")
        // Ended: it goes out, and nothing is held.
        runner.send(.desktopDoNotDisturb(false))
        #expect(channels.keys == ["todo:1:2026-12-01:0m"])
        channels.end(0)
        #expect((published.states.last ?? nil)?.holds.isEmpty ?? true)
        #expect(try state("todo:1:2026-12-01:0m") == .delivered)
    }

    @Test("a delivery the channel found held by Do Not Disturb stays claimed, is not counted a pause, and goes out when it ends")
    func doNotDisturbOutcome() throws {
        let published = Published()
        let runner = try publishingRunner(published)
        try todo("Call", "09:00")
        scheduler.setWallClock(to: at("2026-12-01T09:00"))
        runner.start()
        #expect(channels.keys == ["todo:1:2026-12-01:0m"])
        // mako's way: asked as it goes out, found on.
        runner.send(.desktopDoNotDisturb(true))
        channels.end(0, .heldForDoNotDisturb)
        let held = try #require(published.states.last ?? nil)
        #expect(held.holds.paused.isEmpty && held.holds.held.values.allSatisfy { $0 == .doNotDisturb } && held.holds.held.count == 1, "\(held.holds)")
        runner.send(.desktopDoNotDisturb(false))
        #expect(channels.keys == ["todo:1:2026-12-01:0m", "todo:1:2026-12-01:0m"])
    }
}
