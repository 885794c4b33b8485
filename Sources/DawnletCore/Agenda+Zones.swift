/// The agenda's items of their own zones (`ItemZone`): each timed occurrence stands on the viewer's
/// day at the viewer's time, with its own time and zone beside it when they read otherwise.
extension Agenda {
    /// The definitions whose own zone is in `zones`: their timed occurrences are placed by instant.
    static func zoned(_ definitions: [ItemDefinition], zones: [String: Zone]) -> Set<DefinitionRef> {
        Set(definitions.compactMap { d in d.zone.flatMap { zones[$0] } == nil ? nil : DefinitionRef(kind: d.kind, id: d.id) })
    }

    struct DefinitionRef: Hashable {
        let kind: ItemKind
        let id: Int64
    }

    /// Whether the merge's occurrence `o`, listed on `day`, is one `zonedEntries` places instead:
    /// a timed one of its own zone, but not an overdue one-off from a day before, which stays on today.
    static func placedByInstant(_ o: Occurrence, on day: CivilDate, _ zoned: Set<DefinitionRef>) -> Bool {
        o.time != nil && !(o.overdue && o.date < day) && zoned.contains(DefinitionRef(kind: o.kind, id: o.definition.id))
    }

    /// The timed occurrences of items of their own zones, by the viewer's day within `days`: each
    /// read in its zone, shown at the viewer's time. A one-off todo still open is overdue on today
    /// from its instant.
    static func zonedEntries(
        _ days: ClosedRange<CivilDate>, today: CivilDate, secondsOfDay: Int?, definitions: [ItemDefinition], stored: [StoredOccurrence],
        zones: [String: Zone], viewer: Zone
    ) -> [CivilDate: [Entry]] {
        let own = definitions.filter { d in d.zone.flatMap { zones[$0] } != nil }
        guard !own.isEmpty else { return [:] }
        var result: [CivilDate: [Entry]] = [:]
        // An item's day can be two from the viewer's (UTC+14 and UTC-12).
        for o in OccurrenceMerge.occurrences(of: own, stored: stored, in: days.lowerBound.adding(days: -2)...days.upperBound.adding(days: 2)) {
            guard let time = o.time, let name = o.definition.zone, let zone = zones[name] else { continue }
            let shown = ItemZone.shown(time, on: o.date, in: zone, viewer: viewer)
            guard days.contains(shown.date) else { continue }
            let timedToday = o.kind == .todo && o.definition.schedule == nil && o.status == .open && shown.date == today && secondsOfDay != nil
            let overdue = timedToday && secondsOfDay.map { OccurrenceMerge.isOverdue(shown.date, at: shown.time, now: (today, $0)) } == true
            var entry = Entry(
                kind: o.kind.rawValue, id: o.rowID, definitionID: o.definition.id, title: o.title, time: shown.time,
                status: overdue ? "overdue" : o.status.rawValue, overdueSince: overdue ? shown.date : nil, source: o.source.rawValue, amount: nil,
                payment: nil, end: o.kind == .event ? end(of: shown.date, at: shown.time, minutes: o.definition.durationMinutes) : nil)
            entry.own = shown.own
            if timedToday { entry.overdueFrom = shown.time }
            result[shown.date, default: []].append(entry)
        }
        return result
    }

    /// `entries` with `more` put in their places by time (timed before untimed, as the merge orders).
    static func inserting(_ more: [Entry], into entries: [Entry]) -> [Entry] {
        var entries = entries
        for entry in more.sorted(by: { ($0.time ?? .midnight) < ($1.time ?? .midnight) }) {
            let time = entry.time ?? .midnight
            let position = entries.firstIndex { $0.time.map { $0 > time } ?? true } ?? entries.count
            entries.insert(entry, at: position)
        }
        return entries
    }
}
