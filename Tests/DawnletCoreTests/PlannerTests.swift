import DawnletTestSupport
import Foundation
import Testing

@testable import DawnletCore

@Suite struct PlannerTests {
    static let berlin = Zone.named("Europe/Berlin")
    let rules = PlanRules(config: Config())

    func at(_ text: String, _ zone: Zone = PlannerTests.berlin) -> Instant {
        guard let instant = ISO8601.parse(text, zone: zone) else { preconditionFailure(text) }
        return instant
    }

    func plan(
        _ items: [PlanItem], overdue: [PlanItem] = [], now: String = "2026-03-20T00:00", from: String = "2026-03-20T00:00",
        to: String = "2026-04-05T00:00", delivered: [DeliveryID] = [], all: Bool = false, zone: Zone = PlannerTests.berlin
    ) -> Plan {
        Planner.plan(
            items: items, overdue: overdue, rules: rules, log: PlannerTests.log(delivered), now: at(now, zone),
            window: at(from, zone)...at(to, zone), zone: zone, includeSuppressed: all)
    }

    func fires(_ plan: Plan) -> [String] {
        plan.reminders.map { "\($0.key) \(ISO8601.format($0.fireAt, utcOffset: $0.utcOffset))" }
    }

    @Test("a timed event 10 minutes before by default; a todo at its time")
    func defaults() {
        let event = PlanItem(kind: .event, definitionID: 1, date: date("2026-03-24"), time: WallTime("09:30"), title: "Standup", source: .virtual)
        let todo = PlanItem(kind: .todo, definitionID: 2, date: date("2026-03-24"), time: WallTime("18:00"), title: "Call", source: .virtual)
        #expect(fires(plan([event, todo])) == ["event:1:2026-03-24:10m 2026-03-24T09:20:00+01:00", "todo:2:2026-03-24:0m 2026-03-24T18:00:00+01:00"])
    }

    @Test("a time in the spring-forward gap fires after it, and says so")
    func gap() throws {
        let habit = PlanItem(kind: .habit, definitionID: 1, date: date("2026-03-29"), time: WallTime("02:30"), title: "Meds", source: .virtual)
        let p = plan([habit])
        #expect(fires(p) == ["habit:1:2026-03-29:0m 2026-03-29T03:30:00+02:00"])
        #expect(try #require(p.reminders.first).why.contains { $0.contains("DST gap") })
    }

    @Test("days are calendar days across DST; hours are exact")
    func nominalAndExact() {
        // 09:00 CEST on the 29th is 07:00Z. 24 hours before is 07:00Z on the 28th: 08:00 CET.
        // One day before is 09:00 on the 28th, whatever the clock change did between.
        let event = PlanItem(
            kind: .event, definitionID: 1, date: date("2026-03-29"), time: WallTime("09:00"), title: "Review",
            source: .virtual, offsets: [.days(1), .hours(24)])
        let expected = ["event:1:2026-03-29:24h 2026-03-28T08:00:00+01:00", "event:1:2026-03-29:1d 2026-03-28T09:00:00+01:00"]
        #expect(fires(plan([event])) == expected)
    }

    @Test(
        "never of a time before it existed: an item's reminders before it was made, and a digest before the database began, are not planned; a bound still to come is not trusted"
    )
    func notBeforeItExisted() {
        // Made at 18:37 on the 24th: the habit's 07:00 that day, and the 19:00 todo's reminder an
        // hour ahead (18:00), are of before.
        let made = at("2026-03-24T18:37").secondsSinceEpoch
        func habit(_ day: String) -> PlanItem {
            PlanItem(
                kind: .habit, definitionID: 1, date: date(day), time: WallTime("07:00"), title: "Run", source: .virtual,
                offsets: .init([.minutes(0)]), suppression: nil, detail: nil, note: nil, notBefore: made)
        }
        let todo = PlanItem(
            kind: .todo, definitionID: 2, date: date("2026-03-24"), time: WallTime("19:00"), title: "Call", source: .virtual,
            offsets: .init([.hours(1), .minutes(0)]), suppression: nil, detail: nil, note: nil, notBefore: made)
        let items = [habit("2026-03-24"), habit("2026-03-25"), todo]
        let window = (from: "2026-03-24T00:00", to: "2026-03-26T00:00")
        #expect(
            fires(plan(items, now: "2026-03-24T18:40", from: window.from, to: window.to)) == [
                "todo:2:2026-03-24:0m 2026-03-24T19:00:00+01:00", "habit:1:2026-03-25:0m 2026-03-25T07:00:00+01:00",
            ])
        // A clock that reads earlier than the item's making: the bound is not trusted, all is planned.
        #expect(fires(plan(items, now: "2026-03-24T06:00", from: window.from, to: window.to)).count == 4)
        // The database began at 18:37: that day's 08:00 digest is nobody's; the next day's goes out.
        var began = rules
        began.databaseBegan = Instant(secondsSinceEpoch: made)
        let dateOnly = PlanItem(kind: .todo, definitionID: 3, date: date("2026-03-24"), time: nil, title: "Bins", source: .virtual)
        let later = PlanItem(kind: .todo, definitionID: 4, date: date("2026-03-25"), time: nil, title: "Books", source: .virtual)
        let digests = Planner.plan(
            items: [dateOnly, later], overdue: [], rules: began, log: [:], now: at("2026-03-24T18:40"),
            window: at(window.from)...at(window.to), zone: PlannerTests.berlin)
        #expect(fires(digests) == ["digest:2026-03-25 2026-03-25T08:00:00+01:00"])
    }

    /// A delivery log where each of `ids` was delivered.
    static func log(_ ids: [DeliveryID]) -> [DeliveryID: Settlement] {
        Dictionary(uniqueKeysWithValues: ids.map { ($0, Settlement(.delivered, at: nil)) })
    }

    /// The runner's next wake for a plan, as `serve` computes it.
    func nextWake(_ plan: Plan, now: String, planEnds: String = "2027-01-01T00:00") -> Instant {
        Dispatcher.decide(plan.reminders, retries: [:], now: at(now), policy: rules.policy, planEnds: at(planEnds)).nextWake
    }

    @Test("skipped, done and logged produce nothing, unless --all asks, with the reason")
    func suppressed() {
        let items = [
            PlanItem(kind: .todo, definitionID: 1, date: date("2026-03-24"), time: WallTime("09:00"), title: "A", source: .stored, suppression: .skipped),
            PlanItem(kind: .habit, definitionID: 2, date: date("2026-03-24"), time: WallTime("07:00"), title: "B", source: .stored, suppression: .done),
            PlanItem(kind: .subscription, definitionID: 3, date: date("2026-03-24"), time: nil, title: "C", source: .stored, suppression: .logged),
        ]
        #expect(plan(items).reminders.isEmpty)
        let all = plan(items, all: true)
        #expect(all.reminders.map(\.status) == [.suppressed(.done), .suppressed(.logged), .suppressed(.skipped)])
        #expect(nextWake(all, now: "2026-03-20T00:00") == at("2027-01-01T00:00"))
    }

    @Test("the morning digest: date-only items of the day, days-ahead items, overdue one-offs")
    func digest() throws {
        let items = [
            PlanItem(kind: .bill, definitionID: 1, date: date("2026-03-24"), time: nil, title: "Rent", source: .virtual, detail: "-950.00"),
            PlanItem(kind: .debt, definitionID: 2, date: date("2026-03-27"), time: nil, title: "Card", source: .virtual),
            PlanItem(kind: .goal, definitionID: 3, date: date("2026-03-31"), time: nil, title: "Holiday", source: .virtual),
        ]
        var rules = Config()
        rules.reminders[.debt] = [.minutes(0), .days(3)]
        let overdue = [PlanItem(kind: .todo, definitionID: 9, date: date("2026-03-23"), time: nil, title: "Tax form", source: .virtual)]
        let p = Planner.plan(
            items: items, overdue: overdue, rules: PlanRules(config: rules), log: [:], now: at("2026-03-24T00:00"),
            window: at("2026-03-24T00:00")...at("2026-03-24T23:59"), zone: Self.berlin)
        let digest = try #require(p.reminders.first)
        #expect(p.reminders.count == 1)
        #expect(digest.key == .digest(date("2026-03-24")))
        #expect(ISO8601.format(digest.fireAt, utcOffset: digest.utcOffset) == "2026-03-24T08:00:00+01:00")
        // Rent today, the card due in 3 days, the holiday goal in 7; the overdue todo last.
        #expect(digest.items.map(\.title) == ["Rent", "Card", "Holiday", "Tax form"])
        #expect(digest.body == "bill: Rent -950.00\ndebt: Card (2026-03-27)\ngoal: Holiday (2026-03-31)\noverdue since 2026-03-23: Tax form")
        #expect(digest.channels == [.desktop])
    }

    @Test("keys are stable across re-plans at different times")
    func stableKeys() {
        let items = (1...5).map {
            PlanItem(kind: .event, definitionID: Int64($0), date: date("2026-03-2\($0)"), time: WallTime("10:00"), title: "E", source: .virtual)
        }
        let early = plan(items, now: "2026-03-20T00:00")
        let later = plan(items, now: "2026-03-22T12:00")
        #expect(early.reminders.map(\.key) == later.reminders.map(\.key))
        #expect(early.reminders.map(\.fireAt) == later.reminders.map(\.fireAt))
    }

    @Test("past reminders: late inside the grace window, missed beyond it, delivered when logged; next wake")
    func statuses() throws {
        let items = [
            PlanItem(kind: .todo, definitionID: 1, date: date("2026-03-24"), time: WallTime("09:00"), title: "Old", source: .virtual),
            PlanItem(kind: .todo, definitionID: 2, date: date("2026-03-24"), time: WallTime("20:00"), title: "Recent", source: .virtual),
            PlanItem(kind: .todo, definitionID: 3, date: date("2026-03-24"), time: WallTime("21:00"), title: "Sent", source: .virtual),
            PlanItem(kind: .todo, definitionID: 4, date: date("2026-03-25"), time: WallTime("10:00"), title: "Next", source: .virtual),
        ]
        let p = plan(
            items, now: "2026-03-24T22:00", from: "2026-03-24T00:00", to: "2026-03-26T00:00",
            delivered: [DeliveryID(.item(.todo, id: 3, date: date("2026-03-24"), offset: .minutes(0)), .desktop)])
        #expect(p.reminders.map(\.status) == [.missed, .late, .settled, .pending])
        #expect(p.reminders[2].settled == [.desktop: Settlement(.delivered, at: nil)])
        // The late one goes out now; then the runner sleeps until the pending one.
        #expect(nextWake(p, now: "2026-03-24T22:00") == at("2026-03-25T10:00"))
        let calm = plan([items[3]], now: "2026-03-24T22:00", from: "2026-03-24T00:00", to: "2026-03-26T00:00")
        #expect(nextWake(calm, now: "2026-03-24T22:00") == at("2026-03-25T10:00"))
    }

    @Test("a repeated hour fires once, at the first 01:30 (America/New_York)")
    func repeatedHour() throws {
        let ny = Zone.named("America/New_York")
        let item = PlanItem(kind: .habit, definitionID: 1, date: date("2026-11-01"), time: WallTime("01:30"), title: "Meds", source: .virtual)
        let p = plan([item], now: "2026-10-31T00:00", from: "2026-10-31T00:00", to: "2026-11-02T00:00", zone: ny)
        #expect(fires(p) == ["habit:1:2026-11-01:0m 2026-11-01T01:30:00-04:00"])
    }

    @Test("a snoozed channel fires again at its new instant; the reminder's other channels keep theirs")
    func snoozed() throws {
        let todo = PlanItem(kind: .todo, definitionID: 2, date: date("2026-03-24"), time: WallTime("18:00"), title: "Call", source: .virtual)
        var config = Config()
        config.defaultRoute = [.desktop, .command]
        let key = ReminderKey.item(.todo, id: 2, date: date("2026-03-24"), offset: .minutes(0))
        let p = Planner.plan(
            items: [todo], overdue: [], rules: PlanRules(config: config),
            log: PlannerTests.log([DeliveryID(key, .desktop), DeliveryID(key, .command)]),
            snoozed: [DeliveryID(key, .desktop): at("2026-03-24T18:10")], now: at("2026-03-24T18:05"),
            window: at("2026-03-24T00:00")...at("2026-03-25T00:00"), zone: PlannerTests.berlin)
        #expect(fires(p) == ["todo:2:2026-03-24:0m 2026-03-24T18:00:00+01:00", "todo:2:2026-03-24:0m 2026-03-24T18:10:00+01:00"])
        #expect(p.reminders.map(\.channels) == [[.command], [.desktop]])
        #expect(p.reminders.map(\.status) == [.settled, .pending])
        #expect(p.reminders.map(\.snoozed) == [false, true])
        #expect(p.reminders[1].why.last == "snoozed on desktop until 18:10")
        #expect(nextWake(p, now: "2026-03-24T18:05") == at("2026-03-24T18:10"))
        // Done since: the snooze fires nothing.
        let done = PlanItem(
            kind: .todo, definitionID: 2, date: date("2026-03-24"), time: WallTime("18:00"), title: "Call", source: .stored,
            suppression: .done)
        let after = Planner.plan(
            items: [done], overdue: [], rules: PlanRules(config: config), log: [:],
            snoozed: [DeliveryID(key, .desktop): at("2026-03-24T18:10")], now: at("2026-03-24T18:05"),
            window: at("2026-03-24T00:00")...at("2026-03-25T00:00"), zone: PlannerTests.berlin)
        #expect(after.reminders.isEmpty)
    }

    @Test("the fire order's radix sort puts instants in order and keeps the order of reminders at one instant")
    func radixSortIsStable() {
        var rng = SeededRandom(seed: 42)
        for span in [0, 1, 59, 2_047, 2_048, 86_400 * 5, 1 << 22, (1 << 32) - 1] as [UInt64] {
            for count in [0, 1, 2, 17, 5_000] {
                var keys = (0..<count).map { UInt64.random(in: 0...span, using: &rng) << 32 | UInt64($0) }
                let expected = keys.sorted()
                Planner.radixSort(&keys, spanning: span)
                #expect(keys == expected, "span \(span), \(count) keys")
            }
        }
    }

    @Test("keys compared by their parts order as their texts do: kinds, ids of any length, dates, offsets, digests and calendars")
    func keysOrderAsTheirText() {
        var rng = SeededRandom(seed: 7)
        let kinds = ReminderKind.allCases.filter { $0 != .calendar }
        let offsets: [ReminderOffset] = [.minutes(0), .minutes(10), .minutes(60), .hours(1), .hours(12), .days(1), .days(10), .weeks(2)]
        let ids: [Int64] = [1, 2, 9, 10, 12, 19, 2_000, 123, 1_234_567, Int64.max, 0]
        func key() -> ReminderKey {
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: return .digest(CivilDate(dayNumber: Int.random(in: -800_000...2_000_000, using: &rng)))
            case 1:
                return ReminderKey(["ics:home:ä:0m", "ics:home:a:0m", "ics:work:x:alarm:2027-01-01T00:00:00"].randomElement(using: &rng)!)!
            default:
                let id = Bool.random(using: &rng) ? ids.randomElement(using: &rng)! : Int64.random(in: 1...99_999, using: &rng)
                // Mostly near one another, so ids, dates and offsets are each compared; some out
                // of the four-digit years.
                let day =
                    Int.random(in: 0..<20, using: &rng) == 0 ? Int.random(in: -800_000...3_000_000, using: &rng) : 20_800 + Int.random(in: 0...3, using: &rng)
                return .item(
                    kinds.randomElement(using: &rng)!, id: id, date: CivilDate(dayNumber: day), offset: offsets.randomElement(using: &rng)!)
            }
        }
        var wrong: [String] = []
        for _ in 0..<20_000 {
            let (a, b) = (key(), key())
            if a.precedes(b) != (a.description < b.description) { wrong.append("\(a) vs \(b)") }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
        // Ids whose digits start the same: the longer first, as "12:" orders before "1:".
        #expect(
            ReminderKey.item(.todo, id: 12, date: CivilDate(dayNumber: 20_800), offset: .minutes(0)).precedes(
                .item(.todo, id: 1, date: CivilDate(dayNumber: 20_800), offset: .minutes(0))))
    }

    @Test("an item's own offsets read back as given, kept in their shortest form: items of equal lists are equal")
    func itemOffsets() {
        let date = CivilDate(year: 2026, month: 12, day: 1)!
        func item(_ offsets: [ReminderOffset]) -> PlanItem {
            PlanItem(kind: .todo, definitionID: 1, date: date, time: WallTime(hour: 9, minute: 0), title: "t", source: .virtual, offsets: offsets)
        }
        for list: [ReminderOffset] in [[], [.minutes(10)], [.days(1), .hours(2), .minutes(0)]] {
            let a = item(list)
            #expect(a.offsets == list)
            #expect(a.ownOffsetCount == list.count)
            #expect((0..<list.count).map(a.ownOffset) == list)
            let b = PlanItem(
                kind: .todo, definitionID: 1, date: date, time: WallTime(hour: 9, minute: 0), title: "t", source: .virtual,
                offsets: PlanItem.Offsets(list), suppression: nil, detail: nil, note: nil)
            #expect(a == b && a.hashValue == b.hashValue)
        }
        #expect(item([.minutes(10)]) != item([.minutes(5)]))
        #expect(item([]) != item([.minutes(0)]))
    }
}
