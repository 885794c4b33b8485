import DawnletCore
import DawnletStore
import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletRunner

/// Issue 15: a plan streamed in slices of days is the whole plan, reminder for reminder and in the
/// same order. The oracle is the straightforward computation: every occurrence of the window
/// (plus the longest lead) planned at once, sorted by fire time and then key text.
@Suite struct PlanStreamTests {
    let berlin = Zone.named("Europe/Berlin")

    /// The whole plan, made the plain way.
    func oracle(_ source: PlanSource, now: Instant, window asked: ClosedRange<Instant>, all: Bool) throws -> [PlannedReminder] {
        let window = asked.lowerBound...max(asked.lowerBound, min(asked.upperBound, PlanSource.latest))
        let definitions = try source.store.items.definitions()
        // Every offset anywhere, whether or not its kind has items: wider than the stream's lead.
        let offsets = source.config.reminders.values.flatMap { $0 } + definitions.flatMap(\.reminders)
        let lead = ((offsets.map(\.exactSeconds).max() ?? 0) + 86_399) / 86_400
        let first = ISO8601.localDate(of: window.lowerBound, in: source.zone).date.adding(days: -1)
        let last = ISO8601.localDate(of: window.upperBound, in: source.zone).date.adding(days: lead + 1)
        let items = try source.items(definitions, money: try PlanSource.MoneySources(source.store), in: first...last, anchoredFrom: first)
        let plan = Planner.plan(
            items: items, overdue: try source.overdueTodos(definitions), rules: PlanRules(config: source.config),
            log: try source.store.log.deliveryLog(since: window.lowerBound), snoozed: try source.store.log.snoozes(),
            now: now, window: window, zone: source.zone, includeSuppressed: all)
        return plan.reminders.enumerated().sorted { a, b in
            a.element.fireAt != b.element.fireAt
                ? a.element.fireAt < b.element.fireAt
                : a.element.key.description != b.element.key.description ? a.element.key.description < b.element.key.description : a.offset < b.offset
        }.map(\.element)
    }

    /// A database of every kind with random schedules, times, offsets, stored rows, money, and a
    /// delivery log with snoozes reaching days ahead.
    func randomDatabase(_ path: String, _ rng: inout SeededRandom, today: CivilDate) throws -> Store {
        let store = try Store(path: path)
        let offsets: [ReminderOffset] = [.minutes(0), .minutes(10), .hours(2), .days(1), .days(3), .weeks(2)]
        for i in 0..<Int.random(in: 20...60, using: &rng) {
            let kind: ItemKind = [.todo, .event, .habit][i % 3]
            let repeating = kind == .habit || Bool.random(using: &rng)
            let schedule = repeating ? randomSchedule(using: &rng, anchoredIn: today.adding(days: -400)...today.adding(days: 30)) : nil
            let time =
                Int.random(in: 0..<4, using: &rng) == 0 ? nil : WallTime(hour: Int.random(in: 0...23, using: &rng), minute: Int.random(in: 0...59, using: &rng))
            let date: CivilDate? = repeating && Bool.random(using: &rng) ? nil : today.adding(days: Int.random(in: -40...120, using: &rng))
            let own = kind == .habit ? [] : (0..<Int.random(in: 0...2, using: &rng)).map { _ in offsets.randomElement(using: &rng)! }
            let id = try store.items.addItem(
                kind: kind, title: "\(kind) \(i) “x”", date: kind == .habit ? nil : date, time: time,
                schedule: schedule, durationMinutes: kind == .event ? 30 : nil, reminders: Array(Set(own)), today: today)
            if let schedule {
                for occurrence in schedule.occurrences(in: today...today.adding(days: 90), defaultAnchor: today) where Int.random(in: 0..<6, using: &rng) == 0 {
                    try store.items.setOccurrence(
                        kind, definitionID: id, date: occurrence, status: kind == .event || Bool.random(using: &rng) ? .skipped : .done)
                }
            }
        }
        for i in 0..<Int.random(in: 0...6, using: &rng) {
            let schedule = Schedule(rule: .monthlyOnDay(interval: 1, day: Int.random(in: 1...31, using: &rng)), anchor: today.adding(days: -60))
            _ = try store.money.addRecurringTransaction(name: "Bill \(i)", amount: Amount(minorUnits: -1_000), schedule: schedule, today: today)
            _ = try store.sources.addSubscription(name: "Sub \(i)", amount: Amount(minorUnits: -500), schedule: schedule, today: today)
            _ = try store.sources.addDebt(
                name: "Debt \(i)", balance: Amount(minorUnits: 10_000), minimum: Amount(minorUnits: 500),
                day: Int.random(in: 1...31, using: &rng), today: today)
        }
        return store
    }

    @Test("streamed in slices of days, a plan equals the whole plan: random databases, windows up to 60 days, with snoozes and settled deliveries")
    func streamedEqualsWhole() throws {
        let seed = SeededRandom.fuzzSeed(15)
        var rng = SeededRandom(seed: seed)
        let folder = try TemporaryFolder()
        let today = CivilDate(year: 2026, month: 12, day: 1)!
        var compared = 0
        for round in 0..<12 {
            let store = try randomDatabase(folder.path("plan-\(round).sqlite"), &rng, today: today)
            var config = Config()
            config.reminders[.todo] = [.minutes(10), .days(1)]
            config.reminders[.bill] = [.days(3)]
            // No income in these databases: its long lead must not be needed, nor change the plan.
            config.reminders[.income] = [.weeks(3)]
            let source = PlanSource(store: store, config: config, zone: berlin)
            let start = berlin.resolve(
                WallTime(hour: Int.random(in: 0...23, using: &rng), minute: 0)!, on: today.adding(days: Int.random(in: -10...40, using: &rng))
            ).instant
            let window = start...start.adding(seconds: Int64.random(in: 3_600...(60 * 86_400), using: &rng))
            let now = start.adding(seconds: Int64.random(in: -86_400...86_400, using: &rng))
            // Deliveries and snoozes on some of what the plan has: settled ones and moved ones.
            for reminder in try oracle(source, now: now, window: window, all: false).shuffled(using: &rng).prefix(8) {
                for channel in reminder.channels {
                    let id = DeliveryID(reminder.key, channel)
                    _ = try store.log.claim(id, kind: reminder.kind, title: reminder.title, fireAt: reminder.fireAt, late: false, now: reminder.fireAt)
                    try store.log.finish(id, state: .delivered, detail: nil, now: reminder.fireAt)
                    if Bool.random(using: &rng) {
                        _ = try store.log.snooze(
                            id, until: reminder.fireAt.adding(seconds: Int64.random(in: 600...(9 * 86_400), using: &rng)), response: "snoozed")
                    }
                }
            }
            for all in [false, true] {
                let expected = try oracle(source, now: now, window: window, all: all)
                let streamed = try source.plan(now: now, window: window, includeSuppressed: all).reminders
                // Stopped part-way (as the runner stops at its budget), the stream is a prefix of the plan.
                let stop = Int.random(in: 0...max(0, expected.count), using: &rng)
                var prefix: [PlannedReminder] = []
                try source.forEachReminder(now: now, window: window, includeSuppressed: all) { reminder in
                    guard prefix.count < stop else { return false }
                    prefix.append(reminder)
                    return true
                }
                #expect(prefix == Array(expected.prefix(stop)), "round \(round), seed \(seed): stopped after \(stop)")
                // Said briefly: what one has and the other lacks, then where the order parts.
                func names(_ plan: [PlannedReminder]) -> [String] { plan.map { "\($0.key)@\($0.fireAt.secondsSinceEpoch)" } }
                let (got, want) = (names(streamed), names(expected))
                #expect(
                    Set(got).subtracting(want).isEmpty && Set(want).subtracting(got).isEmpty,
                    "round \(round), seed \(seed): extra \(Set(got).subtracting(want).sorted()), missing \(Set(want).subtracting(got).sorted())")
                if let i = zip(streamed, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                    Issue.record("round \(round), seed \(seed): reminder \(i) differs: \(got[i]) vs \(want[i])\n\(streamed[i])\n\(expected[i])")
                }
                compared += expected.count
            }
        }
        #expect(compared > 1_000, "the random databases plan too little to compare: \(compared)")
    }
}
