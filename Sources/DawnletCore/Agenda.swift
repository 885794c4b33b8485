/// The days ahead, every kind on each: todos, events and habits from the one
/// merge, bills, the money calendar's subscription renewals, debt due dates, goal deadlines and
/// income deposits, and external calendars' items, each with its status and source. `today` is
/// the agenda of one day. Pure: the caller reads the store and the files.
public enum Agenda {
    public struct Entry: Hashable, Sendable {
        /// `todo`, `event`, `habit`, `bill`, `subscription`, `debt`, `goal`, `income`.
        public let kind: String
        /// The stored row, if any (an occurrence row, a transaction).
        public let id: Int64?
        /// The definition or source it comes from (nil for a calendar file's item).
        public let definitionID: Int64?
        public let title: String
        public let time: WallTime?
        /// `open`, `done`, `skipped`, `logged`, `paid` (a bill) or `overdue`.
        public internal(set) var status: String
        /// An overdue one-off todo's own date (today's, for one overdue since its time today).
        public internal(set) var overdueSince: CivilDate?
        /// `virtual`, `stored`, or `ics:NAME` for a calendar file's item.
        public let source: String
        public let amount: Amount?
        /// The payment that logged it (subscriptions and debts).
        public let payment: Payment?
        /// A timed event's end by its duration: `10:15` the same day, `2026-12-02T01:00` a later one.
        public var end: String? = nil
        /// An item of its own zone whose time reads otherwise there: its own time and zone
        /// (`16:00 America/New_York`); `time` is the viewer's.
        public var own: String? = nil
        /// A todo's checklist counted on this occurrence (`3 of 5 done`); nil for none.
        public var checklist: String? = nil
        /// A one-off todo of today's, open and timed, read at a time of day: the time from which
        /// it is overdue, whether or not it is yet. The one part of an entry the clock changes
        /// within the day (`standing(overdue:on:)`); nil for every other.
        public var overdueFrom: WallTime? = nil

        /// The entry as it stands on `date`, its day, before its `overdueFrom` (open) or from then
        /// (overdue since that time); itself when it has none.
        public func standing(overdue: Bool, on date: CivilDate) -> Entry {
            guard overdueFrom != nil else { return self }
            var entry = self
            entry.status = overdue ? "overdue" : "open"
            entry.overdueSince = overdue ? date : nil
            return entry
        }
    }

    /// When an event at `time` on `date` that lasts `minutes` ends, as `Entry.end` says it.
    static func end(of date: CivilDate, at time: WallTime?, minutes: Int?) -> String? {
        guard let time, let minutes, minutes > 0 else { return nil }
        let total = time.secondsOfDay / 60 + minutes
        let day = date.adding(days: total / 1440)
        let wall = WallTime(hour: total % 1440 / 60, minute: total % 60)!
        return day == date ? wall.description : "\(day)T\(wall)"
    }

    public struct Day: Hashable, Sendable {
        public let date: CivilDate
        public let entries: [Entry]

        /// The same day with only the entries `keep` keeps.
        public func filter(_ keep: (Entry) -> Bool) -> Day { Day(date: date, entries: entries.filter(keep)) }
    }

    /// Each day of `days`. Overdue one-off todos, and undated ones not done, stand on `today` only
    /// (when it is in range), as the `today` view has always shown them.
    public static func days(
        _ days: ClosedRange<CivilDate>, today: CivilDate, secondsOfDay: Int? = nil, definitions: [ItemDefinition], stored: [StoredOccurrence],
        bills recurring: [RecurringTransaction], transactions: [Transaction], money: [CalendarEvent], calendar: [CalendarOccurrence],
        zones: [String: Zone] = [:], viewer: Zone? = nil
    ) -> [Day] {
        // Bills from the one merge (reading only: a month never laid out is not laid out here),
        // and the rows a deleted recurring transaction left, as history.
        var bills: [CivilDate: [Entry]] = [:]
        for (bill, date, row) in OccurrenceMerge.bills(recurring, rows: transactions, in: days) {
            bills[date, default: []].append(
                Entry(
                    kind: "bill", id: row?.id, definitionID: bill.id, title: row?.name ?? bill.name, time: nil,
                    status: row.map { $0.status == .posted ? "open" : $0.status.rawValue } ?? "open", overdueSince: nil,
                    source: row == nil ? "virtual" : "stored", amount: row?.amount ?? bill.amount, payment: nil))
        }
        for row in transactions where row.definitionID == nil && days.contains(row.date) {
            bills[row.date, default: []].append(
                Entry(
                    kind: "bill", id: row.id, definitionID: nil, title: row.name, time: nil, status: row.status == .posted ? "open" : row.status.rawValue,
                    overdueSince: nil, source: "stored", amount: row.amount, payment: nil))
        }
        let dues = Dictionary(grouping: money, by: \.date)
        let external = Dictionary(grouping: calendar, by: \.date)
        // Items of their own zones, timed: on the viewer's day, by their instants.
        let zoned = viewer == nil ? [] : zoned(definitions, zones: zones)
        let placed =
            viewer.map {
                zonedEntries(days, today: today, secondsOfDay: secondsOfDay, definitions: definitions, stored: stored, zones: zones, viewer: $0)
            } ?? [:]
        return (days.lowerBound.dayNumber...days.upperBound.dayNumber).map { number in
            let day = CivilDate(dayNumber: number)
            let occurrences =
                day == today
                ? OccurrenceMerge.day(day, secondsOfDay: secondsOfDay, definitions: definitions, stored: stored)
                : OccurrenceMerge.occurrences(of: definitions, stored: stored, in: day...day)
            var entries = occurrences.filter { zoned.isEmpty || !placedByInstant($0, on: day, zoned) }.map {
                Entry(
                    kind: $0.kind.rawValue, id: $0.rowID, definitionID: $0.definition.id, title: $0.title, time: $0.time,
                    status: $0.overdue ? "overdue" : $0.status.rawValue, overdueSince: $0.overdue ? $0.date : nil,
                    source: $0.source.rawValue, amount: nil, payment: nil,
                    end: $0.kind == .event ? end(of: $0.date, at: $0.time, minutes: $0.definition.durationMinutes) : nil,
                    checklist: $0.definition.checklist.summary(on: Checklist.occurrence(of: $0.definition, on: $0.date)), overdueFrom: $0.overdueFrom)
            }
            if let more = placed[day] { entries = inserting(more, into: entries) }
            entries += bills[day] ?? []
            entries += (dues[day] ?? []).map {
                Entry(
                    kind: $0.kind.rawValue, id: nil, definitionID: $0.sourceID, title: $0.name, time: nil,
                    status: $0.payment != nil ? "logged" : "open", overdueSince: nil, source: "virtual", amount: $0.amount, payment: $0.payment)
            }
            // A calendar file's timed items in their place among the day's; all-day ones last.
            for occurrence in external[day] ?? [] {
                let entry = Entry(
                    kind: occurrence.kind.rawValue, id: nil, definitionID: nil, title: occurrence.title, time: occurrence.time,
                    status: "open", overdueSince: nil, source: "ics:\(occurrence.calendar)", amount: nil, payment: nil)
                let position = occurrence.time.flatMap { time in entries.firstIndex { $0.time.map { $0 > time } ?? true } } ?? entries.count
                entries.insert(entry, at: position)
            }
            return Day(date: day, entries: entries)
        }
    }
}
