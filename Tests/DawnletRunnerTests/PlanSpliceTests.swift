import DawnletCore
import DawnletStore
import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletApp
@testable import DawnletRunner

/// After a write, the runner re-plans only what changed (`PlanReader.splice`, over what
/// the change feed names). The oracle is the whole plan made again: on random databases and
/// random writes of every sort a person makes (add, edit, done, skip, delete; dated, timed,
/// date-only, repeating, one-off), the spliced plan is it, reminder for reminder and in order.
@Suite struct PlanSpliceTests {
    let berlin = Zone.named("Europe/Berlin")

    /// One write, as the CLI makes it, to a random item; returns what it touched.
    func randomWrite(_ store: Store, _ rng: inout SeededRandom, today: CivilDate) throws -> PlanChanges.Item? {
        let definitions = try store.items.definitions()
        let offsets: [ReminderOffset] = [.minutes(0), .minutes(10), .hours(2), .days(1), .days(3)]
        let time = Bool.random(using: &rng) ? nil : WallTime(hour: Int.random(in: 0...23, using: &rng), minute: Int.random(in: 0...59, using: &rng))
        switch Int.random(in: 0..<11, using: &rng) {
        case 9, 10:
            // A one-off todo due around the window: overdue in the digests after its date.
            let id = try store.items.addItem(
                kind: .todo, title: "due soon", date: today.adding(days: Int.random(in: -6...20, using: &rng)),
                time: time, schedule: nil, today: today)
            return PlanChanges.Item(kind: .todo, id: id)
        case 6:
            return try randomMoneyWrite(store, &rng, today: today)
        case 7, 8:
            guard Bool.random(using: &rng) else { return try randomMoneyWrite(store, &rng, today: today) }
            fallthrough
        case 0, 1:
            let kind: ItemKind = [.todo, .event, .habit][Int.random(in: 0..<3, using: &rng)]
            let repeating = kind == .habit || Bool.random(using: &rng)
            let schedule = repeating ? randomSchedule(using: &rng, anchoredIn: today.adding(days: -60)...today.adding(days: 20)) : nil
            let date: CivilDate? = kind == .habit ? nil : today.adding(days: Int.random(in: -20...30, using: &rng))
            let own = kind == .habit ? [] : Array(Set((0..<Int.random(in: 0...2, using: &rng)).map { _ in offsets.randomElement(using: &rng)! }))
            let id = try store.items.addItem(
                kind: kind, title: "new \(kind)", date: date, time: time, schedule: schedule,
                durationMinutes: kind == .event ? 45 : nil, reminders: own, style: randomStyle(&rng), today: today)
            return PlanChanges.Item(kind: kind.reminderKind, id: id)
        case 2:
            guard var d = definitions.randomElement(using: &rng) else { return nil }
            d.time = time
            d.title = "edited"
            if d.kind != .habit { d.reminders = Bool.random(using: &rng) ? [] : [offsets.randomElement(using: &rng)!] }
            if Bool.random(using: &rng) { d.style = randomStyle(&rng) }
            try store.items.replaceDefinition(d)
            return PlanChanges.Item(kind: d.kind.reminderKind, id: d.id)
        case 3, 4:
            guard let d = definitions.randomElement(using: &rng) else { return nil }
            let dates =
                d.schedule.map { $0.occurrences(in: today.adding(days: -5)...today.adding(days: 20), defaultAnchor: today) } ?? d.date.map { [$0] } ?? []
            guard let date = dates.randomElement(using: &rng) else { return nil }
            let status: OccurrenceStatus = d.kind == .event || Bool.random(using: &rng) ? .skipped : .done
            try store.items.setOccurrence(d.kind, definitionID: d.id, date: date, status: status)
            return PlanChanges.Item(kind: d.kind.reminderKind, id: d.id)
        default:
            guard let d = definitions.randomElement(using: &rng) else { return nil }
            try store.items.delete(d.kind, id: d.id)
            return PlanChanges.Item(kind: d.kind.reminderKind, id: d.id)
        }
    }

    /// An item's own way of reminding, now and then: a nag of its own, its kind's nag turned off,
    /// an urgency (a critical one passes quiet hours); mostly none.
    func randomStyle(_ rng: inout SeededRandom) -> ReminderStyle? {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return ReminderStyle(nag: .seconds([60, 300, 900][Int.random(in: 0..<3, using: &rng)]))
        case 1: return ReminderStyle(nag: .zero)
        case 2: return ReminderStyle(urgency: Bool.random(using: &rng) ? .critical : .low)
        case 3: return ReminderStyle(nag: .seconds(600), urgency: .critical)
        default: return nil
        }
    }

    /// Quiet hours as a person sets them, in most rounds: overnight or inside a day, on some days,
    /// for some kinds; a critical reminder passing them or not.
    func randomQuietHours(_ rng: inout SeededRandom) -> QuietHours? {
        guard Int.random(in: 0..<4, using: &rng) > 0 else { return nil }
        let from = WallTime(hour: Int.random(in: 0...23, using: &rng), minute: [0, 15, 30, 59][Int.random(in: 0..<4, using: &rng)])!
        var to = WallTime(hour: Int.random(in: 0...23, using: &rng), minute: [0, 30][Int.random(in: 0..<2, using: &rng)])!
        if to == from { to = WallTime(hour: (from.hour + 7) % 24, minute: from.minute)! }
        var quiet = QuietHours(from: from, to: to)
        if Bool.random(using: &rng) { quiet.days = WeekdaySet(rawValue: UInt8.random(in: 1...127, using: &rng)) }
        if Bool.random(using: &rng) {
            let some = ReminderKind.allCases.filter { _ in Bool.random(using: &rng) }
            quiet.kinds = Set(some.isEmpty ? [.todo] : some)
        }
        quiet.criticalPasses = Int.random(in: 0..<4, using: &rng) > 0
        return quiet
    }

    /// What a person or the runner does with a reminder that went out: snoozed (for minutes or
    /// days), the snooze called off, answered (done, dismissed) or closed by the server, or a
    /// planned one going out (the first time, or a nag's return). What the person does reaches the
    /// change feed (`feed`); what goes out the runner splices for itself (`also`), as it does
    /// after a delivery whose item nags.
    func randomLogWrite(_ store: Store, _ rng: inout SeededRandom, plan: Plan, delivered: inout [DeliveryID]) throws -> (
        feed: PlanChanges.Item?, also: PlanChanges.Item?
    ) {
        func item(_ id: DeliveryID) -> PlanChanges.Item? { id.key.item.map { PlanChanges.Item(kind: $0.kind, id: $0.id) } }
        func row(_ id: DeliveryID) throws -> Delivery? { try store.log.deliveries(of: id.key).first { $0.channel == id.channel } }
        switch Int.random(in: 0..<5, using: &rng) {
        case 0:
            guard let id = delivered.randomElement(using: &rng), let row = try row(id) else { return (nil, nil) }
            let until = row.fireAt.adding(seconds: Int64.random(in: 300...(4 * 86_400), using: &rng))
            return (try store.log.snooze(id, until: until, from: .terminal, words: "snoozed") ? item(id) : nil, nil)
        case 1:
            guard let id = delivered.randomElement(using: &rng) else { return (nil, nil) }
            return (try store.log.unsnooze(id) ? item(id) : nil, nil)
        case 2:
            guard let id = delivered.randomElement(using: &rng), let before = try row(id) else { return (nil, nil) }
            let response = ["done", "dismissed", CloseReason.expired.description][Int.random(in: 0..<3, using: &rng)]
            // The server's closing is recorded only where nothing was said yet (`Runner.closed`).
            if response == CloseReason.expired.description && before.response != nil { return (nil, nil) }
            // Said to the feed when it calls a snooze off or answers one still waiting.
            let noted = before.snoozedUntil != nil || (before.state == .delivered && !before.answered && response != CloseReason.expired.description)
            try store.log.respond(id, Answer(code: response) ?? .expired, from: response == "expired" ? .server : .terminal, words: response)
            return (noted ? item(id) : nil, nil)
        default:
            // Of our own items: a digest's delivery is one the runner plans whole for.
            let planned = plan.reminders.filter { $0.key.item != nil && $0.status != .settled }
            guard let reminder = planned.randomElement(using: &rng), let channel = reminder.channels.randomElement(using: &rng) else { return (nil, nil) }
            let id = DeliveryID(reminder.key, channel)
            let claim = Store.Log.Claim(
                id, title: reminder.title, fireAt: reminder.heldFrom ?? reminder.fireAt, late: false,
                isRepeat: reminder.repetition > 0)
            guard try store.log.claim([claim], now: reminder.fireAt) == [true] else { return (nil, nil) }
            try store.log.finish(id, state: .delivered, detail: nil, now: reminder.fireAt)
            delivered.append(id)
            return (nil, item(id))
        }
    }

    /// One write to the money calendar, as the CLI makes it: a new bill, subscription, debt,
    /// goal or income; a bill's date skipped or paid; a payment logged; a subscription paused.
    func randomMoneyWrite(_ store: Store, _ rng: inout SeededRandom, today: CivilDate) throws -> PlanChanges.Item? {
        let monthly = Schedule(rule: .monthlyOnDay(interval: 1, day: Int.random(in: 1...31, using: &rng)), anchor: today.adding(days: -40))
        let amount = Amount(minorUnits: -Int64.random(in: 100...10_000, using: &rng))
        switch Int.random(in: 0..<10, using: &rng) {
        case 0:
            return PlanChanges.Item(
                kind: .bill, id: try store.money.addRecurringTransaction(name: "new bill", amount: amount, schedule: monthly, today: today))
        case 1:
            return PlanChanges.Item(
                kind: .subscription, id: try store.sources.addSubscription(name: "new sub", amount: amount, schedule: monthly, today: today))
        case 2:
            let id = try store.sources.addDebt(
                name: "new debt", balance: Amount(minorUnits: 50_000), minimum: Amount(minorUnits: 1_000),
                day: Int.random(in: 1...31, using: &rng), today: today)
            return PlanChanges.Item(kind: .debt, id: id)
        case 3:
            let id = try store.sources.addGoal(
                name: "new goal", target: Amount(minorUnits: 100_000), by: today.adding(days: Int.random(in: 1...30, using: &rng)), today: today)
            return PlanChanges.Item(kind: .goal, id: id)
        case 4:
            return PlanChanges.Item(
                kind: .income, id: try store.sources.addIncome(name: "pay", amount: Amount(minorUnits: 300_000), schedule: monthly, today: today))
        case 5:
            guard let bill = try store.money.recurringTransactions().randomElement(using: &rng),
                let date = bill.schedule.occurrences(in: today.adding(days: -5)...today.adding(days: 25), defaultAnchor: today).randomElement(using: &rng)
            else { return nil }
            // A date skipped or paid already is refused, and writes nothing.
            let done: ()? =
                Bool.random(using: &rng)
                ? try? store.money.skipTransaction(definitionID: bill.id, date: date)
                : try? store.money.markTransactionPaid(definitionID: bill.id, date: date)
            return done == nil ? nil : PlanChanges.Item(kind: .bill, id: bill.id)
        case 6, 7, 8:
            let debt = Bool.random(using: &rng)
            let ids = debt ? try store.sources.debts().map(\.id) : try store.sources.subscriptions().map(\.id)
            guard let id = ids.randomElement(using: &rng) else { return nil }
            // A paused subscription or a period logged already is refused, and writes nothing.
            guard
                (try? store.sources.logPayment(
                    for: debt ? .debt : .subscription, id: id, on: today.adding(days: Int.random(in: -3...10, using: &rng)), amount: nil)) != nil
            else { return nil }
            return PlanChanges.Item(kind: debt ? .debt : .subscription, id: id)
        default:
            guard let subscription = try store.sources.subscriptions().randomElement(using: &rng) else { return nil }
            try store.sources.setSubscriptionActive(id: subscription.id, !subscription.active)
            return PlanChanges.Item(kind: .subscription, id: subscription.id)
        }
    }

    /// The whole plan made again from scratch, in one piece: every item of the window (and of the
    /// longest lead before it) planned at once by `Planner.plan`, with the rules, the delivery log
    /// and the snoozes the runner's plans read. (Not `PlanReader.plan`, which plans in slices:
    /// `PlanStreamTests` holds the slices to this same one-piece plan.)
    func wholePlan(_ source: PlanReader, now: Instant, window: ClosedRange<Instant>) throws -> Plan {
        let store = source.store
        let definitions = try store.items.definitions()
        let money = try PlanReader.MoneySources(store)
        let range = source.dates(window, lead: source.longestLeadDays(definitions, money: money))
        return Planner.plan(
            items: try source.items(definitions, money: money, in: range, anchoredFrom: range.lowerBound),
            overdue: try source.overdueTodos(definitions), rules: source.rules(definitions, databaseBegan: try store.log.createdAt()),
            log: try store.log.deliveryLog(since: source.logSince(window)), snoozed: try store.log.snoozes(), now: now, window: window,
            zone: source.zone)
    }

    @Test("a plan spliced after random writes equals the whole plan made again, and the change feed names what was written")
    func splicedEqualsWhole() throws {
        let seed = SeededRandom.fuzzSeed(15)
        var rng = SeededRandom(seed: seed)
        let folder = try TemporaryFolder()
        let today = CivilDate(year: 2026, month: 12, day: 1)!
        var compared = 0
        // Reminders of what this test adds compared: held for quiet hours, a nag's returns, snoozes.
        var (held, returns, snoozes) = (0, 0, 0)
        for round in 0..<16 {
            let store = try PlanStreamTests().randomDatabase(folder.path("splice-\(round).sqlite"), &rng, today: today)
            // Debts and subscriptions due around the window, for payments to be logged against.
            for i in 0..<3 {
                _ = try store.sources.addDebt(
                    name: "Debt \(i)", balance: Amount(minorUnits: 90_000), minimum: Amount(minorUnits: 2_000),
                    day: Int.random(in: 1...28, using: &rng), today: today)
                let renewal = Schedule(rule: .monthlyOnDay(interval: 1, day: Int.random(in: 1...28, using: &rng)), anchor: today.adding(days: -90))
                _ = try store.sources.addSubscription(name: "Sub \(i)", amount: Amount(minorUnits: -900), schedule: renewal, today: today)
            }
            var config = Config()
            config.reminders[.todo] = [.minutes(10), .days(1)]
            // Quiet hours in most rounds; a kind's nag in some (items have nags of their own too).
            config.quietHours = randomQuietHours(&rng)
            if Bool.random(using: &rng) {
                config.nag[[.todo, .event, .habit][Int.random(in: 0..<3, using: &rng)]] = .seconds([120, 600, 1_800][Int.random(in: 0..<3, using: &rng)])
            }
            config.nagFor = .seconds(Int64.random(in: 1_800...14_400, using: &rng))
            if Bool.random(using: &rng) { config.desktop.urgency[.todo] = .critical }
            // Some of the items nag, or ask to be critical, on their own.
            for var definition in try store.items.definitions() where Int.random(in: 0..<3, using: &rng) == 0 {
                definition.style = randomStyle(&rng)
                try store.items.replaceDefinition(definition)
            }
            let source = PlanReader(store: store, config: config, zone: berlin)
            let start = berlin.resolve(
                WallTime(hour: Int.random(in: 0...23, using: &rng), minute: 0)!, on: today.adding(days: Int.random(in: -5...10, using: &rng))
            ).instant
            let window = start...start.adding(seconds: Int64.random(in: 3_600...(20 * 86_400), using: &rng))
            let now = start.adding(seconds: Int64.random(in: -3_600...86_400, using: &rng))
            // Some of it delivered: a spliced reminder's status comes from the log as a whole plan's does.
            // Of those, some answered (no nag brings them back), some snoozed (some of them gone out
            // again at the snooze's end), some brought back by a nag already; the rest wait for an
            // answer, and their items' nags plan returns.
            var delivered: [DeliveryID] = []
            for reminder in try source.plan(now: now, window: window).reminders.shuffled(using: &rng).prefix(16) {
                for channel in reminder.channels {
                    let id = DeliveryID(reminder.key, channel)
                    _ = try store.log.claim(id, title: reminder.title, fireAt: reminder.fireAt, late: false, now: reminder.fireAt)
                    try store.log.finish(id, state: .delivered, detail: nil, now: reminder.fireAt)
                    guard reminder.key.item != nil else { continue }
                    delivered.append(id)
                    switch Int.random(in: 0..<6, using: &rng) {
                    case 0: try store.log.respond(id, .done, from: .terminal, words: "done")
                    case 1:
                        _ = try store.log.snooze(
                            id, until: reminder.fireAt.adding(seconds: Int64.random(in: 300...(3 * 86_400), using: &rng)), from: .terminal, words: "snoozed")
                    case 2:
                        // Back once already, some minutes after it first went out.
                        let back = reminder.fireAt.adding(seconds: Int64.random(in: 60...900, using: &rng))
                        let claim = Store.Log.Claim(id, title: reminder.title, fireAt: reminder.fireAt, late: false, isRepeat: true)
                        _ = try store.log.claim([claim], now: back)
                        try store.log.finish(id, state: .delivered, detail: nil, now: back)
                    case 3:
                        // Snoozed for days and gone out again at the snooze's end: a nag's returns
                        // count from there, days after the reminder's date.
                        let until = reminder.fireAt.adding(seconds: Int64.random(in: 86_400...(3 * 86_400), using: &rng))
                        _ = try store.log.snooze(id, until: until, from: .terminal, words: "snoozed")
                        _ = try store.log.claim(id, title: reminder.title, fireAt: reminder.fireAt, late: false, now: until)
                        try store.log.finish(id, state: .delivered, detail: nil, now: until)
                    default: break
                    }
                }
            }
            var plan = try wholePlan(source, now: now, window: window)
            var position = try store.changePosition()
            for step in 0..<6 {
                var written = Set<PlanChanges.Item>()
                // What went out meanwhile: the runner splices those items too, as it does after a
                // delivery (the feed does not name them).
                var sent = Set<PlanChanges.Item>()
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    if Int.random(in: 0..<3, using: &rng) == 0 {
                        let (feed, also) = try randomLogWrite(store, &rng, plan: plan, delivered: &delivered)
                        if let feed { written.insert(feed) }
                        if let also { sent.insert(also) }
                    } else if let source = try randomWrite(store, &rng, today: today) {
                        written.insert(source)
                    }
                }
                let changes = try store.changes(after: position)
                #expect(!changes.wholePlan && changes.sources == written, "round \(round) step \(step): the feed says \(changes), written \(written)")
                position = changes.position
                var spliced = plan
                #expect(try source.splice(&spliced, changes: changes.sources.union(sent), now: now, window: window))
                let whole = try wholePlan(source, now: now, window: window)
                func names(_ plan: Plan) -> [String] { plan.reminders.map { "\($0.key)@\($0.fireAt.secondsSinceEpoch)" } }
                #expect(
                    names(spliced) == names(whole),
                    "round \(round) step \(step), seed \(seed): written \(written), sent \(sent); window \(window), now \(now), quiet \(String(describing: config.quietHours))"
                )
                if let i = zip(spliced.reminders, whole.reminders).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                    Issue.record("round \(round) step \(step), seed \(seed): reminder \(i) differs:\n\(spliced.reminders[i])\n\(whole.reminders[i])")
                }
                // Made in slices, as the runner makes a whole plan, it is that plan too. Here reminders
                // come back far from their dates (a nag's returns after a snooze of days) and are held
                // into the window by quiet hours: the stream's own random databases neither nag nor
                // keep quiet hours.
                let sliced = try source.plan(now: now, window: window)
                #expect(
                    names(sliced) == names(whole),
                    "round \(round) step \(step), seed \(seed), sliced: extra \(Set(names(sliced)).subtracting(names(whole)).sorted()), missing \(Set(names(whole)).subtracting(names(sliced)).sorted())"
                )
                compared += whole.reminders.count
                held += whole.reminders.count { $0.heldFrom != nil }
                returns += whole.reminders.count { $0.repetition > 0 }
                snoozes += whole.reminders.count { $0.snoozed }
                plan = spliced
            }
        }
        #expect(compared > 1_000, "the random databases plan too little to compare: \(compared)")
        #expect(held > 20 && returns > 20 && snoozes > 20, "too few held (\(held)), nag returns (\(returns)) or snoozes (\(snoozes)) compared")
    }

    @Test("the change feed: a bill names its source; a read past the limit and a gap where rows were dropped ask for a whole plan")
    func feed() throws {
        let folder = try TemporaryFolder()
        let store = try Store(path: folder.path("feed.sqlite"))
        let today = CivilDate(year: 2026, month: 12, day: 1)!
        let start = try store.changePosition()
        let bill = try store.money.addRecurringTransaction(
            name: "Rent", amount: Amount(minorUnits: -100), schedule: Schedule(rule: .monthlyOnDay(interval: 1, day: 1)), today: today)
        let changes = try store.changes(after: start)
        #expect(changes.sources == [PlanChanges.Item(kind: .bill, id: bill)] && !changes.wholePlan)
        // More than a read takes: a whole plan.
        #expect(try store.changes(after: start, limit: 0).wholePlan)
        // 2,100 writes: the feed keeps the newest 1,000 or more, and says it dropped the rest.
        for i in 0..<2_100 { _ = try store.items.addItem(kind: .todo, title: "t\(i)", date: today, time: nil, schedule: nil, today: today) }
        #expect(try store.changes(after: start, limit: 10_000).wholePlan)
        #expect(try store.changes(after: start + 1_500, limit: 10_000).wholePlan == false)
        let recent = try store.changePosition() - 5
        let last = try store.changes(after: recent)
        #expect(!last.wholePlan && last.sources.count == 5 && last.position == recent + 5)
    }
}
