import FoundationEssentials

extension Planner {
    /// A plan made again for some of its items only: the runner's re-plan after a write.
    /// What `changed` says belongs to the changed definitions is taken out (its reminders,
    /// its lines in digests); `items`, their occurrences now, and `overdue`, those of them that are
    /// open one-off todos, are planned in; and each digest of the window is made again from what it
    /// listed and what changed. The result is the plan made whole over `window`, in its order,
    /// except that the reminders kept keep the statuses the old plan gave them (the runner decides
    /// on instants and on what the log settled, never on those).
    public static func splice(
        _ plan: inout [PlannedReminder], changed: (ReminderKind, Int64) -> Bool, items: [PlanItem], overdue: [PlanItem], rules: PlanRules,
        log: [DeliveryID: Settlement], snoozed: [DeliveryID: Instant], now: Instant, window: ClosedRange<Instant>, zone: Zone
    ) {
        let context = Context(rules: rules, log: log, now: now, zone: zone, items: items)
        // What the digests of the window listed, less what changed; the days whose lists that
        // changes (read through the indices: a reminder is not copied to be looked at).
        var due: [CivilDate: [PlanItem]] = [:]
        var late: [Int64: PlanItem] = [:]
        var touched = Set<CivilDate>()
        // An open one-off todo is listed by the digests after its date: one dated past the
        // window's last day is in none of them.
        let lastDay = ISO8601.localDate(of: window.upperBound, in: zone).date.adding(days: 1)
        var overdueChanged = overdue.contains { $0.date < lastDay }
        func isChanged(_ item: PlanItem) -> Bool { !item.isCalendar && changed(item.kind, item.definitionID) }
        for index in plan.indices {
            guard case .digest(let day) = plan[index].key, window.contains(plan[index].fireAt) else { continue }
            let (items, overdueCount) = (plan[index].items, plan[index].overdueCount)
            let listed = items.prefix(items.count - overdueCount)
            let kept = listed.filter { !isChanged($0) }
            if kept.count != listed.count { touched.insert(day) }
            due[day] = kept
            for item in items.suffix(overdueCount) {
                if isChanged(item) { overdueChanged = true } else { late[item.definitionID] = item }
            }
        }
        let (made, fresh) = timed(items, context, snoozed: snoozed, window: window, scope: window, includeSuppressed: false)
        var inserted = made.reminders(of: items, routes: context.routes)
        for (day, list) in fresh {
            due[day, default: []] += list
            touched.insert(day)
        }
        // Made again: every digest when the overdue todos changed (each lists them), else only
        // the days whose lists did.
        let remade: Set<CivilDate>? = overdueChanged ? nil : touched
        // Taken out in place, told apart by their keys: `kind:id:…` is an item's, `ics:…` a
        // calendar's (never changed here), `digest:…` a digest's.
        plan.removeAll { reminder in
            guard window.contains(reminder.fireAt) else { return true }
            switch reminder.key {
            case .item(let kind, let id, _, _): return changed(kind, id)
            case .calendar: return false
            case .digest(let day): return remade?.contains(day) ?? true
            }
        }
        // Overdue todos are listed by id, as the whole plan lists them.
        let overdueNow = (Array(late.values) + overdue).sorted { $0.definitionID < $1.definitionID }
        inserted += digests(due, overdue: overdueNow, context, window: window, only: remade)
        inserted = fireOrder(inserted.map(\.fireAt.secondsSinceEpoch)) { inserted[$0].key }.map { inserted[$0] }
        func precedes(_ a: PlannedReminder, _ b: PlannedReminder) -> Bool {
            a.fireAt < b.fireAt || (a.fireAt == b.fireAt && a.key.precedes(b.key))
        }
        // A few go in where they belong (a move of the rest, not a copy); many, by one merge.
        guard inserted.count > 64 else {
            var low = 0
            for reminder in inserted {
                var high = plan.count
                while low < high {
                    let mid = (low + high) / 2
                    if precedes(reminder, plan[mid]) { high = mid } else { low = mid + 1 }
                }
                plan.insert(reminder, at: low)
                low += 1
            }
            return
        }
        var merged: [PlannedReminder] = []
        merged.reserveCapacity(plan.count + inserted.count)
        var (i, j) = (0, 0)
        while i < plan.count || j < inserted.count {
            if j < inserted.count && (i == plan.count || precedes(inserted[j], plan[i])) {
                merged.append(inserted[j])
                j += 1
            } else {
                merged.append(plan[i])
                i += 1
            }
        }
        plan = merged
    }
}
