import DawnletTestSupport
import Testing

@testable import DawnletCore

/// A reminder that comes back until answered: the planner's returns, from the delivery log, as
/// tables of what went out, what was answered, the bound, a snooze and a sleep.
@Suite struct NagTests {
    static let berlin = Zone.named("Europe/Berlin")
    let day = date("2026-12-03")

    func at(_ time: String) -> Instant { ISO8601.parse("2026-12-03T\(time)", zone: NagTests.berlin)! }

    /// A 09:00 todo; its own nag, or its kind's from `config`.
    func todo(nag: Duration? = nil) -> PlanItem {
        PlanItem(
            kind: .todo, definitionID: 7, date: day, time: WallTime("09:00"), title: "Pills", source: .virtual, offsets: .init([.minutes(0)]),
            suppression: nil, detail: nil, note: nil, style: PlanItem.styleBox(nag.map { ReminderStyle(nag: $0) }))
    }

    var key: ReminderKey { .item(.todo, id: 7, date: day, offset: .minutes(0)) }

    /// The plan at `now` of `item` whose 09:00 reminder went out on the desktop first at
    /// `first`, last at `last`, answered or not; as "HH:MM:SS number" of each return planned.
    func returns(
        _ item: PlanItem, first: String = "09:00:02", last: String = "09:00:02", answered: Bool = false, now: String,
        config: Config = Config(), snoozedUntil: String? = nil
    ) -> [String] {
        let id = DeliveryID(key, .desktop)
        var log: [DeliveryID: Settlement] = [:]
        var snoozed: [DeliveryID: Instant] = [:]
        if let snoozedUntil {
            snoozed[id] = at(snoozedUntil)
        } else {
            log[id] = Settlement(.delivered, at: at(last), waiting: !answered, firstDelivered: at(first))
        }
        let plan = Planner.plan(
            items: [item], overdue: [], rules: PlanRules(config: config), log: log, snoozed: snoozed, now: at(now),
            window: at("08:00:00")...at("23:00:00"), zone: NagTests.berlin)
        return plan.reminders.filter { $0.repetition > 0 }.map {
            "\(ISO8601.format($0.fireAt, in: NagTests.berlin).dropFirst(11).prefix(8)) \($0.repetition)"
        }
    }

    @Test(
        "a reminder that waits comes back every N from its first going out, up to the bound; not once answered, snoozed, or of an item that does not nag",
        arguments: [
            // (nag, first, last, answered, now, expected)
            (Duration.seconds(300), "09:00:02", "09:00:02", false, "09:01:00", ["09:05:02 1"]),
            // After the first return, the second: counted from the first going out, not the last.
            (.seconds(300), "09:00:02", "09:05:03", false, "09:05:04", ["09:10:02 2"]),
            // Answered (on any channel): nothing comes back.
            (.seconds(300), "09:00:02", "09:00:02", true, "09:01:00", []),
            // The bound (1h by default): the 12th is the last.
            (.seconds(300), "09:00:02", "09:55:02", false, "09:55:03", ["10:00:02 12"]),
            (.seconds(300), "09:00:02", "10:00:02", false, "10:00:03", []),
            // The machine slept from 09:06 to 09:31: the returns it slept through are not made up
            // for; the next still to come goes out.
            (.seconds(300), "09:00:02", "09:05:02", false, "09:31:10", ["09:35:02 7"]),
            (.seconds(300), "09:00:02", "09:05:02", false, "09:31:00", ["09:30:02 6"]),
            // One just past (within a minute) still goes out, at once.
            (.seconds(300), "09:00:02", "09:05:02", false, "09:10:30", ["09:10:02 2"]),
            // An item's own "off" over a kind that nags.
            (.zero, "09:00:02", "09:00:02", false, "09:01:00", []),
        ])
    func returns(_ nag: Duration, first: String, last: String, answered: Bool, now: String, expected: [String]) {
        #expect(returns(todo(nag: nag), first: first, last: last, answered: answered, now: now) == expected)
    }

    @Test("the kind's nag from the config, its bound; an item's own over it; none by default; a snoozed one comes back from its snooze only")
    func fromConfig() throws {
        var config = Config()
        #expect(returns(todo(), now: "09:01:00", config: config).isEmpty)
        config.nag = [.todo: .seconds(600)]
        config.nagFor = .seconds(1_800)
        #expect(returns(todo(), now: "09:01:00", config: config) == ["09:10:02 1"])
        #expect(returns(todo(), last: "09:20:02", now: "09:20:03", config: config) == ["09:30:02 3"])
        #expect(returns(todo(), last: "09:30:02", now: "09:30:03", config: config).isEmpty)
        #expect(returns(todo(nag: .seconds(120)), now: "09:01:00", config: config) == ["09:02:02 1"])
        #expect(returns(todo(nag: .zero), now: "09:01:00", config: config).isEmpty)
        // Snoozed: it comes back at the snooze's instant, not as a nag's return.
        #expect(returns(todo(), now: "09:01:00", config: config, snoozedUntil: "09:30:00").isEmpty)
    }

    @Test("a return says what it is, is planned pending, and is neither late-dropped nor counted as the original")
    func returnReminder() throws {
        let id = DeliveryID(key, .desktop)
        var config = Config()
        config.late = [.todo: .drop]
        let plan = Planner.plan(
            items: [todo(nag: .seconds(300))], overdue: [], rules: PlanRules(config: config),
            log: [id: Settlement(.delivered, at: at("09:00:02"), waiting: true, firstDelivered: at("09:00:02"))], now: at("09:05:10"),
            window: at("08:00:00")...at("23:00:00"), zone: NagTests.berlin)
        #expect(plan.reminders.map(\.repetition) == [0, 1])
        let original = plan.reminders[0], back = plan.reminders[1]
        #expect(original.status == .settled)
        #expect(back.status == .due && back.key == key && back.channels == [.desktop])
        #expect(back.why.contains("back on desktop until answered: 1 of 12, every 5m"))
        // Decided late (the machine slept a minute after the plan), with late: drop for todos:
        // still sent, as a snooze is.
        let decision = Dispatcher.decide(plan.reminders, retries: [:], now: at("09:06:30"), policy: PlanRules(config: config).policy, planEnds: at("23:00:00"))
        #expect(decision.sends.map(\.ids) == [[id]] && decision.missed.isEmpty)
        // Its message: critical, "(again)" on the desktop and in a mail's subject, {repeat} for a command.
        let message = ReminderMessage(back, late: false, at: at("09:06:30"), zone: NagTests.berlin, style: config.style(of: back.item))
        #expect(message.urgency == .critical && message.templateValues["repeat"] == "1")
        #expect(message.body == "Todo due at 09:00 (6m ago)", "a return says how far its time is when it comes back: \(message.body)")
        #expect(DesktopNotification(message, capabilities: [], expire: .zero, snooze: [.after(.seconds(600))]).summary == "Pills (again)")
    }

    @Test(
        "Nag.next: slots from the first going out, the bound, a sleep",
        arguments: [
            // (last, now, expected) for every 60 s, bound 300 s, first at 1000.
            (Int64(1000), Int64(1001), "1060 1"), (1060, 1061, "1120 2"), (1240, 1241, "1300 5"), (1300, 1301, "none"),
            (1060, 1250, "1240 4"), (1060, 1400, "none"), (900, 901, "1060 1"),
        ])
    func slots(last: Int64, now: Int64, expected: String) {
        let next = Nag(every: 60, bound: 300).next(
            first: Instant(secondsSinceEpoch: 1000), last: Instant(secondsSinceEpoch: last), now: Instant(secondsSinceEpoch: now), lateAfter: .seconds(60))
        #expect(next.map { "\($0.at.secondsSinceEpoch) \($0.number)" } ?? "none" == expected)
    }
}
