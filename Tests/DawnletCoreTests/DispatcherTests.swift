import Foundation
import Testing

@testable import DawnletCore

/// The runner's one decision, as tables of cases: what goes out now, late or not, as a
/// summary or alone; what is recorded missed; when the runner wakes next.
@Suite struct DispatcherTests {
    let t0 = Instant(secondsSinceEpoch: 1_796_112_000)  // 2026-12-01T09:00:00+01:00
    let policy = DeliveryPolicy(graceWindow: .seconds(12 * 3_600))
    var planEnds: Instant { t0.adding(seconds: 14 * 86_400) }

    func reminder(
        _ id: Int, at offset: Int64, channels: [Channel] = [.desktop], settled: [Channel: Settlement] = [:],
        suppressed: Bool = false, title: String? = nil
    ) -> PlannedReminder {
        let date = CivilDate(year: 2026, month: 12, day: 1)!
        let item = PlanItem(
            kind: .todo, definitionID: Int64(id), date: date, time: WallTime("09:00"), title: title ?? "T\(id)", source: .virtual,
            suppression: suppressed ? .done : nil)
        return PlannedReminder(
            key: .item(.todo, id: Int64(id), date: date, offset: .minutes(0)), fireAt: t0.adding(seconds: offset), utcOffset: 3_600, channels: channels,
            status: suppressed ? .suppressed(.done) : .pending, settled: settled, snoozed: false, item: item,
            offset: .minutes(0), notes: [], items: [], overdueCount: 0, occurrenceDate: date)
    }

    func decide(
        _ reminders: [PlannedReminder], now offset: Int64, inFlight: Set<DeliveryID> = [], settled: Set<DeliveryID> = [],
        retries: [DeliveryID: Retry] = [:], policy: DeliveryPolicy? = nil
    ) -> Decision {
        Dispatcher.decide(
            reminders, inFlight: inFlight, settled: settled, retries: retries, now: t0.adding(seconds: offset),
            policy: policy ?? self.policy, planEnds: planEnds)
    }

    /// Each send as "channel keys late" for comparison.
    func sends(_ d: Decision) -> [String] {
        d.sends.map {
            "\($0.channel) \($0.reminders.map { $0.key.description.split(separator: ":")[1] }.joined(separator: ",")) \($0.late ? "late" : "on time")"
        }
    }

    @Test(
        "timing: pending before, due for 60 s, late to the end of the grace window, missed after",
        arguments: [
            (Int64(-1), DeliveryPolicy.Timing.pending), (0, .due), (60, .due), (61, .late), (12 * 3_600, .late), (12 * 3_600 + 1, .missed),
        ])
    func timing(age: Int64, expected: DeliveryPolicy.Timing) {
        #expect(policy.timing(t0, now: t0.adding(seconds: age)) == expected)
    }

    @Test("before its time nothing goes out and the runner wakes at it; at it, it goes out on time")
    func fireAtItsTime() {
        let plan = [reminder(1, at: 0), reminder(2, at: 600)]
        let before = decide(plan, now: -30)
        #expect(before.sends.isEmpty && before.missed.isEmpty)
        #expect(before.nextWake == t0)
        let at = decide(plan, now: 0)
        #expect(sends(at) == ["desktop 1 on time"])
        #expect(at.nextWake == t0.adding(seconds: 600))
        #expect(decide([], now: 0).nextWake == planEnds)
    }

    @Test("two reminders at one instant both go out at once, each alone, on every channel")
    func simultaneous() {
        let plan = [reminder(1, at: 0, channels: [.command, .desktop]), reminder(2, at: 0, channels: [.command])]
        #expect(sends(decide(plan, now: 0)) == ["command 1 on time", "command 2 on time", "desktop 1 on time"])
    }

    @Test("more than three late on one channel are one summary; three or fewer go alone; on-time ones are never summarised")
    func summaries() {
        let late = (1...4).map { reminder($0, at: -600) }
        #expect(sends(decide(late, now: 0)) == ["desktop 1,2,3,4 late"])
        #expect(sends(decide(Array(late.prefix(3)), now: 0)) == ["desktop 1 late", "desktop 2 late", "desktop 3 late"])
        #expect(sends(decide(late + [reminder(9, at: 0)], now: 0)) == ["desktop 1,2,3,4 late", "desktop 9 on time"])
        #expect(decide(late, now: 0).sends.first?.deadline == t0.adding(seconds: -600 + 12 * 3_600))
    }

    @Test("older than the grace window: recorded missed, never sent")
    func missed() {
        let d = decide([reminder(1, at: -13 * 3_600, channels: [.desktop, .email])], now: 0)
        #expect(d.sends.isEmpty)
        #expect(d.missed.map(\.channel) == [.desktop, .email])
    }

    @Test("settled channels, deliveries in flight and suppressed reminders start nothing")
    func nothingTwice() {
        let settled = reminder(1, at: 0, channels: [.desktop, .email], settled: [.desktop: Settlement(.delivered, at: t0)])
        #expect(sends(decide([settled], now: 5)) == ["email 1 on time"])
        #expect(decide([settled], now: 5, inFlight: [DeliveryID(settled.key, .email)]).sends.isEmpty)
        #expect(decide([settled], now: 5, settled: [DeliveryID(settled.key, .email)]).sends.isEmpty)
        #expect(decide([reminder(2, at: 0, suppressed: true)], now: 5).sends.isEmpty)
        // A fully settled pending reminder does not wake the runner.
        let done = reminder(3, at: 600, settled: [.desktop: Settlement(.delivered, at: t0)])
        #expect(decide([done], now: 0).nextWake == planEnds)
    }

    @Test("at most `concurrency` deliveries in flight per channel: the rest wait for one to end")
    func concurrency() {
        var small = policy
        small.concurrency = 3
        let plan = (1...5).map { reminder($0, at: 0, channels: [.command, .desktop]) }
        #expect(
            sends(decide(plan, now: 0, policy: small)) == [
                "command 1 on time", "command 2 on time", "command 3 on time",
                "desktop 1 on time", "desktop 2 on time", "desktop 3 on time",
            ])
        let two = Set([1, 2].map { DeliveryID(plan[$0 - 1].key, .command) })
        #expect(
            sends(decide(plan, now: 0, inFlight: two, policy: small)) == [
                "command 3 on time",
                "desktop 1 on time", "desktop 2 on time", "desktop 3 on time",
            ])
        // Six late are one summary: one place.
        let late = (1...6).map { reminder($0, at: -600) }
        #expect(sends(decide(late, now: 0, policy: small)) == ["desktop 1,2,3,4,5,6 late"])
    }

    @Test("late policy per kind: drop records a late reminder missed at once; summary gathers two or more late ones; send is the default; on time is untouched")
    func latePolicy() throws {
        let config = try Config(JSON5.parse(Array(#"{ late: { default: "summary", todo: "drop" } }"#.utf8)).value)
        #expect(config.late[.todo] == .drop && config.late[.habit] == .summary && config.late[.event] == .summary)
        var dropping = policy
        dropping.late = [.todo: .drop]
        let late = decide([reminder(1, at: -600), reminder(2, at: 0)], now: 0, policy: dropping)
        #expect(late.missed.map { $0.reminder.key.description } == ["todo:1:2026-12-01:0m"])
        #expect(sends(late) == ["desktop 2 on time"], "on time goes out whatever the policy")
        #expect(dropping.timing(t0.adding(seconds: -600), now: t0, kind: .todo) == .missed)
        #expect(dropping.timing(t0.adding(seconds: -600), now: t0, kind: .habit) == .late)
        var gathering = policy
        gathering.late = [.todo: .summary]
        #expect(sends(decide([reminder(1, at: -600), reminder(2, at: -300)], now: 0, policy: gathering)) == ["desktop 1,2 late"])
        #expect(sends(decide([reminder(1, at: -600)], now: 0, policy: gathering)) == ["desktop 1 late"], "one alone is no summary")
        #expect(sends(decide([reminder(1, at: -600), reminder(2, at: -300)], now: 0)) == ["desktop 1 late", "desktop 2 late"])
        #expect(throws: ConfigError.self) { try Config(JSON5.parse(Array(#"{ late: { todo: "later" } }"#.utf8)).value) }
        #expect(throws: ConfigError.self) { try Config(JSON5.parse(Array(#"{ late: { chores: "drop" } }"#.utf8)).value) }
    }

    /// How long ago it was due, the todo's late policy and whether a snooze brought it back → the
    /// reason it is recorded missed with (nil: not missed).
    static let missedCases: [(Int64, LatePolicy?, Bool, ReminderLife.MissedReason?)] = [
        (600, nil, false, nil),
        (600, .drop, false, .latePolicy),
        (12 * 3_600, .drop, false, .latePolicy),
        (12 * 3_600 + 1, .drop, false, .graceWindow),
        (12 * 3_600 + 1, nil, false, .graceWindow),
        (12 * 3_600 + 1, .send, false, .graceWindow),
        (600, .drop, true, nil),
        (12 * 3_600 + 1, .drop, true, .graceWindow),
        (30, .drop, false, nil),
    ]

    @Test(
        "why a reminder is missed, as the decision says it: past the grace window whatever the policy; late and dropped by its kind's policy; a snooze's return never dropped",
        arguments: DispatcherTests.missedCases)
    func missedReason(age: Int64, late: LatePolicy?, snoozed: Bool, expected: ReminderLife.MissedReason?) {
        var policy = policy
        if let late { policy.late = [.todo: late] }
        let r = reminder(1, at: -age, channels: [.desktop, .email])
        let planned = PlannedReminder(
            key: r.key, fireAt: r.fireAt, utcOffset: r.utcOffset, channels: r.channels, status: r.status, settled: [:], snoozed: snoozed, item: r.item,
            offset: r.offset, notes: [], items: [], overdueCount: 0, occurrenceDate: r.occurrenceDate)
        let d = decide([planned], now: 0, policy: policy)
        #expect(d.missed.map(\.reason) == (expected.map { [$0, $0] } ?? []))
        #expect(d.sends.isEmpty == (expected != nil))
    }

    @Test("a retry waits for its instant, then goes out with its failure count")
    func retries() {
        let r = reminder(1, at: 0)
        let id = DeliveryID(r.key, .desktop)
        let waiting = decide([r], now: 1, retries: [id: Retry(failures: 1, at: t0.adding(seconds: 2))])
        #expect(waiting.sends.isEmpty)
        #expect(waiting.nextWake == t0.adding(seconds: 2))
        let again = decide([r], now: 2, retries: [id: Retry(failures: 1, at: t0.adding(seconds: 2))])
        #expect(again.sends.map(\.failures) == [1])
    }

    @Test(
        "backoff: 1, 2, 4, 8 s after each failure, never past the deadline, then failed",
        arguments: [
            (1, Int64(100), Int64?(1)), (2, 100, 2), (3, 100, 4), (4, 100, 8), (5, 100, nil), (4, 8, nil), (1, 1, nil), (0, 100, nil),
        ])
    func backoff(failures: Int, deadline: Int64, wait: Int64?) {
        #expect(policy.retry(after: failures, deadline: t0.adding(seconds: deadline), now: t0) == wait.map { t0.adding(seconds: $0) })
    }

    @Test("a summary of 300 late reminders with long titles stays small: ten lines of at most 120 characters, then \"and 290 more\"")
    func summaryBounded() {
        let long = String(repeating: "Überweisung ", count: 40)
        let reminders = (1...300).map { reminder($0, at: Int64($0), title: "\($0) \(long)") }
        let message = ReminderMessage.summary(of: reminders, when: "2026-12-01T09:30:00+01:00", zone: .utc)
        let lines = message.body.components(separatedBy: "\n")
        #expect(message.title == "300 reminders you missed")
        #expect(lines.count == 11)
        #expect(lines.prefix(10).allSatisfy { $0.count == 120 && $0.hasSuffix("…") })
        #expect(lines[0].hasPrefix("2026-12-01T09:00 1 Überweisung"))
        #expect(lines.last == "and 290 more")
        let listed: String = (1...10).map { "todo:\($0):2026-12-01:0m" }.joined(separator: ",")
        #expect(message.key.description == "summary:" + listed + ",+290")
        #expect(MessageKey(message.key.description) == message.key)
        // What a command's argv would carry: far below the kernel's 128 KiB per argument.
        #expect(message.templateValues.values.map(\.utf8.count).reduce(0, +) < 4_096)
        // Few enough to list: all of them, no count.
        let few = ReminderMessage.summary(of: Array(reminders.prefix(4)), when: "x", zone: .utc)
        #expect(few.body.components(separatedBy: "\n").count == 4)
        #expect(few.key.description.hasSuffix("todo:4:2026-12-01:0m"))
    }
}
