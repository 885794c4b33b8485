import DawnletCore
import DawnletStore
import DawnletSystem
import Dispatch
import FoundationEssentials

/// Where a streamed plan's time went (`PlanReader.forEachReminder(phases:)`), for the bench.
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
public struct PlanReader {
    public let store: Store
    public let config: Config
    public let zone: Zone
    public let zones: ZoneDatabase
    /// Whether reading the calendars notes the items this machine sees for the first time
    /// (`serve`'s plans); a command's reading takes them as first seen now, and notes nothing.
    public var notesFirstSight = false
    /// Calendar files kept parsed between plans (`serve`'s): nil reads every file.
    public var calendarCache: CalendarReader.Cache?

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

    /// What a splice needs from the store: the changed items' definitions made plan items over
    /// `window`, their overdue todos, the delivery log of their reminders and the digests, and the
    /// snoozes. Nil when a change is one the feed cannot splice (a calendar's).
    public struct SpliceInput: Sendable {
        public let ids: [ReminderKind: Set<Int64>]
        public let items: [PlanItem]
        public let overdue: [PlanItem]
        public let log: [DeliveryID: Settlement]
        public let snoozed: [DeliveryID: Instant]

        /// `Planner.splice` of what was read: nothing here fails, and the plan is changed in place.
        public func splice(into reminders: inout [PlannedReminder], rules: PlanRules, now: Instant, window: ClosedRange<Instant>, zone: Zone) {
            Planner.splice(
                &reminders, changed: { kind, id in ids[kind]?.contains(id) == true }, items: items, overdue: overdue, rules: rules, log: log,
                snoozed: snoozed, now: now, window: window, zone: zone)
        }
    }

    /// Reads what `Planner.splice` needs to make the plan again for `changes` only; nil when it
    /// cannot (a whole plan is needed).
    public func spliceInput(changes: Set<PlanChanges.Item>, now: Instant, window: ClosedRange<Instant>) throws -> SpliceInput? {
        var ids: [ReminderKind: Set<Int64>] = [:]
        for change in changes {
            guard change.kind != .calendar else { return nil }
            ids[change.kind, default: []].insert(change.id)
        }
        var definitions: [ItemDefinition] = []
        var stored: [StoredOccurrence] = []
        for kind in ItemKind.allCases { if let some = ids[kind.reminderKind] { definitions += try store.items.definitions(kind, ids: some, notes: false) } }
        let money = ids.keys.contains { $0.itemKind == nil } ? try MoneySources(store, only: ids) : MoneySources()
        let range = dates(window, lead: longestLeadDays(definitions, money: money), skew: PlanReader.zoneSkew(definitions))
        for kind in ItemKind.allCases { if let some = ids[kind.reminderKind] { stored += try store.items.storedOccurrences(kind, ids: some, in: range) } }
        let items = try self.items(definitions, money: money, in: range, anchoredFrom: range.lowerBound, stored: stored)
        // The log of what is planned again: the changed items' reminders and the digests.
        return SpliceInput(
            ids: ids, items: items, overdue: try overdueTodos(definitions, only: ids[.todo] ?? []),
            log: try store.log.deliveryLog(since: logSince(window), items: ids), snoozed: try store.log.snoozes())
    }

    /// The plan's rules, knowing whether any of `definitions` comes back until answered.
    func rules(_ definitions: [ItemDefinition], databaseBegan: Instant?) -> PlanRules {
        var rules = PlanRules(config: config, databaseBegan: databaseBegan)
        if !rules.mayNag { rules.mayNag = definitions.contains { ($0.style?.nag ?? .zero) > .zero } }
        return rules
    }

    /// How far back a plan of `window` reads the delivery log: what went out there may come
    /// back (a nag, up to its bound), or have gone out late (held for quiet hours, up to a day).
    func logSince(_ window: ClosedRange<Instant>) -> Instant {
        let rules = PlanRules(config: config)
        var back = max(config.nagFor, rules.longestEscalation)
        if rules.mayHold { back += .seconds(86_400) }
        return window.lowerBound.adding(.zero - back)
    }

    /// The plan made again for `changes` only, in place (`spliceInput`, then `Planner.splice`);
    /// false, and the plan untouched, when a whole plan is needed.
    public func splice(_ plan: inout Plan, changes: Set<PlanChanges.Item>, now: Instant, window: ClosedRange<Instant>) throws -> Bool {
        guard let input = try spliceInput(changes: changes, now: now, window: window) else { return false }
        input.splice(into: &plan.reminders, rules: PlanRules(config: config, databaseBegan: try store.log.createdAt()), now: now, window: window, zone: zone)
        return true
    }

    /// The dates whose occurrences can remind inside `window`: from the day before its first (a
    /// zone's day starts before UTC's) to `lead` days and one after its last, up to 9999-12-31;
    /// `skew` days more either side for items whose dates are their own zones' (`zoneSkew`).
    public func dates(_ window: ClosedRange<Instant>, lead: Int, skew: Int = 0) -> ClosedRange<CivilDate> {
        let lastDate = CivilDate(year: CivilDate.supportedYears.upperBound, month: 12, day: 31)!
        return ISO8601.localDate(of: window.lowerBound, in: zone).date.adding(
            days: -1 - skew)...min(
                lastDate, ISO8601.localDate(of: window.upperBound, in: zone).date.adding(days: lead + 1 + skew))
    }

    /// 9999-12-30T00:00Z: the last instant planned, a day before the last date, so no zone's
    /// wall time (or digest) of it falls on a date that cannot be written.
    public static let latest = Instant(secondsSinceEpoch: Int64(CivilDate(year: CivilDate.supportedYears.upperBound, month: 12, day: 30)!.dayNumber) * 86_400)

    /// The configured calendar files' instances around `window`, read now, never stored.
    /// Each item reminds from when this machine first saw it (`Store.Log.CalendarSight`): one
    /// never seen, from `now`; before the calendars were first looked at, from always.
    public func calendarItems(_ window: ClosedRange<Instant>, now: Instant) -> (items: [PlanItem], problems: [CalendarProblem]) {
        var items: [PlanItem] = []
        var problems: [CalendarProblem] = []
        let sight = (try? store.log.calendarSight()) ?? Store.Log.CalendarSight()
        var unseen: [(calendar: String, uid: String)] = []
        var noted = Set<String>()
        // Our own exported items, met again in a vdir we also read, are already planned.
        let ours = ((try? store.log.existingExportNamespace()) ?? nil).map { "dawnlet-\($0)-" }
        // One budget for every calendar of the plan: no file, however made, costs it more.
        let budget = CalendarReader.Budget()
        calendarCache?.beginPlan()
        for source in config.calendars {
            let read = CalendarReader.read(
                name: source.name, path: ConfigPath.expand(source.path), window: window, zone: zone, zones: zones, budget: budget, cache: calendarCache)
            for occurrence in read.occurrences where ours.map({ !occurrence.uid.hasPrefix($0) }) ?? true {
                let seen = sight.firstSeen(calendar: source.name, uid: occurrence.uid)
                if seen == nil, noted.insert(source.name + "\u{0}" + occurrence.uid).inserted { unseen.append((source.name, occurrence.uid)) }
                let from = seen ?? (sight.looked ? now : Instant(secondsSinceEpoch: .min))
                items.append(PlanItem(calendar: occurrence, notBefore: from.secondsSinceEpoch))
            }
            problems += read.problems
        }
        if notesFirstSight && (!unseen.isEmpty || !sight.looked) {
            // Not noted: seen again as new at the next plan, which is no worse than now.
            try? store.log.noteSeen(unseen, now: now, firstLook: !sight.looked)
        }
        return (items, problems)
    }

    /// Each calendar item once, at its first occurrence from `from` to the horizon, in the order
    /// of their days and times: what `find`, `todo list` and the completions offer, by the key
    /// `ics:NAME:UID[:INSTANCE]` a `reminder` verb answers.
    /// With `keeping`, the first occurrence it keeps.
    public func calendarItemsOnce(
        from: Instant, now: Instant, keeping: (CalendarOccurrence) -> Bool = { _ in true }
    ) -> (items: [CalendarOccurrence], problems: [CalendarProblem]) {
        let read = calendarItems(from...now.adding(config.horizon), now: now)
        var seen = Set<String>()
        let items = read.items.compactMap(\.calendar).filter(keeping).sorted { ($0.date, $0.time?.secondsOfDay ?? -1) < ($1.date, $1.time?.secondsOfDay ?? -1) }
            .filter { seen.insert($0.calendar + "\u{0}" + $0.uid).inserted }
        return (items, read.problems)
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

    /// The one-off todos that are not done: listed as overdue in the digests after their date.
    public func overdueTodos(_ definitions: [ItemDefinition], only ids: Set<Int64>? = nil) throws -> [PlanItem] {
        var done = Set<Int64>()
        for row in try store.items.oneOffTodoRows(ids: ids) where row.status != .open { done.insert(row.definitionID) }
        return definitions.compactMap { d -> PlanItem? in
            guard d.kind == .todo, d.schedule == nil, let date = d.date, !done.contains(d.id) else { return nil }
            let (channels, style) = config.lists.reminding(d)
            return PlanItem(
                kind: .todo, definitionID: d.id, date: date, time: d.time, title: d.title, source: .virtual, offsets: .none, suppression: nil,
                detail: d.checklist.summary(on: nil), note: nil, channels: channels, style: style)
        }
    }

    /// How many one-off todos are open and overdue at `now` (dated before today, or due today at a
    /// time passed), and when that count next grows by the clock alone: the next such time today,
    /// else the next midnight.
    public func overdue(at now: Instant) throws -> (count: Int, until: Instant) {
        let local = ISO8601.localDate(of: now, in: zone)
        var until = zone.resolve(.midnight, on: local.date.adding(days: 1)).instant
        var count = 0
        for todo in try overdueTodos(try store.items.definitions([.todo], notes: false)) {
            if OccurrenceMerge.isOverdue(todo.date, at: todo.time, now: local) {
                count += 1
            } else if todo.date == local.date, let time = todo.time {
                until = min(until, zone.resolve(time, on: todo.date).instant)
            }
        }
        return (count, until)
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
