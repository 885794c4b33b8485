/// The kinds of things people keep whose occurrences are merged.
public enum ItemKind: String, Hashable, Sendable, CaseIterable {
    case todo, event, habit

    /// The same kind, as reminders name it.
    public var reminderKind: ReminderKind {
        switch self {
        case .todo: .todo
        case .event: .event
        case .habit: .habit
        }
    }
}

extension ReminderKind {
    /// The organizer module behind a kind (todos, events, habits); nil for money and calendars.
    public var itemKind: ItemKind? {
        switch self {
        case .todo: .todo
        case .event: .event
        case .habit: .habit
        case .bill, .subscription, .debt, .goal, .income, .calendar: nil
        }
    }
}

public enum OccurrenceStatus: String, Hashable, Sendable {
    case open, done, skipped
}

/// A stored occurrence row: an instance someone interacted with (done, skipped, or edited).
public struct StoredOccurrence: Hashable, Sendable {
    public let rowID: Int64
    public let kind: ItemKind
    public let definitionID: Int64
    public let date: CivilDate
    public var status: OccurrenceStatus
    /// Edits of this one instance; nil keeps the series' value.
    public var title: String?
    public var time: WallTime?

    public init(
        rowID: Int64, kind: ItemKind, definitionID: Int64, date: CivilDate, status: OccurrenceStatus,
        title: String? = nil, time: WallTime? = nil
    ) {
        self.rowID = rowID
        self.kind = kind
        self.definitionID = definitionID
        self.date = date
        self.status = status
        self.title = title
        self.time = time
    }
}

/// One merged occurrence: what the day view and the planner see. Whether it was generated or read
/// from a row is kept only to explain it (`source`); nothing decides on it.
public struct Occurrence: Hashable, Sendable {
    public enum Origin: String, Hashable, Sendable { case virtual, stored }

    public let definition: ItemDefinition
    public let date: CivilDate
    public let title: String
    public let time: WallTime?
    public let status: OccurrenceStatus
    public let source: Origin
    public let rowID: Int64?
    /// A one-off todo past its date (or its time on the day), and not done.
    public var overdue: Bool
    /// A one-off todo of the day `OccurrenceMerge.day` was asked for at a time of day, open and
    /// timed: the time of that day from which it is overdue, whether or not it is yet (`overdue`
    /// says that). Nil for everything else, whose standing the clock does not change within a day.
    public var overdueFrom: WallTime? = nil

    public var kind: ItemKind { definition.kind }
}

/// The one merge, used by every module: occurrences generated for a range, united with the stored
/// rows for that range, the stored row winning where both exist. Skipped occurrences stay in the
/// result, marked, so views can show them; totals and reminders drop them.
public enum OccurrenceMerge {
    /// Merged occurrences of `definitions` in `range`, ordered by date, then time (untimed last),
    /// then kind and id. `stored` may hold rows outside the range or of other definitions; they are
    /// ignored. A stored row on a date a repeating item's schedule does not (or no longer) produce
    /// stays in the database as history and produces nothing.
    public static func occurrences(
        of definitions: [ItemDefinition], stored: [StoredOccurrence], in range: ClosedRange<CivilDate>
    ) -> [Occurrence] {
        var result: [Occurrence] = []
        forEach(of: definitions, stored: stored, in: range) { definition, date, row in
            result.append(merge(definition, date, row))
        }
        return inDisplayOrder(result, byDate: true)
    }

    /// The same merge without building `Occurrence` values: `body` gets each definition's dates in
    /// order with the stored row that wins there, if any. The planner uses this over large ranges.
    /// A schedule with neither anchor nor date counts from `defaultAnchor` (default: the range's
    /// first day).
    public static func forEach(
        of definitions: [ItemDefinition], stored: [StoredOccurrence], in range: ClosedRange<CivilDate>,
        defaultAnchor: CivilDate? = nil, _ body: (ItemDefinition, CivilDate, StoredOccurrence?) -> Void
    ) {
        forEachInPlace(of: definitions, stored: stored, in: range, defaultAnchor: defaultAnchor) { body($1.pointee, $2, $3?.pointee) }
    }

    /// The same, each definition (and the stored row that wins, if any) lent to `body` where it
    /// is, with its index among `definitions`; the pointers are good only while `body` runs.
    /// Plans made on two threads at once, each copying definitions out per occurrence, would
    /// count references on the same titles and lists of offsets; and a row passed by value is
    /// some 60 bytes made (nil, mostly) per occurrence. With `visiting` (ascending indices, as an
    /// `OccurrenceIndex` finds for `range`), only those definitions are looked at: the others
    /// have nothing in `range`.
    public static func forEachInPlace(
        of definitions: [ItemDefinition], stored: [StoredOccurrence], in range: ClosedRange<CivilDate>,
        defaultAnchor: CivilDate? = nil, visiting: [Int32]? = nil,
        _ body: (Int, UnsafePointer<ItemDefinition>, CivilDate, UnsafePointer<StoredOccurrence>?) -> Void
    ) {
        stored.withUnsafeBufferPointer { stored in
            // Each definition's rows in range, by date, as pointers into `stored`.
            var rows: [DefinitionKey: [CivilDate: UnsafePointer<StoredOccurrence>]] = [:]
            for i in stored.indices where range.contains(stored[i].date) {
                rows[DefinitionKey(kind: stored[i].kind, id: stored[i].definitionID), default: [:]][stored[i].date] = stored.baseAddress! + i
            }
            definitions.withUnsafeBufferPointer { definitions in
                func visit(_ index: Int) {
                    let definition = definitions.baseAddress! + index
                    var own = rows.isEmpty ? [:] : rows[DefinitionKey(kind: definition.pointee.kind, id: definition.pointee.id)] ?? [:]
                    if let schedule = definition.pointee.schedule {
                        // A row on a date the schedule no longer produces (it was edited) stays
                        // stored, as history, and produces nothing.
                        schedule.forEachOccurrence(in: range, defaultAnchor: definition.pointee.date ?? defaultAnchor ?? range.lowerBound) { date in
                            body(index, definition, date, own.isEmpty ? nil : own.removeValue(forKey: date))
                            return true
                        }
                        return
                    }
                    // A dated one-off: its date's row only (rows a former series left are history).
                    if let date = definition.pointee.date {
                        if range.contains(date) { body(index, definition, date, own.removeValue(forKey: date)) }
                        return
                    }
                    // An undated todo: its row is on the day it was marked.
                    for row in own.values.sorted(by: { $0.pointee.date < $1.pointee.date }) { body(index, definition, row.pointee.date, row) }
                }
                if let visiting {
                    for index in visiting { visit(Int(index)) }
                } else {
                    for index in definitions.indices { visit(index) }
                }
            }
        }
    }

    /// Whether a one-off todo due on `date` (at `time`, if it has one) and not done is overdue
    /// at `now` (its local date and seconds into it): from the next day, or from its time on the day.
    public static func isOverdue(_ date: CivilDate, at time: WallTime?, now: (date: CivilDate, secondsOfDay: Int)) -> Bool {
        date < now.date || (date == now.date && time.map { $0.secondsOfDay <= now.secondsOfDay } == true)
    }

    /// The merged item for `today` across modules (the `today` view): everything that falls on it,
    /// plus one-off todos that are overdue (dated before today, not done) or undated and not done,
    /// which stay on today until done. Today's own one-off todo is overdue from its time, given
    /// `secondsOfDay` (now's). Missed instances of repeating items do not carry over.
    public static func day(
        _ today: CivilDate, secondsOfDay: Int? = nil, definitions: [ItemDefinition], stored: [StoredOccurrence]
    ) -> [Occurrence] {
        var items = occurrences(of: definitions, stored: stored, in: today...today)
        var todoRows: [Int64: StoredOccurrence] = [:]
        for row in stored where row.kind == .todo { todoRows[row.definitionID] = row }
        if let secondsOfDay {
            for i in items.indices where items[i].kind == .todo && items[i].definition.schedule == nil && items[i].status == .open {
                items[i].overdue = isOverdue(items[i].date, at: items[i].time, now: (today, secondsOfDay))
                if items[i].date == today { items[i].overdueFrom = items[i].time }
            }
        }
        for definition in definitions where definition.kind == .todo && definition.schedule == nil {
            let row = todoRows[definition.id]
            guard row == nil || row?.status == .open else { continue }  // done or skipped: settled
            if let date = definition.date {
                guard date < today else { continue }
                var item = merge(definition, date, row)
                item.overdue = true
                items.append(item)
            } else {
                items.append(merge(definition, today, nil))
            }
        }
        // All of these show on `today`, so the date of an overdue one does not order it.
        return inDisplayOrder(items, byDate: false)
    }

    private struct DefinitionKey: Hashable {
        let kind: ItemKind
        let id: Int64
    }

    private static func merge(_ definition: ItemDefinition, _ date: CivilDate, _ row: StoredOccurrence?) -> Occurrence {
        Occurrence(
            definition: definition, date: date, title: row?.title ?? definition.title,
            time: row?.time ?? definition.time, status: row?.status ?? .open,
            source: row == nil ? .virtual : .stored, rowID: row?.rowID, overdue: false)
    }

    /// `items` in `displayOrder`, ties as they came. Their keys are sorted, not the occurrences:
    /// each carries its definition, and a sort would move (and copy) hundreds of bytes per step.
    static func inDisplayOrder(_ items: [Occurrence], byDate: Bool) -> [Occurrence] {
        // Kinds by name, as `displayOrder` compares them; untimed after every time.
        let kinds = ItemKind.allCases.sorted { $0.rawValue < $1.rawValue }
        let keys = items.map { o in (byDate ? o.date.dayNumber : 0, o.time?.secondsOfDay ?? Int.max, kinds.firstIndex(of: o.kind) ?? 0, o.definition.id) }
        let order = keys.indices.sorted { i, j in keys[i] < keys[j] || (keys[i] == keys[j] && i < j) }
        return order.map { items[$0] }
    }

    /// Date, then timed before untimed in time order, then kind, then id.
    static func displayOrder(_ a: Occurrence, _ b: Occurrence, byDate: Bool = true) -> Bool {
        if byDate && a.date != b.date { return a.date < b.date }
        switch (a.time, b.time) {
        case let (x?, y?) where x != y: return x < y
        case (.some, .none): return true
        case (.none, .some): return false
        default: break
        }
        if a.kind != b.kind { return a.kind.rawValue < b.kind.rawValue }
        return a.definition.id < b.definition.id
    }
}

extension OccurrenceMerge {
    /// The same merge for bills: each recurring transaction's dates in `range`, with the stored row
    /// (a laid-out month's transaction) that wins there, if any. Rows on dates the schedule does not
    /// produce are history and produce nothing, as for every repeating item.
    public static func bills(_ definitions: [RecurringTransaction], rows: [Transaction], in range: ClosedRange<CivilDate>)
        -> [(bill: RecurringTransaction, date: CivilDate, row: Transaction?)]
    {
        struct Key: Hashable { let id: Int64; let date: CivilDate }
        var stored: [Key: Transaction] = [:]
        for row in rows { if let id = row.definitionID, range.contains(row.date) { stored[Key(id: id, date: row.date)] = row } }
        return definitions.flatMap { bill in
            bill.dates(in: range).map { (bill, $0, stored[Key(id: bill.id, date: $0)]) }
        }
    }
}

/// Where a todo stands on a day (`todo list`): a one-off is open, done or overdue; a repeating one
/// is open, with its next occurrence not done or skipped (within a year), if it has one.
public struct TodoStanding: Hashable, Sendable {
    public enum Status: String, Hashable, Sendable { case open, done, overdue }

    public let status: Status
    public let next: CivilDate?

    /// `stored`: the todo's rows (any dates). Pure: `today` is an argument, and now's seconds
    /// into it (nil: a timed todo is overdue only from the next day).
    public init(_ todo: ItemDefinition, stored: [StoredOccurrence], today: CivilDate, secondsOfDay: Int? = nil) {
        guard todo.isRepeating else {
            let row = stored.first { $0.definitionID == todo.id && (todo.date == nil || $0.date == todo.date) }
            if row?.status == .done || row?.status == .skipped {
                status = .done
            } else if let due = todo.date,
                OccurrenceMerge.isOverdue(due, at: secondsOfDay == nil ? nil : row?.time ?? todo.time, now: (today, secondsOfDay ?? 0))
            {
                status = .overdue
            } else {
                status = .open
            }
            next = status == .done ? nil : todo.date
            return
        }
        status = .open
        next =
            OccurrenceMerge.occurrences(of: [todo], stored: stored, in: today...today.adding(days: 366))
            .first { $0.status == .open }?.date
    }
}

extension Occurrence.Origin {
    public var literal: StaticString {
        switch self {
        case .virtual: "virtual"
        case .stored: "stored"
        }
    }
}

/// A habit's streaks, from its stored entries up to a day: the days it was kept on in a row up to
/// then (a day still open today does not break it), the longest such run, and this week's days
/// kept of those planned. A skipped day neither breaks a run nor adds to it; a day kept off the
/// habit's days (they were changed since) counts as kept.
public struct HabitStreak: Hashable, Sendable {
    public let current: Int
    public let longest: Int
    /// Monday to Sunday of the week holding `today`.
    public let doneThisWeek: Int
    public let plannedThisWeek: Int

    public init(_ habit: ItemDefinition, stored: [StoredOccurrence], today: CivilDate) {
        var entries: [CivilDate: OccurrenceStatus] = [:]
        for row in stored where row.kind == habit.kind && row.definitionID == habit.id && row.date <= today { entries[row.date] = row.status }
        let monday = today.adding(days: 1 - today.weekday.isoNumber)
        let week = monday...monday.adding(days: 6)
        var days: [(date: CivilDate, status: OccurrenceStatus?)] = []
        var planned = 0
        if let schedule = habit.schedule {
            let start = schedule.anchor ?? habit.date ?? today
            if start <= week.upperBound {
                schedule.forEachOccurrence(in: start...week.upperBound, defaultAnchor: start) { date in
                    if week.contains(date) { planned += 1 }
                    if date <= today { days.append((date, entries.removeValue(forKey: date))) }
                    return true
                }
            }
        }
        for (date, status) in entries where status == .done { days.append((date, .done)) }
        days.sort { $0.date < $1.date }
        var (run, longest) = (0, 0)
        for day in days {
            switch day.status {
            case .done?:
                run += 1
                longest = max(longest, run)
            case .skipped?: continue
            default: if day.date != today { run = 0 }
            }
        }
        current = run
        self.longest = longest
        doneThisWeek = days.filter { week.contains($0.date) && $0.status == .done }.count
        plannedThisWeek = planned
    }

    /// This week's days kept of those planned, as `habit list` says it after "this week": `3 of 5`.
    /// With no day planned this week (a habit added after its days, a weekly one whose day is
    /// past) or more kept than planned (on days it no longer has) there is no such fraction, and
    /// the two are said apart: `none planned`, `1 kept, none planned`, `3 kept, 2 planned`.
    public var weekText: String {
        if plannedThisWeek > 0 && doneThisWeek <= plannedThisWeek { return "\(doneThisWeek) of \(plannedThisWeek)" }
        let planned = plannedThisWeek == 0 ? "none planned" : "\(plannedThisWeek) planned"
        return doneThisWeek == 0 ? planned : "\(doneThisWeek) kept, \(planned)"
    }
}
