import Testing

@testable import DawnletCore

/// What the runner holds back while a notification server is paused, as its decision makes it and
/// as `next` and `preview` read it back.
@Suite struct HoldsTests {
    let t0 = Instant(secondsSinceEpoch: 1_796_112_000)  // 2026-12-01T09:00:00+01:00
    let policy = DeliveryPolicy(graceWindow: .seconds(12 * 3_600))

    func reminder(_ id: Int, at offset: Int64, channels: [Channel], status: PlannedReminder.Status, settled: [Channel: Settlement] = [:])
        -> PlannedReminder
    {
        let date = CivilDate(year: 2026, month: 12, day: 1)!
        let item = PlanItem(kind: .todo, definitionID: Int64(id), date: date, time: WallTime("09:00"), title: "T\(id)", source: .virtual)
        return PlannedReminder(
            key: .item(.todo, id: Int64(id), date: date, offset: .minutes(0)), fireAt: t0.adding(seconds: offset), utcOffset: 3_600,
            channels: channels, status: status, settled: settled, snoozed: false, item: item, offset: .minutes(0), notes: [], items: [],
            overdueCount: 0, occurrenceDate: date)
    }

    @Test("the decision holds what is due, late or past on a paused channel, not what is pending, settled or in flight; the other channels go out")
    func decided() {
        let plan = [
            reminder(1, at: -30, channels: [.desktop, .email], status: .pending),
            reminder(2, at: -3_600, channels: [.desktop], status: .pending),
            reminder(3, at: -13 * 3_600, channels: [.desktop], status: .pending),
            reminder(4, at: 600, channels: [.desktop], status: .pending),
            reminder(5, at: -30, channels: [.desktop], status: .pending, settled: [.desktop: Settlement(.delivered, at: t0)]),
            reminder(6, at: -30, channels: [.desktop], status: .pending),
        ]
        let d = Dispatcher.decide(
            plan, inFlight: [DeliveryID(plan[5].key, .desktop)], retries: [:], now: t0, policy: policy, planEnds: t0.adding(seconds: 86_400),
            paused: [.desktop])
        #expect(
            d.held.map { "\($0.id) \($0.reason.rawValue)" } == [
                "todo:1:2026-12-01:0m@desktop server-paused", "todo:2:2026-12-01:0m@desktop server-paused", "todo:3:2026-12-01:0m@desktop server-paused",
            ])
        #expect(d.sends.map { "\($0.channel) \($0.reminders[0].key)" } == ["email todo:1:2026-12-01:0m"])
        #expect(d.missed.isEmpty, "not recorded missed while held: the resume decides")
        #expect(d.nextWake == t0.adding(seconds: 600))
    }

    @Test(
        "read back by preview: a channel held when the runner named it, or on a paused channel once its time has come; whole only when every channel still to go out is held"
    )
    func readBack() {
        let since = t0.adding(seconds: -120)
        let holds = Holds(paused: [.desktop: since])
        func held(_ r: PlannedReminder) -> [String] { holds.held(r).map { "\($0.channel) \($0.reason.words) \($0.since == since)" } }
        let due = reminder(1, at: 0, channels: [.desktop], status: .due)
        #expect(held(due) == ["desktop notification server paused true"] && holds.holdsWhole(due))
        for status in [PlannedReminder.Status.late, .missed] { #expect(holds.holdsWhole(reminder(1, at: 0, channels: [.desktop], status: status))) }
        #expect(held(reminder(1, at: 600, channels: [.desktop], status: .pending)).isEmpty, "its time is to come")
        #expect(held(reminder(1, at: 0, channels: [.desktop], status: .settled, settled: [.desktop: Settlement(.delivered, at: t0)])).isEmpty)
        #expect(held(reminder(1, at: 0, channels: [.email], status: .due)).isEmpty, "another channel")
        let partly = reminder(1, at: 0, channels: [.desktop, .email], status: .due)
        #expect(held(partly) == ["desktop notification server paused true"] && !holds.holdsWhole(partly))
        let emailSent = reminder(1, at: 0, channels: [.desktop, .email], status: .due, settled: [.email: Settlement(.delivered, at: t0)])
        #expect(holds.holdsWhole(emailSent))
        // Named by the runner: held whatever its status as planned (it went out of date since).
        let named = Holds(paused: [.desktop: since], held: [DeliveryID(due.key, .desktop): .serverPaused])
        #expect(named.holdsWhole(reminder(1, at: 0, channels: [.desktop], status: .pending)))
        #expect(Holds().held(due).isEmpty && !Holds().holdsWhole(due))
    }
}
