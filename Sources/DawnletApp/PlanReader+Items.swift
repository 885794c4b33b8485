import DawnletCore
import DawnletStore
import DawnletSystem
import Dispatch
import FoundationEssentials

extension PlanReader {
    /// The money sources a plan reads once: their occurrences are worked out per slice.
    public struct MoneySources: Sendable {
        let bills: [RecurringTransaction]
        let subscriptions: [Subscription]
        let debts: [Debt]
        let goals: [Goal]
        let incomes: [IncomeSource]
        let payments: [Payment]

        /// None: for a plan of some organizer items only.
        init() {
            (bills, subscriptions, debts, goals, incomes, payments) = ([], [], [], [], [], [])
        }

        /// Every source; with `ids`, only the ones it names, by the kind of their reminders, and
        /// their payments (a re-plan of what changed).
        public init(_ store: Store, only ids: [ReminderKind: Set<Int64>]? = nil) throws {
            func some(_ kind: ReminderKind) -> Set<Int64>? { ids.map { $0[kind] ?? [] } }
            bills = try store.money.recurringTransactions(ids: some(.bill))
            subscriptions = try store.sources.subscriptions(ids: some(.subscription))
            debts = try store.sources.debts(ids: some(.debt))
            goals = try store.sources.goals(ids: some(.goal))
            incomes = try store.sources.incomeSources(ids: some(.income))
            payments = try store.sources.payments(of: ids.map { ($0[.subscription] ?? [], $0[.debt] ?? [], $0[.goal] ?? []) })
        }
    }

    /// Merged, skip-honouring occurrences of every module and money source in `range`, as plan
    /// items. A schedule with no anchor of its own counts from `anchoredFrom` (the whole plan's
    /// first date), so that a slice's items are the whole plan's on those dates.
    public func items(
        _ definitions: [ItemDefinition], money: MoneySources, in range: ClosedRange<CivilDate>,
        anchoredFrom anchor: CivilDate, stored given: [StoredOccurrence]? = nil
    ) throws -> [PlanItem] {
        PlanReader.items(
            definitions, offsets: OffsetLists(definitions, lists: config.lists), zones: zoneBoxes(definitions), money: money, in: range, anchoredFrom: anchor,
            stored: try given ?? store.items.storedOccurrences(in: range),
            bills: money.bills.isEmpty ? [] : try store.money.transactions(in: range))
    }

    /// The distinct lists of offsets of some definitions, and which list each has (by the
    /// definitions' order): worked out once per plan, so that a slice finds a definition's by
    /// index, not by hashing it.
    struct OffsetLists: Sendable {
        let lists: [[ReminderOffset]]
        /// −1: none of its own.
        let index: [Int32]
        /// The lists (tags) items remind as (`ReminderLists.reminding`).
        let reminderLists: ReminderLists

        init(_ definitions: [ItemDefinition], lists reminderLists: ReminderLists) {
            self.reminderLists = reminderLists
            var found: [[ReminderOffset]: Int32] = [:]
            var lists: [[ReminderOffset]] = []
            var last: Int32 = -1
            index = definitions.map { definition in
                guard !definition.reminders.isEmpty else { return -1 }
                // The store gives one list to all definitions of one text: the same as the last
                // one's is known without hashing it.
                if last >= 0 && definition.reminders == lists[Int(last)] { return last }
                if let known = found[definition.reminders] {
                    last = known
                    return known
                }
                lists.append(definition.reminders)
                found[definition.reminders] = Int32(lists.count - 1)
                last = Int32(lists.count - 1)
                return last
            }
            self.lists = lists
        }
    }

    /// The same from what was read for `range`: its stored occurrences and bill transactions.
    /// With `visiting`, only those definitions (an `OccurrenceIndex`'s for `range`) are looked at.
    static func items(
        _ definitions: [ItemDefinition], offsets: OffsetLists, zones: [PlanItem.ZoneBox?], money: MoneySources, in range: ClosedRange<CivilDate>,
        anchoredFrom anchor: CivilDate, stored: [StoredOccurrence], bills rows: [Transaction], visiting: [Int32]? = nil
    ) -> [PlanItem] {
        var items: [PlanItem] = []
        // As many as the schedules make on these dates (a slice's are some thousands, however
        // many definitions there are), not a guess from the definitions.
        var expected = Double(stored.count)
        let days = Double(range.upperBound.dayNumber - range.lowerBound.dayNumber + 1)
        if let visiting {
            for index in visiting { expected += max(1, definitions[Int(index)].schedule.map { $0.mostPerDay * days } ?? 1) }
        } else {
            for definition in definitions { expected += definition.schedule.map { $0.mostPerDay * days } ?? 1 }
        }
        // That is the schedules' average: a day with more would double the array (a day of
        // 100,000 definitions: 23,000 items, where 46,000 would be held).
        items.reserveCapacity(Int(min(expected * 1.15 + 64, Double(Int32.max))))
        // Worked out per definition, not per occurrence: its reminder kind, its duration text, and
        // its offsets as this call's own copy (one per list of offsets: the items of a slice made
        // on one thread count no references on arrays another thread's count too).
        var current:
            (
                index: Int, reminderKind: ReminderKind, detail: String?, offsets: PlanItem.Offsets, mayClamp: Bool,
                reminding: (channels: [Channel]?, style: PlanItem.StyleBox?), zone: PlanItem.ZoneBox?, checklist: Checklist?
            ) = (-1, .todo, nil, .none, false, (nil, nil), nil, nil)
        let lists = offsets.lists.map { list in PlanItem.Offsets(list.map { $0 }) }
        OccurrenceMerge.forEachInPlace(of: definitions, stored: stored, in: range, defaultAnchor: anchor, visiting: visiting) { index, d, date, row in
            if current.index != index {
                let list = offsets.index[index]
                current = (
                    index, d.pointee.kind.reminderKind, d.pointee.durationMinutes.map { "\($0) min" }, list < 0 ? .none : lists[Int(list)],
                    d.pointee.schedule.map(mayClamp) ?? false, offsets.reminderLists.reminding(d.pointee), zones.isEmpty ? nil : zones[index],
                    d.pointee.checklist.isEmpty ? nil : d.pointee.checklist
                )
            }
            let status = row?.pointee.status ?? .open
            items.append(
                PlanItem(
                    kind: current.reminderKind, definitionID: d.pointee.id, date: date,
                    time: row?.pointee.time ?? d.pointee.time, title: row?.pointee.title ?? d.pointee.title, source: row == nil ? .virtual : .stored,
                    offsets: current.offsets, suppression: status == .skipped ? .skipped : status == .done ? .done : nil,
                    // A todo's checklist, counted on this occurrence: "3 of 5 done".
                    detail: current.checklist.map { $0.summary(on: d.pointee.schedule == nil ? nil : date) } ?? current.detail,
                    note: current.mayClamp ? d.pointee.schedule.flatMap { clampNote($0, date) } : nil,
                    notBefore: d.pointee.remindsFrom?.secondsSinceEpoch ?? .min, channels: current.reminding.channels, style: current.reminding.style,
                    zone: current.zone))
        }

        // Bills: recurring transactions merged with their rows, without writing (a plan only reads).
        for (bill, date, row) in OccurrenceMerge.bills(money.bills, rows: rows, in: range) {
            items.append(
                PlanItem(
                    kind: .bill, definitionID: bill.id, date: date, time: nil, title: row?.name ?? bill.name,
                    source: row == nil ? .virtual : .stored,
                    suppression: row?.status == .skipped ? .skipped : row?.status == .paid ? .logged : nil,
                    detail: (row?.amount ?? bill.amount).description, note: bill.once == nil ? clampNote(bill.schedule, date) : nil))
        }

        var paymentDays: [Int64: Int] = [:]
        for debt in money.debts { paymentDays[debt.id] = debt.paymentDay }
        let goals = Dictionary(money.goals.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for event in MoneyCalendar.events(
            in: range, subscriptions: money.subscriptions, debts: money.debts, goals: money.goals,
            incomes: money.incomes, payments: money.payments)
        {
            var note: String?
            if event.kind == .debt, let day = paymentDays[event.sourceID], day > event.date.day {
                note = "payment day \(day) falls on \(event.date), the month's last day"
            }
            items.append(
                PlanItem(
                    kind: event.kind.reminderKind, definitionID: event.sourceID, date: event.date,
                    time: nil, title: event.name, source: event.payment == nil ? .virtual : .stored,
                    suppression: event.payment == nil ? nil : .logged,
                    detail: event.kind == .goal
                        ? goals[event.sourceID].map { GoalProgress($0, payments: money.payments, on: event.date).description }
                        : event.amount?.description, note: note))
        }
        return items
    }
}
