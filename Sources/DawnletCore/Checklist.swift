/// A todo's checklist: its entries in order, and which are checked on each occurrence. The checked
/// state belongs to one occurrence of a repeating todo (its date), so that the next one starts all
/// unchecked; a one-off todo has one state (the occurrence `nil`).
public struct Checklist: Hashable, Sendable {
    /// One entry: its id (stable when others are added or removed) and its text.
    public struct Entry: Hashable, Sendable {
        public let id: Int64
        public let text: String

        public init(id: Int64, text: String) {
            (self.id, self.text) = (id, text)
        }
    }

    public var entries: [Entry]
    /// The checked entries by occurrence (a repeating todo's date, nil for a one-off's): each
    /// entry's id, and when it was checked.
    public var checked: [CivilDate?: [Int64: Instant]]

    public init(entries: [Entry] = [], checked: [CivilDate?: [Int64: Instant]] = [:]) {
        (self.entries, self.checked) = (entries, checked)
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// The longest entry kept, in characters, and the most entries one todo holds.
    public static let textLimit = 200
    public static let mostEntries = 100

    /// Whether `entry` is checked on `occurrence`.
    public func isChecked(_ entry: Entry, on occurrence: CivilDate?) -> Bool {
        checked[occurrence]?[entry.id] != nil
    }

    /// When `entry` was checked on `occurrence`; nil when it is not.
    public func checkedAt(_ entry: Entry, on occurrence: CivilDate?) -> Instant? {
        checked[occurrence]?[entry.id]
    }

    /// How many entries are checked on `occurrence` (a removed entry's check no longer counts).
    public func doneCount(on occurrence: CivilDate?) -> Int {
        guard let ids = checked[occurrence], !ids.isEmpty else { return 0 }
        return entries.count(where: { ids[$0.id] != nil })
    }

    /// `3 of 5 done`; nil for no checklist.
    public func summary(on occurrence: CivilDate?) -> String? {
        entries.isEmpty ? nil : "\(doneCount(on: occurrence)) of \(entries.count) done"
    }

    /// The occurrence of `d` whose checks `date` counts: the date itself for a repeating todo, nil
    /// (its one state) for a one-off.
    public static func occurrence(of d: ItemDefinition, on date: CivilDate) -> CivilDate? {
        d.schedule == nil ? nil : date
    }

    /// The occurrence a checklist shows and is checked on when none is named: a one-off's one
    /// state (nil); for a repeating todo today's occurrence when today is one, else the next open
    /// one within a year (none: today, on which nothing is checked).
    public static func current(of d: ItemDefinition, stored: [StoredOccurrence], today: CivilDate) -> CivilDate? {
        guard let schedule = d.schedule else { return nil }
        let own = stored.filter { $0.definitionID == d.id && $0.kind == d.kind }
        if own.contains(where: { $0.date == today }) || schedule.matches(today, defaultAnchor: d.date ?? today) { return today }
        return OccurrenceMerge.occurrences(of: [d], stored: own, in: today...today.adding(days: 366)).first { $0.status == .open }?.date ?? today
    }

    /// The entry `item` names: its number in the list (1 is the first) or its exact text; nil
    /// for none.
    public func entry(named item: String) -> Entry? {
        if let number = Int(item), item.allSatisfy({ ("0"..."9").contains($0) }) {
            return (1...entries.count).contains(number) ? entries[number - 1] : nil
        }
        return entries.first { $0.text == item }
    }
}
