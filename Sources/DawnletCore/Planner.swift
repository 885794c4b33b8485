import FoundationEssentials

/// The planner: a pure function of occurrences, rules, the delivery log, now and the
/// zone. The runner and `preview` call this same function.
public enum Planner {
    /// - Parameters:
    ///   - items: merged occurrences of every module and money source, for dates covering the
    ///     window plus the longest offset (the caller widens the range).
    ///   - overdue: one-off todos not done, listed in each morning digest after their due date.
    ///   - window: the fire instants wanted, inclusive.
    ///   - log: the delivery log's settled deliveries (delivered, failed, missed).
    ///   - snoozed: deliveries a snooze moved, and their new instants.
    ///   - includeSuppressed: also return what is skipped, done or logged (`preview --all`).
    ///   - scope: the whole plan's window, when this is a slice of it: a snoozed reminder, or one a
    ///     nag brings back, is planned at its new instant (in `window`) when its first instant, due
    ///     or held, is in `scope` (default: `window`).
    public static func plan(
        items: [PlanItem], overdue: [PlanItem], rules: PlanRules, log: [DeliveryID: Settlement], snoozed: [DeliveryID: Instant] = [:],
        now: Instant, window: ClosedRange<Instant>, scope: ClosedRange<Instant>? = nil, zone: Zone, includeSuppressed: Bool = false
    ) -> Plan {
        var reminders: [PlannedReminder] = []
        forEach(
            items: items, overdue: overdue, rules: rules, log: log, snoozed: snoozed, now: now, window: window, scope: scope,
            zone: zone, includeSuppressed: includeSuppressed
        ) {
            reminders.append($0); return true
        }
        return Plan(reminders: reminders)
    }

    /// The same plan handed to `body` one reminder at a time, in its order, without building it
    /// sorted: the reminders are made in item order and visited through their sorted indices.
    /// `body` returns false to stop; then this returns false.
    @discardableResult
    public static func forEach(
        items: [PlanItem], overdue: [PlanItem], rules: PlanRules, log: [DeliveryID: Settlement], snoozed: [DeliveryID: Instant] = [:],
        now: Instant, window: ClosedRange<Instant>, scope: ClosedRange<Instant>? = nil, zone: Zone, includeSuppressed: Bool = false,
        _ body: (PlannedReminder) throws -> Bool
    ) rethrows -> Bool {
        try ordered(
            items: items, overdue: overdue, rules: rules, log: log, snoozed: snoozed, now: now, window: window, scope: scope, zone: zone,
            includeSuppressed: includeSuppressed
        ).forEach(body)
    }

    /// The same plan, made and put in order but not yet visited (see `Ordered`).
    public static func ordered(
        items: [PlanItem], overdue: [PlanItem], rules: PlanRules, log: [DeliveryID: Settlement], snoozed: [DeliveryID: Instant] = [:],
        now: Instant, window: ClosedRange<Instant>, scope: ClosedRange<Instant>? = nil, zone: Zone, includeSuppressed: Bool = false
    ) -> Ordered {
        let context = Context(rules: rules, log: log, now: now, zone: zone, items: items)
        var (made, digestItems) = timed(items, context, snoozed: snoozed, window: window, scope: scope ?? window, includeSuppressed: includeSuppressed)
        for digest in digests(digestItems, overdue: overdue, context, window: window) { made.append(digest) }
        return Ordered(items: items, made: made, routes: context.routes)
    }

    /// What every part of a plan looks up: the rules, the log, now and the zone.
    struct Context {
        let rules: PlanRules
        let log: [DeliveryID: Settlement]
        let now: Instant
        let zone: Zone
        let days: ZoneDayCache
        /// Per kind, by its ordinal: looked up once per item, so indexed rather than hashed.
        let routes: [[Channel]]
        let defaults: [[ReminderOffset]]
        /// Some reminder went out and waits for an answer: a nag may bring it back.
        let mayRepeat: Bool

        init(rules: PlanRules, log: [DeliveryID: Settlement], now: Instant, zone: Zone, items: [PlanItem]) {
            self.rules = rules
            self.log = log
            // Only where something nags, and something went out and waits: else no reminder is
            // looked at for a return.
            mayRepeat =
                (rules.mayNag || items.contains { $0.styleBox != nil && $0.style?.nag.map { $0 > .zero } == true })
                && log.contains { $0.value.waiting && !$0.key.key.isDigest }
            self.now = now
            self.zone = zone
            days = ZoneDayCache(zone: zone)
            // Copies of this plan's own: each reminder holds its channels, and a plan made on one
            // thread does not count references on arrays a plan on another counts too.
            routes = ReminderKind.allCases.map { rules.route($0).map { $0 } }
            defaults = ReminderKind.allCases.map { (rules.defaults[$0] ?? []).map { $0 } }
        }

        /// What the log says of each channel, and the status that makes.
        func status(_ key: ReminderKey, _ fireAt: Instant, _ channels: [Channel]) -> (PlannedReminder.Status, [Channel: Settlement]) {
            var settled: [Channel: Settlement] = [:]
            if !log.isEmpty { for channel in channels { settled[channel] = log[DeliveryID(key, channel)] } }
            if !channels.isEmpty && settled.count == channels.count { return (.settled, settled) }
            return (PlannedReminder.Status(rules.policy.timing(fireAt, now: now, kind: key.item?.kind ?? key.calendarKind)), settled)
        }

        /// The item's nag, if its reminders come back until answered.
        func nag(_ item: PlanItem) -> Nag? {
            let every = rules.nagSeconds(item)
            return every > 0 ? Nag(every: every, bound: rules.nagFor.wholeSeconds) : nil
        }

        /// A reminder of `item` that went out on some of `channels` and waits for an answer, back
        /// at its nag's next instant (inside `window`) on each of them.
        func repeats(
            _ key: ReminderKey, _ item: PlanItem, offset: ReminderOffset, channels: [Channel], notes: [String], window: ClosedRange<Instant>,
            into made: inout Made
        ) {
            guard mayRepeat, let nag = nag(item) else { return }
            for channel in channels {
                guard let settled = log[DeliveryID(key, channel)], settled.waiting, let first = settled.firstDelivered,
                    let next = nag.next(first: first, last: settled.at ?? first, now: now, lateAfter: rules.policy.lateAfter)
                else { continue }
                // A return inside quiet hours waits for their end.
                let utc = zone.utcOffset(at: next.at)
                let held = rules.heldUntil(next.at, local: next.at.secondsSinceEpoch + Int64(utc), item, zone: zone)
                let at = held ?? next.at
                guard window.contains(at) else { continue }
                var note = "back on \(channel) until answered: \(next.number) of \(nag.most), every \(DurationText.format(.seconds(nag.every)))"
                if held != nil { note += "; held for quiet hours" }
                var reminder = PlannedReminder(
                    key: key, fireAt: at, utcOffset: zone.utcOffset(at: at), channels: [channel], status: timing(at), settled: [:], snoozed: false,
                    item: item, offset: offset, notes: notes + [note], items: [], overdueCount: 0, occurrenceDate: item.date)
                reminder.repetition = next.number
                reminder.heldFrom = held.map { _ in next.at }
                made.append(reminder)
            }
        }

        /// The item's own channels, else an external calendar's, else its kind's route.
        func channels(of item: PlanItem) -> [Channel] {
            item.channels ?? (item.isCalendar ? item.calendar.flatMap { rules.calendarChannels[$0.calendar] } : nil) ?? routes[item.kind.ordinal]
        }

        func timing(_ fireAt: Instant) -> PlannedReminder.Status { PlannedReminder.Status(rules.policy.timing(fireAt, now: now)) }
    }

    /// The reminders of items with a time (and of calendar alarms), and the date-only items each
    /// morning digest is to list, by the digest's day. Items are read where they are: a plain
    /// reminder (see `Fire`) is kept without a copy of its item, and our own items are planned
    /// without taking out an external calendar's instance.
    static func timed(
        _ items: [PlanItem], _ context: Context, snoozed: [DeliveryID: Instant], window: ClosedRange<Instant>,
        scope: ClosedRange<Instant>, includeSuppressed: Bool
    ) -> (reminders: Made, digestItems: [CivilDate: [PlanItem]]) {
        var made = Made(capacity: items.count)
        var digests: [CivilDate: [PlanItem]] = [:]
        let (days, zone, rules) = (context.days, context.zone, context.rules)
        func timing(_ fireAt: Instant) -> PlannedReminder.Status { context.timing(fireAt) }

        /// A reminder of `item` at `fireAt`, where a snooze, the log, a note or a suppression may
        /// make it more than plain.
        // What is made goes through `inout` parameters, not captures: a variable the nested
        // functions captured would be checked for exclusive access at run time, per reminder.
        func plan(
            _ index: Int, _ item: PlanItem, key: ReminderKey, fireAt due: Instant, utcOffset dueOffset: Int, offset: ReminderOffset, gap: String?,
            plain: Bool, into made: inout Made
        ) {
            // Due inside quiet hours: held until they end.
            let held = !rules.mayHold ? nil : rules.heldUntil(due, local: due.secondsSinceEpoch + Int64(dueOffset), item, zone: zone)
            let fireAt = held ?? due
            let utcOffset = held.map { zone.utcOffset(at: $0) } ?? dueOffset
            let inWindow = window.contains(fireAt)
            // Outside this slice it may still bring a snooze or a nag's return into it, as it does
            // in the whole plan: when the plan's scope holds the instant it goes out (where quiet
            // hours may hold it from a due instant before the scope) or its due one.
            guard inWindow || ((!snoozed.isEmpty || context.mayRepeat) && (scope.contains(fireAt) || scope.contains(due))) else { return }
            // What a snooze's or a nag's return says too; a hold is this instant's own.
            var notes: [String] = item.note == nil && gap == nil ? [] : [item.note, gap].compactMap { $0 }
            if let tag = item.listTag {
                // Its list mutes it: not sent at all (shown by `preview --all`).
                if let mute = item.list?.mute, mute.end(of: due, local: due.secondsSinceEpoch + Int64(dueOffset), kind: item.kind, zone: zone) != nil {
                    guard includeSuppressed, inWindow else { return }
                    return made.append(
                        PlannedReminder(
                            key: key, fireAt: due, utcOffset: dueOffset, channels: context.channels(of: item), status: .suppressed(.muted), settled: [:],
                            snoozed: false, item: item, offset: offset, notes: notes + ["muted by list \(tag)"], items: [], overdueCount: 0,
                            occurrenceDate: item.date))
                }
                notes.append("list \(tag)")
            }
            var channels = context.channels(of: item)
            var moved = false
            if !snoozed.isEmpty && item.suppression == nil {
                // A snoozed channel fires again at its new instant; the others keep this one.
                for channel in channels {
                    guard let until = snoozed[DeliveryID(key, channel)], window.contains(until) else { continue }
                    let utc = zone.utcOffset(at: until)
                    let note = "snoozed on \(channel) until \(ISO8601.format(until, utcOffset: utc).dropFirst(11).prefix(5))"
                    made.append(
                        PlannedReminder(
                            key: key, fireAt: until, utcOffset: utc, channels: [channel], status: timing(until), settled: [:], snoozed: true,
                            item: item, offset: offset, notes: notes + [note], items: [], overdueCount: 0, occurrenceDate: item.date))
                }
                let before = channels.count
                channels.removeAll { snoozed[DeliveryID(key, $0)] != nil }
                if channels.isEmpty { return }
                moved = channels.count != before
            }
            if item.suppression == nil {
                context.repeats(key, item, offset: offset, channels: channels, notes: notes, window: window, into: &made)
                context.escalations(key, item, offset: offset, channels: channels, notes: notes, window: window, into: &made)
            }
            guard inWindow else { return }
            if item.suppression != nil && !includeSuppressed { return }
            let (state, settled) = item.suppression.map { (.suppressed($0), [:]) } ?? context.status(key, fireAt, channels)
            if plain && notes.isEmpty && held == nil && !moved && settled.isEmpty {
                return made.append(
                    item: index, at: fireAt, utcOffset: utcOffset, offset: offset, timing: rules.policy.timing(fireAt, now: context.now, kind: item.kind))
            }
            let heldNote = held.map { _ in "held for quiet hours (due \(ISO8601.format(due, utcOffset: dueOffset).dropFirst(11).prefix(5)))" }
            let ladder = rules.ladder(item)
            switch state {
            case .pending, .due, .late:
                if !ladder.isEmpty { notes.append("if unanswered, on to \(EscalationStep.words(ladder))") }
            default: break
            }
            var reminder = PlannedReminder(
                key: key, fireAt: fireAt, utcOffset: utcOffset, channels: channels, status: state, settled: settled, snoozed: false,
                item: item, offset: offset, notes: heldNote.map { notes + [$0] } ?? notes, items: [], overdueCount: 0, occurrenceDate: item.date)
            if held != nil { reminder.heldFrom = due }
            made.append(reminder)
        }

        /// A date-only item joins the morning digest of its day, or of the day a whole number of
        /// days before it; a shorter offset (an all-day event's default 10m) means its day.
        func list(_ item: PlanItem, _ offsets: [ReminderOffset], into digests: inout [CivilDate: [PlanItem]]) {
            let ahead = offsets.count == 1 ? [offsets[0].exactSeconds / 86_400] : Array(Set(offsets.map { $0.exactSeconds / 86_400 }))
            for days in ahead { digests[item.date.adding(days: -days), default: []].append(item) }
        }

        /// An external calendar's item: its own VALARMs, or its calendar's offsets from its start.
        func plan(_ index: Int, calendar item: PlanItem, into made: inout Made, digests: inout [CivilDate: [PlanItem]]) {
            guard let calendar = item.calendar else { return }
            // Of a time before this machine first saw the item (or the database began): never sent.
            let from = max(began, Self.floor(item.notBefore, now: context.now))
            if let alarms = calendar.alarms {
                // Exact instants, keyed by the instant (an alarm moved with its event reminds
                // again; one re-read unchanged does not).
                // A snooze, a nag's return or quiet hours move one as any other reminder.
                for alarm in alarms where alarm.secondsSinceEpoch >= from {
                    let lead = max(0, Int((calendar.start ?? alarm).secondsSinceEpoch - alarm.secondsSinceEpoch) / 60)
                    let key = ReminderKey.calendar(
                        CalendarReference(calendar: calendar.calendar, uid: calendar.uid, instance: calendar.instance, trigger: .alarm(alarm)))
                    plan(
                        index, item, key: key, fireAt: alarm, utcOffset: days.utcOffset(at: alarm), offset: .minutes(lead), gap: nil, plain: false,
                        into: &made)
                }
                return
            }
            let offsets = context.defaults[item.kind.ordinal]
            if item.time == nil && item.suppression == nil { return list(item, offsets, into: &digests) }
            for offset in offsets {
                // Its start is an instant (seconds, and which of a repeated hour, included); its
                // wall time is only what it shows.
                let (fireAt, utcOffset, gap) =
                    calendar.start.map { fireInstant(start: $0, offset: offset, days: days) }
                    ?? fireInstant(base: item.time ?? rules.morningDigest, date: item.date, offset: offset, days: days)
                // Seen on another device (a calendar's X-MOZ-LASTACK): not due here.
                if let acknowledged = calendar.acknowledged, fireAt <= acknowledged { continue }
                if fireAt.secondsSinceEpoch < from { continue }
                let key = CalendarReference(calendar: calendar.calendar, uid: calendar.uid, instance: calendar.instance, trigger: .offset(offset))
                plan(
                    index, item, key: .calendar(key), fireAt: fireAt, utcOffset: utcOffset, offset: offset, gap: gap, plain: false, into: &made)
            }
        }

        let began = Self.floor(rules.databaseBegan?.secondsSinceEpoch ?? .min, now: context.now)
        // The days of items' own zones, one cache each, made when an item first needs it.
        var zoneCaches: [String: ZoneDayCache] = [:]
        func zoneDays(_ zone: Zone) -> ZoneDayCache {
            if zone == context.zone { return days }
            if let known = zoneCaches[zone.identifier], known.zone == zone { return known }
            let made = ZoneDayCache(zone: zone)
            zoneCaches[zone.identifier] = made
            return made
        }
        items.withUnsafeBufferPointer { buffer in
            for index in buffer.indices {
                let p = buffer.baseAddress! + index
                if p.pointee.isCalendar {
                    plan(index, calendar: p.pointee, into: &made, digests: &digests)
                    continue
                }
                let kind = p.pointee.kind.ordinal
                if p.pointee.time == nil && p.pointee.suppression == nil {
                    list(p.pointee, p.pointee.ownOffsetCount == 0 ? context.defaults[kind] : p.pointee.offsets, into: &digests)
                    continue
                }
                // Plain: kept as it is, its channels its kind's route.
                // One of its own zone says which in its reason, one of a list its list: not plain.
                let plain =
                    p.pointee.note == nil && p.pointee.suppression == nil && p.pointee.channels == nil && p.pointee.zoneBox == nil && p.pointee.list == nil
                let from = max(began, Self.floor(p.pointee.notBefore, now: context.now))
                // Its offsets read where they are, by index: no reference counted per item.
                let own = p.pointee.ownOffsetCount
                // An item of its own zone: its wall time read there (its DST decides), the instant
                // shown at the plan zone's offset.
                let itemDays = p.pointee.zoneBox.map { zoneDays($0.zone) } ?? days
                for k in 0..<(own > 0 ? own : context.defaults[kind].count) {
                    let offset = own > 0 ? p.pointee.ownOffset(k) : context.defaults[kind][k]
                    var (fireAt, utcOffset, gap) = fireInstant(
                        base: p.pointee.time ?? rules.morningDigest, date: p.pointee.date, offset: offset, days: itemDays)
                    if itemDays !== days {
                        utcOffset = days.utcOffset(at: fireAt)
                        gap = gap.map { "\($0) in \(itemDays.zone.identifier)" }
                    }
                    // Of a time before the item existed: never sent, late or otherwise.
                    if fireAt.secondsSinceEpoch < from { continue }
                    // Nothing snoozed, logged or quiet to look up: a plain one is kept as it is.
                    if plain && gap == nil && snoozed.isEmpty && context.log.isEmpty && !rules.mayHold {
                        if window.contains(fireAt) {
                            made.append(
                                item: index, at: fireAt, utcOffset: utcOffset, offset: offset,
                                timing: rules.policy.timing(fireAt, now: context.now, kind: p.pointee.kind))
                        }
                        continue
                    }
                    let key = ReminderKey.item(p.pointee.kind, id: p.pointee.definitionID, date: p.pointee.date, offset: offset)
                    plan(index, p.pointee, key: key, fireAt: fireAt, utcOffset: utcOffset, offset: offset, gap: gap, plain: plain, into: &made)
                }
            }
        }
        return (made, digests)
    }

    /// A bound below which nothing is reminded (an item's making, the database's beginning), as
    /// the plan at `now` applies it: not at all while it is still to come — the clock reads
    /// earlier than the bound was set, so the bound is not to be trusted.
    @inline(__always)
    static func floor(_ bound: Int64, now: Instant) -> Int64 {
        bound <= now.secondsSinceEpoch ? bound : .min
    }

    /// One morning digest a day whose digest time falls in `window`: its date-only items and the
    /// one-off todos overdue by then.
    /// With `only`, just the digests of those days.
    static func digests(
        _ digests: [CivilDate: [PlanItem]], overdue: [PlanItem], _ context: Context,
        window: ClosedRange<Instant>, only days: Set<CivilDate>? = nil
    ) -> [PlannedReminder] {
        var result: [PlannedReminder] = []
        let (zone, rules) = (context.zone, context.rules)
        let firstDay = ISO8601.localDate(of: window.lowerBound, in: zone).date
        let lastDay = ISO8601.localDate(of: window.upperBound, in: zone).date
        var day = firstDay.adding(days: -1)
        while day <= lastDay.adding(days: 1) {
            defer { day = day.adding(days: 1) }
            if let days, !days.contains(day) { continue }
            let resolved = zone.resolve(rules.morningDigest, on: day)
            guard window.contains(resolved.instant) else { continue }
            // A digest of a time before the database began: nobody's to send.
            if let began = rules.databaseBegan, resolved.instant.secondsSinceEpoch < floor(began.secondsSinceEpoch, now: context.now) { continue }
            let due = digests[day] ?? []
            let late = overdue.filter { $0.date < day }
            guard !due.isEmpty || !late.isEmpty else { continue }
            let listed = due.sorted { ($0.kind, $0.definitionID) < ($1.kind, $1.definitionID) }
            let contents = listed + late
            let channels = Array(Set(contents.flatMap(context.channels(of:)))).sorted()
            let key = ReminderKey.digest(day)
            var notes: [String] = []
            if case .skippedByGap(let seconds) = resolved.resolution {
                notes.append("\(rules.morningDigest) does not exist on \(day): moved \(seconds / 60) min by the DST gap")
            }
            // In the order the digest lists its items, however they came.
            notes += listed.compactMap { item in item.note.map { "\(item.title): \($0)" } }
            let (state, settled) = context.status(key, resolved.instant, channels)
            result.append(
                PlannedReminder(
                    key: key, fireAt: resolved.instant, utcOffset: resolved.utcOffset, channels: channels,
                    status: state, settled: settled, snoozed: false, item: nil, offset: nil, notes: notes, items: contents,
                    overdueCount: late.count, occurrenceDate: day))
        }

        return result
    }

    /// "1 item", "3 items".
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
