import DawnletTestSupport
import Testing

@testable import DawnletCore

/// Quiet hours: what they hold and until when, and what the planner and the dispatcher make of a
/// reminder due inside them.
@Suite struct QuietHoursTests {
    static let berlin = Zone.named("Europe/Berlin")

    func at(_ text: String) -> Instant { ISO8601.parse(text, zone: QuietHoursTests.berlin)! }

    func end(_ quiet: QuietHours, _ text: String, kind: ReminderKind = .todo) -> String {
        let instant = at(text)
        let local = instant.secondsSinceEpoch + Int64(QuietHoursTests.berlin.utcOffset(at: instant))
        return quiet.end(of: instant, local: local, kind: kind, zone: QuietHoursTests.berlin).map {
            String(ISO8601.format($0, in: QuietHoursTests.berlin).prefix(16))
        } ?? "-"
    }

    @Test(
        "overnight and daytime stretches; the day a stretch begins on; the autumn night's repeated hour",
        arguments: [
            // (from, to, days, instant, expected end)
            ("22:00", "07:00", "", "2026-12-04T23:10", "2026-12-05T07:00"), ("22:00", "07:00", "", "2026-12-05T03:00", "2026-12-05T07:00"),
            ("22:00", "07:00", "", "2026-12-05T07:00", "-"), ("22:00", "07:00", "", "2026-12-04T21:59", "-"),
            ("22:00", "07:00", "", "2026-12-04T22:00", "2026-12-05T07:00"),
            // Weekdays only: Friday night's stretch holds; Saturday night's does not, until Sunday's
            // (it begins on Sunday) — Monday 03:00 belongs to it.
            ("22:00", "07:00", "mon,tue,wed,thu,fri,sun", "2026-12-05T03:00", "2026-12-05T07:00"),
            ("22:00", "07:00", "mon,tue,wed,thu,fri,sun", "2026-12-06T03:00", "-"),
            ("22:00", "07:00", "mon,tue,wed,thu,fri,sun", "2026-12-07T03:00", "2026-12-07T07:00"),
            ("12:00", "13:30", "", "2026-12-04T12:45", "2026-12-04T13:30"), ("12:00", "13:30", "", "2026-12-04T13:30", "-"),
            // The night the clocks go back: 22:00 to 07:00 is ten hours, and still ends at 07:00.
            ("22:00", "07:00", "", "2026-10-25T02:30", "2026-10-25T07:00"),
        ])
    func stretches(from: String, to: String, days: String, instant: String, expected: String) {
        var quiet = QuietHours(from: WallTime(from)!, to: WallTime(to)!)
        if !days.isEmpty { quiet.days = WeekdaySet(days.split(separator: ",").map { Weekday(name: String($0))! }) }
        #expect(end(quiet, instant) == expected)
    }

    static func config(_ text: String) throws -> Config { try Config(try JSON5.parse(Array(text.utf8)).value) }

    @Test("the config: from and to, days, kinds, critical; and what is refused")
    func config() throws {
        let config = try Self.config("{ quietHours: { from: '22:00', to: '07:00', days: ['mon', 'fri'], kinds: ['todo'], critical: 'hold' } }")
        let quiet = try #require(config.quietHours)
        #expect(quiet.from == WallTime("22:00") && quiet.to == WallTime("07:00") && quiet.days == WeekdaySet([.monday, .friday]))
        #expect(quiet.kinds == Set([ReminderKind.todo]) && !quiet.criticalPasses)
        for (text, problem) in [
            ("{ quietHours: { from: '22:00' } }", "quietHours: needs from and to"), ("{ quietHours: { from: '22:00', to: '22:00' } }", "the same time"),
            ("{ quietHours: { from: '25:00', to: '07:00' } }", "quietHours.from: not a time"),
            ("{ quietHours: { from: '22:00', to: '07:00', days: ['someday'] } }", "not a weekday"),
            ("{ quietHours: { from: '22:00', to: '07:00', kinds: ['chore'] } }", "unknown kind"),
            ("{ quietHours: { from: '22:00', to: '07:00', critical: 'maybe' } }", "pass or hold"),
            ("{ quietHours: { from: '22:00', to: '07:00', volume: 0 } }", "unknown key"),
        ] {
            #expect(throws: (any Error).self) { try Self.config(text) }
            do { _ = try Self.config(text) } catch { #expect("\(error)".contains(problem), "\(text): \(error)") }
        }
    }

    func todo(_ id: Int64, at time: String, urgency: Urgency? = nil, kind: ReminderKind = .todo) -> PlanItem {
        PlanItem(
            kind: kind, definitionID: id, date: date("2026-12-04"), time: WallTime(time), title: "T\(id)", source: .virtual, offsets: .init([.minutes(0)]),
            suppression: nil, detail: nil, note: nil, style: PlanItem.styleBox(urgency.map { ReminderStyle(urgency: $0) }))
    }

    @Test(
        "the planner holds what is due inside until they end, says so, and lets critical and other kinds through; the dispatcher sends two held at once as one summary"
    )
    func planned() throws {
        var config = Config()
        config.quietHours = QuietHours(from: WallTime("22:00")!, to: WallTime("07:00")!)
        config.quietHours?.kinds = [.todo, .habit]
        let items = [
            todo(1, at: "21:59"), todo(2, at: "23:10"), todo(3, at: "23:40", urgency: .critical), todo(4, at: "23:50"), todo(5, at: "23:20", kind: .event),
        ]
        let plan = Planner.plan(
            items: items, overdue: [], rules: PlanRules(config: config), log: [:], now: at("2026-12-04T20:00"),
            window: at("2026-12-04T20:00")...at("2026-12-05T12:00"), zone: QuietHoursTests.berlin)
        let fires = plan.reminders.map { "\($0.title) \(ISO8601.format($0.fireAt, in: QuietHoursTests.berlin).dropFirst(11).prefix(5))" }
        #expect(fires == ["T1 21:59", "T5 23:20", "T3 23:40", "T2 07:00", "T4 07:00"])
        let held = plan.reminders.filter { $0.heldFrom != nil }
        #expect(held.map(\.title) == ["T2", "T4"] && held[0].why.contains("held for quiet hours (due 23:10)"))
        #expect(held[0].heldFrom == at("2026-12-04T23:10"))
        let decision = Dispatcher.decide(
            held, retries: [:], now: at("2026-12-05T07:00:01"), policy: PlanRules(config: config).policy, planEnds: at("2026-12-05T12:00"))
        #expect(decision.sends.count == 1 && decision.sends[0].reminders.map(\.title) == ["T2", "T4"] && !decision.sends[0].late)
        let summary = ReminderMessage.summary(of: decision.sends[0].reminders, when: "07:00", zone: QuietHoursTests.berlin)
        #expect(summary.title == "2 reminders held for quiet hours" && summary.body == "2026-12-04T23:10 T2\n2026-12-04T23:50 T4" && !summary.late)
        // Alone, one says it was held.
        let one = ReminderMessage(held[0], late: false, at: at("2026-12-05T07:00:01"), zone: QuietHoursTests.berlin)
        #expect(one.body == "Todo due at 23:10 (7h50m ago)\nHeld for quiet hours: due 23:10.", "\(one.body)")
        #expect(one.when == "2026-12-04T23:10:00+01:00" && one.held && !one.late)
        // With critical: hold, the critical one waits too.
        config.quietHours?.criticalPasses = false
        let strict = Planner.plan(
            items: items, overdue: [], rules: PlanRules(config: config), log: [:], now: at("2026-12-04T20:00"),
            window: at("2026-12-04T20:00")...at("2026-12-05T12:00"), zone: QuietHoursTests.berlin)
        #expect(strict.reminders.filter { $0.heldFrom != nil }.map(\.title) == ["T2", "T3", "T4"])
    }

    @Test("a nag's return due inside quiet hours waits for their end")
    func nagReturnHeld() {
        var config = Config()
        config.quietHours = QuietHours(from: WallTime("22:00")!, to: WallTime("07:00")!)
        config.nag = [.todo: .seconds(300)]
        let item = todo(1, at: "21:50")
        let id = DeliveryID(.item(.todo, id: 1, date: date("2026-12-04"), offset: .minutes(0)), .desktop)
        let log = [id: Settlement(.delivered, at: at("2026-12-04T21:55:01"), waiting: true, firstDelivered: at("2026-12-04T21:50:01"))]
        let plan = Planner.plan(
            items: [item], overdue: [], rules: PlanRules(config: config), log: log, now: at("2026-12-04T21:56"),
            window: at("2026-12-04T20:00")...at("2026-12-05T12:00"), zone: QuietHoursTests.berlin)
        let back = plan.reminders.filter { $0.repetition > 0 }
        #expect(back.map { ISO8601.format($0.fireAt, in: QuietHoursTests.berlin) } == ["2026-12-05T07:00:00+01:00"])
        #expect(back.first?.repetition == 2 && back.first?.heldFrom == at("2026-12-04T22:00:01"))
    }
}
