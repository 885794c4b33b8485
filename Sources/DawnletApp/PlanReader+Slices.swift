import DawnletCore
import DawnletStore
import DawnletSystem
import Dispatch
import FoundationEssentials

extension PlanReader {
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
    /// on this one: `preview` writes some days while the next are planned (and, as text, written
    /// out). Reading the store stays on this thread. `emit` returns false to stop there.
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
        let window = asked.lowerBound...max(asked.lowerBound, min(asked.upperBound, PlanReader.latest))
        let definitions = try store.items.definitions(notes: false)
        let offsets = OffsetLists(definitions, lists: config.lists)
        let zoneBoxes = zoneBoxes(definitions)
        // Items of their own zones: their dates may be up to two days from this zone's.
        let skew = PlanReader.zoneSkew(definitions)
        let money = try MoneySources(store)
        // Occurrences up to the longest lead time after a slice can have reminders inside it.
        let lead = longestLeadDays(definitions, money: money)
        let rules = rules(definitions, databaseBegan: try store.log.createdAt())
        let log = try store.log.deliveryLog(since: logSince(window))
        let snoozed = try store.log.snoozes()
        let overdue = try overdueTodos(definitions)
        let calendars = calendarItems(window, now: now)
        let whole = dates(window, lead: lead, skew: skew)
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
        // A reminder that went out and waits may come back (a nag) until the bound after it went
        // out: days after its date, when it went out at the end of a snooze.
        for (id, settled) in log where rules.mayNag && !id.key.isDigest {
            guard let last = rules.lastReturn(settled) else { continue }
            guard let item = id.key.item else {
                oneSlice = true
                continue
            }
            reach = max(reach, ISO8601.localDate(of: last, in: zone).date.dayNumber - item.date.dayNumber)
        }
        // Quiet hours hold a reminder until they end, the next day at the latest.
        if rules.mayHold { reach = max(reach, 1) }
        if oneSlice { sliceSeconds = window.upperBound.secondsSinceEpoch - window.lowerBound.secondsSinceEpoch + 1 }
        let (zone, anchor, calendarItems) = (self.zone, whole.lowerBound, calendars.items)
        var start: Instant? = window.lowerBound
        // Each slice looks only at the definitions with something on its dates.
        var index = OccurrenceIndex(definitions, defaultAnchor: anchor)
        func next() throws -> Slice? {
            guard let from = start else { return nil }
            let end =
                from.secondsSinceEpoch + sliceSeconds - 1 < window.upperBound.secondsSinceEpoch ? from.adding(seconds: sliceSeconds - 1) : window.upperBound
            // Our own items' wall times are this zone's: one fires inside the slice only from a
            // date of the slice's own (or as many after as the longest lead, or before as a snooze
            // reaches). An external calendar's date is its own zone's: a day either side more.
            let (firstDay, lastDay) = (ISO8601.localDate(of: from, in: zone).date, ISO8601.localDate(of: end, in: zone).date)
            let own = max(whole.lowerBound, firstDay.adding(days: -reach - skew))...min(whole.upperBound, lastDay.adding(days: lead + skew))
            let (first, last) = (max(whole.lowerBound, own.lowerBound.adding(days: -1)), min(whole.upperBound, own.upperBound.adding(days: 1)))
            let stored = try store.items.storedOccurrences(in: own)
            let bills = money.bills.isEmpty ? [] : try store.money.transactions(in: own)
            let visiting = index.visiting(own)
            if let phases {
                phases.lap(\.read)
                OccurrenceMerge.forEachInPlace(of: definitions, stored: stored, in: own, defaultAnchor: anchor, visiting: visiting) { _, _, _, _ in
                    phases.occurrences += 1
                }
                phases.lap(\.expansion)
            }
            start = end == window.upperBound ? nil : end.adding(seconds: 1)
            if !oneSlice { sliceSeconds = min(2 * sliceSeconds, fullSlice) }
            return Slice(
                items: {
                    let items = PlanReader.items(
                        definitions, offsets: offsets, zones: zoneBoxes, money: money, in: own, anchoredFrom: anchor, stored: stored, bills: bills,
                        visiting: visiting)
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
}
