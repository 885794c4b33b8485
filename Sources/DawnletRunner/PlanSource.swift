import DawnletCore
import DawnletStore
import DawnletSystem
import Dispatch
import FoundationEssentials

/// Where a streamed plan's time went (`PlanSource.forEachReminder(phases:)`), for the bench.
public final class PlanPhases {
    public var read = Duration.zero
    public var expansion = Duration.zero
    public var merge = Duration.zero
    public var planning = Duration.zero
    /// In the caller's `body`: writing the reminders out.
    public var output = Duration.zero
    public var occurrences = 0
    /// When the last lap ended.
    var mark = ContinuousClock.now

    public init() {}

    /// Adds the time since the last lap to `phase`.
    func lap(_ phase: ReferenceWritableKeyPath<PlanPhases, Duration>) {
        let now = ContinuousClock.now
        self[keyPath: phase] += now - mark
        mark = now
    }
}

/// Everything the planner needs, read from the store for one window: the one code path `preview`
/// and `serve` share.
public struct PlanSource {
    public let store: Store
    public let config: Config
    public let zone: Zone
    public let zones: ZoneDatabase

    public init(store: Store, config: Config, zone: Zone, zones: ZoneDatabase = .system) {
        self.zones = zones
        self.store = store
        self.config = config
        self.zone = zone
    }

    /// The plan for reminders firing inside `window`, as of `now`, with what the delivery log
    /// says of them: `serve` and `preview` see the same statuses.
    public func plan(now: Instant, window: ClosedRange<Instant>, includeSuppressed: Bool = false) throws -> Plan {
        var reminders: [PlannedReminder] = []
        let problems = try forEachReminder(now: now, window: window, includeSuppressed: includeSuppressed) {
            reminders.append($0)
            return true
        }
        return Plan(reminders: reminders, calendarProblems: problems)
    }

    /// How many days of fire times one slice of a plan covers: so many that a slice makes some
    /// `reminders` at most, as the schedules and their offsets reckon it (10,000 of 2,000 weekly
    /// and monthly todos: about two weeks; of 5,000 daily todos with three reminders: one day),
    /// from a day to a month.
    func sliceDays(_ definitions: [ItemDefinition], money: MoneySources, reminders: Int = 10_000) -> Int {
        var perDay = 0.0
        for definition in definitions {
            let offsets = definition.reminders.isEmpty ? config.reminders[definition.kind.reminderKind]?.count ?? 0 : definition.reminders.count
            perDay += (definition.schedule?.mostPerDay ?? 0) * Double(max(1, offsets))
        }
        // Money sources: monthly at most, as the config's offsets for their kinds go.
        let sources: [(ReminderKind, Int)] = [
            (.bill, money.bills.count), (.subscription, money.subscriptions.count), (.debt, money.debts.count),
            (.goal, money.goals.count), (.income, money.incomes.count),
        ]
        for (kind, count) in sources { perDay += Double(count) / 28 * Double(max(1, config.reminders[kind]?.count ?? 0)) }
        return perDay < Double(reminders) / 31 ? 31 : max(1, Int(Double(reminders) / perDay))
    }

    /// The same plan as a stream, in fire-time order: made a slice of fire times at a time (the
    /// first slices shorter), from the occurrences that can remind inside that slice (its dates,
    /// and as many after it as the longest lead), so that memory is a slice's whatever the window. Each reminder falls in
    /// exactly one slice and the slices follow each other, so the stream is the whole plan's
    /// reminders in the whole plan's order. `body` returns false to stop there. Returns the
    /// calendar problems met.
    ///
    /// With `phases`, what each part took is added there (the bench's split; the expansion is
    /// then made twice, once alone to be timed).
    @discardableResult
    public func forEachReminder(
        now: Instant, window: ClosedRange<Instant>, includeSuppressed: Bool = false, phases: PlanPhases? = nil,
        _ body: (PlannedReminder) throws -> Bool
    ) throws -> [CalendarProblem] {
        phases?.mark = .now
        let slices = try self.slices(now: now, window: window, includeSuppressed: includeSuppressed, reminders: 10_000, phases: phases)
        while let slice = try slices.next() {
            let items = slice.items()
            phases?.lap(\.merge)
            let plan = slice.plan(items)
            phases?.lap(\.planning)
            let going = try plan.forEach { reminder in
                guard let phases else { return try body(reminder) }
                defer { phases.lap(\.output) }
                return try body(reminder)
            }
            guard going else { break }
        }
        return slices.problems
    }

    /// The same stream a slice at a time, each planned and then made into what `render` makes of
    /// it on other threads, `inFlight` slices at once, while `emit` takes what was made, in order,
    /// on this one: `preview --json` writes the JSON of some days while the next are planned and
    /// written. Reading the store stays on this thread. `emit` returns false to stop there.
    /// Returns the calendar problems met.
    @discardableResult
    public func forEachSlice<Rendered: Sendable>(
        now: Instant, window: ClosedRange<Instant>, includeSuppressed: Bool = false, inFlight: Int = 2,
        render: @escaping @Sendable (Planner.Ordered) -> Rendered, emit: (Rendered) throws -> Bool
    ) throws -> [CalendarProblem] {
        // The slices in flight are held at once, and what is made of them: so much smaller each.
        let slices = try self.slices(now: now, window: window, includeSuppressed: includeSuppressed, reminders: 8_000 / inFlight, phases: nil)
        let queue = DispatchQueue(label: "dawnlet-remind.plan", attributes: .concurrent)
        var pending: [Pending<Rendered>] = []
        defer { for slice in pending { _ = slice.value } }
        func fill() throws {
            while pending.count < inFlight, let slice = try slices.next() {
                pending.append(Pending(queue) { render(slice.plan(slice.items())) })
            }
        }
        try fill()
        while !pending.isEmpty {
            let made = pending.removeFirst().value
            // The next slice goes to the planning thread now free before this one is written
            // out: no planning thread waits while this one writes.
            try fill()
            guard try emit(made) else { break }
        }
        return slices.problems
    }

    /// Whatever the stream's slices need, read from the store: `next` gives each slice in turn
    /// (reading its stored occurrences), sized to make some `reminders` at most. The first slice
    /// is a day, and each next one twice as long up to the full slice: whoever stops early (the
    /// runner at its budget) has not planned days it does not keep.
    private func slices(
        now: Instant, window asked: ClosedRange<Instant>, includeSuppressed: Bool, reminders: Int, phases: PlanPhases?
    ) throws -> (next: () throws -> Slice?, problems: [CalendarProblem]) {
        // Nothing is planned past the last day a date can have (9999-12-31), in any zone.
        let window = asked.lowerBound...max(asked.lowerBound, min(asked.upperBound, PlanSource.latest))
        let definitions = try store.items.definitions()
        let offsets = OffsetLists(definitions)
        let money = try MoneySources(store)
        // Occurrences up to the longest lead time after a slice can have reminders inside it.
        let lead = longestLeadDays(definitions, money: money)
        let rules = PlanRules(config: config)
        let log = try store.log.deliveryLog(since: window.lowerBound)
        let snoozed = try store.log.snoozes()
        let overdue = try overdueTodos(definitions)
        let calendars = calendarItems(window)
        let whole = dates(window, lead: lead)
        // A snooze moves a reminder later: a slice takes occurrences from as far back as any
        // snooze inside the window reaches. A calendar item's key names no date: then one slice.
        var reach = 0
        let fullSlice = Int64(sliceDays(definitions, money: money, reminders: reminders)) * 86_400
        var sliceSeconds = min(86_400, fullSlice)
        var oneSlice = false
        for (id, until) in snoozed where window.contains(until) {
            guard let item = id.key.item else {
                oneSlice = true
                continue
            }
            reach = max(reach, ISO8601.localDate(of: until, in: zone).date.dayNumber - item.date.dayNumber)
        }
        if oneSlice { sliceSeconds = window.upperBound.secondsSinceEpoch - window.lowerBound.secondsSinceEpoch + 1 }
        let (zone, anchor, calendarItems) = (self.zone, whole.lowerBound, calendars.items)
        var start: Instant? = window.lowerBound
        func next() throws -> Slice? {
            guard let from = start else { return nil }
            let end =
                from.secondsSinceEpoch + sliceSeconds - 1 < window.upperBound.secondsSinceEpoch ? from.adding(seconds: sliceSeconds - 1) : window.upperBound
            // Our own items' wall times are this zone's: one fires inside the slice only from a
            // date of the slice's own (or as many after as the longest lead, or before as a snooze
            // reaches). An external calendar's date is its own zone's: a day either side more.
            let (firstDay, lastDay) = (ISO8601.localDate(of: from, in: zone).date, ISO8601.localDate(of: end, in: zone).date)
            let own = max(whole.lowerBound, firstDay.adding(days: -reach))...min(whole.upperBound, lastDay.adding(days: lead))
            let (first, last) = (max(whole.lowerBound, own.lowerBound.adding(days: -1)), min(whole.upperBound, own.upperBound.adding(days: 1)))
            let stored = try store.items.storedOccurrences(in: own)
            let bills = money.bills.isEmpty ? [] : try store.money.transactions(in: own)
            if let phases {
                phases.lap(\.read)
                OccurrenceMerge.forEachInPlace(of: definitions, stored: stored, in: own, defaultAnchor: anchor) { _, _, _, _ in phases.occurrences += 1 }
                phases.lap(\.expansion)
            }
            start = end == window.upperBound ? nil : end.adding(seconds: 1)
            if !oneSlice { sliceSeconds = min(2 * sliceSeconds, fullSlice) }
            return Slice(
                items: {
                    let items = PlanSource.items(
                        definitions, offsets: offsets, money: money, in: own, anchoredFrom: anchor, stored: stored, bills: bills)
                    // A calendar item's own alarms are instants, however long before its date: it
                    // comes into the slice its date reaches, or the one an alarm fires in.
                    return items
                        + calendarItems.filter { item in
                            (first...last).contains(item.date) || item.calendar?.alarms?.contains { (from...end).contains($0) } == true
                        }
                },
                plan: { items in
                    Planner.ordered(
                        items: items, overdue: overdue, rules: rules, log: log, snoozed: snoozed, now: now,
                        window: from...end, scope: window, zone: zone, includeSuppressed: includeSuppressed)
                })
        }
        return (next, calendars.problems)
    }

    /// The rest of a slice's plan once the store is read: its items, then their reminders in order.
    private struct Slice: Sendable {
        let items: @Sendable () -> [PlanItem]
        let plan: @Sendable ([PlanItem]) -> Planner.Ordered
    }

    /// Work done on a queue; `value` waits for it to end.
    private final class Pending<Value: Sendable>: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        /// Written once by the work, before the signal; read only after the wait.
        private var result: Value?
        private var waited = false

        init(_ queue: DispatchQueue, _ work: @escaping @Sendable () -> Value) {
            queue.async {
                self.result = work()
                self.done.signal()
            }
        }

        var value: Value {
            if !waited {
                done.wait()
                waited = true
            }
            return result!
        }
    }

    /// `plan`, made again after the changes the change feed names (`Store.changes(after:)`),
    /// without planning anything else: the changed todos, events, habits and money sources are
    /// read and planned over `window` and spliced in (`Planner.splice`). False, and `plan` as it
    /// was, when the changes are not ones a splice can take.
    public func splice(_ plan: inout Plan, changes: Set<PlanChanges.Source>, now: Instant, window: ClosedRange<Instant>) throws -> Bool {
        var ids: [ReminderKind: Set<Int64>] = [:]
        for change in changes {
            guard change.kind != .calendar else { return false }
            ids[change.kind, default: []].insert(change.id)
        }
        var definitions: [ItemDefinition] = []
        var stored: [StoredOccurrence] = []
        for kind in ItemKind.allCases { if let some = ids[kind.reminderKind] { definitions += try store.items.definitions(kind, ids: some) } }
        let money = ids.keys.contains { $0.itemKind == nil } ? try MoneySources(store, only: ids) : MoneySources()
        let range = dates(window, lead: longestLeadDays(definitions, money: money))
        for kind in ItemKind.allCases { if let some = ids[kind.reminderKind] { stored += try store.items.storedOccurrences(kind, ids: some, in: range) } }
        let items = try self.items(definitions, money: money, in: range, anchoredFrom: range.lowerBound, stored: stored)
        // The log of what is planned again: the changed items' reminders and the digests.
        let keys = ["digest:"] + changes.map { "\($0.kind.rawValue):\($0.id):" }
        let (overdue, log, snoozed) = (
            try overdueTodos(definitions, only: ids[.todo] ?? []),
            try store.log.deliveryLog(since: window.lowerBound, keysStarting: keys), try store.log.snoozes()
        )
        // Everything is read: from here nothing fails, and the plan is changed in place.
        Planner.splice(
            &plan.reminders, changed: { kind, id in ids[kind]?.contains(id) == true }, items: items, overdue: overdue,
            rules: PlanRules(config: config), log: log, snoozed: snoozed, now: now, window: window, zone: zone)
        return true
    }

    /// The dates whose occurrences can remind inside `window`: from the day before its first (a
    /// zone's day starts before UTC's) to `lead` days and one after its last, up to 9999-12-31.
    public func dates(_ window: ClosedRange<Instant>, lead: Int) -> ClosedRange<CivilDate> {
        let lastDate = CivilDate(year: CivilDate.supportedYears.upperBound, month: 12, day: 31)!
        return ISO8601.localDate(of: window.lowerBound, in: zone).date.adding(
            days: -1)...min(
                lastDate, ISO8601.localDate(of: window.upperBound, in: zone).date.adding(days: lead + 1))
    }

    /// 9999-12-30T00:00Z: the last instant planned, a day before the last date, so no zone's
    /// wall time (or digest) of it falls on a date that cannot be written.
    public static let latest = Instant(secondsSinceEpoch: Int64(CivilDate(year: CivilDate.supportedYears.upperBound, month: 12, day: 30)!.dayNumber) * 86_400)

    /// The configured calendar files' instances around `window`, read now, never stored.
    public func calendarItems(_ window: ClosedRange<Instant>) -> (items: [PlanItem], problems: [CalendarProblem]) {
        var items: [PlanItem] = []
        var problems: [CalendarProblem] = []
        // Our own exported items, met again in a vdir we also read, are already planned.
        let ours = ((try? store.log.existingExportNamespace()) ?? nil).map { "dawnlet-\($0)-" }
        // One budget for every calendar of the plan: no file, however made, costs it more.
        let budget = CalendarReader.Budget()
        for source in config.calendars {
            let read = CalendarReader.read(name: source.name, path: ConfigPath.expand(source.path), window: window, zone: zone, zones: zones, budget: budget)
            items += read.occurrences.filter { occurrence in ours.map { !occurrence.uid.hasPrefix($0) } ?? true }.map {
                PlanItem(calendar: $0)
            }
            problems += read.problems
        }
        return (items, problems)
    }

    /// The most days any reminder leads its occurrence by: an item's own offsets, else its kind's
    /// defaults from the config, for the kinds there are (a bill's default week ahead does not
    /// widen the plan of a database without bills).
    public func longestLeadDays(_ definitions: [ItemDefinition], money: MoneySources) -> Int {
        var seconds = 0
        func take(_ offsets: [ReminderOffset]) { for offset in offsets { seconds = max(seconds, offset.exactSeconds) } }
        var kinds = Set<ReminderKind>()
        for definition in definitions {
            if definition.reminders.isEmpty { kinds.insert(definition.kind.reminderKind) } else { take(definition.reminders) }
        }
        let sources: [(ReminderKind, Bool)] = [
            (.bill, !money.bills.isEmpty), (.subscription, !money.subscriptions.isEmpty), (.debt, !money.debts.isEmpty),
            (.goal, !money.goals.isEmpty), (.income, !money.incomes.isEmpty), (.calendar, !config.calendars.isEmpty),
        ]
        for (kind, present) in sources where present { kinds.insert(kind) }
        for kind in kinds { take(config.reminders[kind] ?? []) }
        return (seconds + 86_399) / 86_400
    }

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
            payments = try store.sources.payments(of: ids.map { ($0[.subscription] ?? [], $0[.debt] ?? []) })
        }
    }

    /// Merged, skip-honouring occurrences of every module and money source in `range`, as plan
    /// items. A schedule with no anchor of its own counts from `anchoredFrom` (the whole plan's
    /// first date), so that a slice's items are the whole plan's on those dates.
    public func items(
        _ definitions: [ItemDefinition], money: MoneySources, in range: ClosedRange<CivilDate>,
        anchoredFrom anchor: CivilDate, stored given: [StoredOccurrence]? = nil
    ) throws -> [PlanItem] {
        PlanSource.items(
            definitions, offsets: OffsetLists(definitions), money: money, in: range, anchoredFrom: anchor,
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

        init(_ definitions: [ItemDefinition]) {
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
    static func items(
        _ definitions: [ItemDefinition], offsets: OffsetLists, money: MoneySources, in range: ClosedRange<CivilDate>,
        anchoredFrom anchor: CivilDate, stored: [StoredOccurrence], bills rows: [Transaction]
    ) -> [PlanItem] {
        var items: [PlanItem] = []
        // As many as the schedules make on these dates (a slice's are some thousands, however
        // many definitions there are), not a guess from the definitions.
        var expected = Double(stored.count)
        let days = Double(range.upperBound.dayNumber - range.lowerBound.dayNumber + 1)
        for definition in definitions { expected += definition.schedule.map { $0.mostPerDay * days } ?? 1 }
        items.reserveCapacity(Int(min(expected, Double(Int32.max))))
        // Worked out per definition, not per occurrence: its reminder kind, its duration text, and
        // its offsets as this call's own copy (one per list of offsets: the items of a slice made
        // on one thread count no references on arrays another thread's count too).
        var current: (index: Int, reminderKind: ReminderKind, detail: String?, offsets: PlanItem.Offsets, mayClamp: Bool) = (-1, .todo, nil, .none, false)
        let lists = offsets.lists.map { list in PlanItem.Offsets(list.map { $0 }) }
        OccurrenceMerge.forEachInPlace(of: definitions, stored: stored, in: range, defaultAnchor: anchor) { index, d, date, row in
            if current.index != index {
                let list = offsets.index[index]
                current = (
                    index, d.pointee.kind.reminderKind, d.pointee.durationMinutes.map { "\($0) min" }, list < 0 ? .none : lists[Int(list)],
                    d.pointee.schedule.map(mayClamp) ?? false
                )
            }
            let status = row?.pointee.status ?? .open
            items.append(
                PlanItem(
                    kind: current.reminderKind, definitionID: d.pointee.id, date: date,
                    time: row?.pointee.time ?? d.pointee.time, title: row?.pointee.title ?? d.pointee.title, source: row == nil ? .virtual : .stored,
                    offsets: current.offsets, suppression: status == .skipped ? .skipped : status == .done ? .done : nil,
                    detail: current.detail, note: current.mayClamp ? d.pointee.schedule.flatMap { clampNote($0, date) } : nil))
        }

        // Bills: recurring transactions merged with their rows, without writing (a plan only reads).
        for (bill, date, row) in OccurrenceMerge.bills(money.bills, rows: rows, in: range) {
            items.append(
                PlanItem(
                    kind: .bill, definitionID: bill.id, date: date, time: nil, title: row?.name ?? bill.name,
                    source: row == nil ? .virtual : .stored,
                    suppression: row?.status == .skipped ? .skipped : row?.status == .paid ? .logged : nil,
                    detail: (row?.amount ?? bill.amount).description, note: clampNote(bill.schedule, date)))
        }

        var paymentDays: [Int64: Int] = [:]
        for debt in money.debts { paymentDays[debt.id] = debt.paymentDay }
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
                    suppression: event.payment == nil ? nil : .logged, detail: event.amount?.description, note: note))
        }
        return items
    }

    /// The one-off todos that are not done: listed as overdue in the digests after their date.
    public func overdueTodos(_ definitions: [ItemDefinition], only ids: Set<Int64>? = nil) throws -> [PlanItem] {
        var done = Set<Int64>()
        for row in try store.items.oneOffTodoRows(ids: ids) where row.status != .open { done.insert(row.definitionID) }
        return definitions.compactMap { d -> PlanItem? in
            guard d.kind == .todo, d.schedule == nil, let date = d.date, !done.contains(d.id) else { return nil }
            return PlanItem(kind: .todo, definitionID: d.id, date: date, time: d.time, title: d.title, source: .virtual)
        }
    }

    /// How many one-off todos are open with a date before `today`.
    public func overdueCount(today: CivilDate) throws -> Int {
        try overdueTodos(try store.items.definitions([.todo])).filter { $0.date < today }.count
    }

    /// "day 31 falls on 2026-02-28, the month's last day" when a monthly day was clamped.
    static func clampNote(_ schedule: Schedule, _ date: CivilDate) -> String? {
        guard case .monthlyOnDay(_, let day) = schedule.rule else { return nil }
        let wanted = day ?? schedule.anchor?.day ?? date.day
        return wanted > date.day ? "day \(wanted) falls on \(date), the month's last day" : nil
    }

    /// Whether `clampNote` can say anything of a date of `schedule`: only a monthly day past the
    /// 28th is ever clamped. Asked once per definition, not per occurrence.
    static func mayClamp(_ schedule: Schedule) -> Bool {
        guard case .monthlyOnDay(_, let day) = schedule.rule else { return false }
        return (day ?? schedule.anchor?.day ?? 0) > 28
    }
}
