import DawnletCore
import DawnletStore
import DawnletSystem
import FoundationEssentials

/// Everything the planner needs, read from the store for one window: the one code path `preview`
/// and `serve` share (DESIGN §5).
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
    public func plan(now: Instant, window asked: ClosedRange<Instant>, includeSuppressed: Bool = false) throws -> Plan {
        // Nothing is planned past the last day a date can have (9999-12-31), in any zone.
        let window = asked.lowerBound...max(asked.lowerBound, min(asked.upperBound, PlanSource.latest))
        // Occurrences up to the longest lead time after the window can have reminders inside it.
        let definitions = try store.items.definitions()
        let lead = longestLeadDays(definitions)
        let lastDate = CivilDate(year: CivilDate.supportedYears.upperBound, month: 12, day: 31)!
        let first = ISO8601.localDate(of: window.lowerBound, in: zone).date.adding(days: -1)
        let last = min(lastDate, ISO8601.localDate(of: window.upperBound, in: zone).date.adding(days: lead + 1))
        var (items, overdue) = try self.items(definitions, in: first...last)
        let calendars = calendarItems(window)
        items += calendars.items
        var plan = Planner.plan(items: items, overdue: overdue, rules: PlanRules(config: config),
                                log: try store.log.deliveryLog(since: window.lowerBound),
                                snoozed: try store.log.snoozes(), now: now, window: window, zone: zone, includeSuppressed: includeSuppressed)
        plan.calendarProblems = calendars.problems
        return plan
    }

    /// 9999-12-30T00:00Z: the last instant planned, a day before the last date, so no zone's
    /// wall time (or digest) of it falls on a date that cannot be written.
    public static let latest = Instant(secondsSinceEpoch: Int64(CivilDate(year: CivilDate.supportedYears.upperBound, month: 12, day: 30)!.dayNumber) * 86_400)

    /// The configured calendar files' instances around `window` (DESIGN §8), read now, never stored.
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
                PlanItem(kind: .calendar, definitionID: 0, date: $0.date, time: $0.time, title: $0.title, source: .virtual, calendar: $0)
            }
            problems += read.problems
        }
        return (items, problems)
    }

    /// The most days any reminder leads its occurrence by: from the config and from every item's own offsets.
    func longestLeadDays(_ definitions: [ItemDefinition]) -> Int {
        var seconds = 0
        for offsets in config.reminders.values { for offset in offsets { seconds = max(seconds, offset.exactSeconds) } }
        for definition in definitions { for offset in definition.reminders { seconds = max(seconds, offset.exactSeconds) } }
        return (seconds + 86_399) / 86_400
    }

    /// Merged, skip-honouring occurrences of every module and money source in `range`, as plan
    /// items; and the one-off todos that are not done (listed as overdue in later digests).
    func items(_ definitions: [ItemDefinition], in range: ClosedRange<CivilDate>) throws -> ([PlanItem], [PlanItem]) {
        let stored = try store.items.storedOccurrences(in: range)
        var items: [PlanItem] = []
        items.reserveCapacity(stored.count + definitions.count * 8)
        // Worked out per definition, not per occurrence: its reminder kind and its duration text.
        var current: (id: Int64, kind: ItemKind, reminderKind: ReminderKind, detail: String?) = (-1, .todo, .todo, nil)
        OccurrenceMerge.forEach(of: definitions, stored: stored, in: range) { d, date, row in
            if current.id != d.id || current.kind != d.kind {
                current = (d.id, d.kind, d.kind.reminderKind, d.durationMinutes.map { "\($0) min" })
            }
            let status = row?.status ?? .open
            items.append(PlanItem(kind: current.reminderKind, definitionID: d.id, date: date,
                                  time: row?.time ?? d.time, title: row?.title ?? d.title, source: row == nil ? .virtual : .stored,
                                  offsets: d.reminders, suppression: status == .skipped ? .skipped : status == .done ? .done : nil,
                                  detail: current.detail, note: d.schedule.flatMap { clampNote($0, date) }))
        }

        // Bills: recurring transactions merged with their rows, without writing (a plan only reads).
        for (bill, date, row) in OccurrenceMerge.bills(try store.money.recurringTransactions(), rows: try store.money.transactions(in: range), in: range) {
            items.append(PlanItem(kind: .bill, definitionID: bill.id, date: date, time: nil, title: row?.name ?? bill.name,
                                  source: row == nil ? .virtual : .stored,
                                  suppression: row?.status == .skipped ? .skipped : row?.status == .paid ? .logged : nil,
                                  detail: (row?.amount ?? bill.amount).description, note: clampNote(bill.schedule, date)))
        }

        let debts = try store.sources.debts()
        var paymentDays: [Int64: Int] = [:]
        for debt in debts { paymentDays[debt.id] = debt.paymentDay }
        for event in MoneyCalendar.events(in: range, subscriptions: try store.sources.subscriptions(), debts: debts, goals: try store.sources.goals(),
                                          incomes: try store.sources.incomeSources(), payments: try store.sources.payments()) {
            var note: String?
            if event.kind == .debt, let day = paymentDays[event.sourceID], day > event.date.day {
                note = "payment day \(day) falls on \(event.date), the month's last day"
            }
            items.append(PlanItem(kind: event.kind.reminderKind, definitionID: event.sourceID, date: event.date,
                                  time: nil, title: event.name, source: event.payment == nil ? .virtual : .stored,
                                  suppression: event.payment == nil ? nil : .logged, detail: event.amount?.description, note: note))
        }

        var done = Set<Int64>()
        for row in try store.items.oneOffTodoRows() where row.status != .open { done.insert(row.definitionID) }
        let overdue = definitions.compactMap { d -> PlanItem? in
            guard d.kind == .todo, d.schedule == nil, let date = d.date, !done.contains(d.id) else { return nil }
            return PlanItem(kind: .todo, definitionID: d.id, date: date, time: d.time, title: d.title, source: .virtual)
        }
        return (items, overdue)
    }

    /// "day 31 falls on 2026-02-28, the month's last day" when a monthly day was clamped.
    func clampNote(_ schedule: Schedule, _ date: CivilDate) -> String? {
        guard case .monthlyOnDay(_, let day) = schedule.rule else { return nil }
        let wanted = day ?? schedule.anchor?.day ?? date.day
        return wanted > date.day ? "day \(wanted) falls on \(date), the month's last day" : nil
    }
}
