import FoundationEssentials

/// Something a reminder can be about: one merged occurrence of any module or money source.
public struct PlanItem: Hashable, Sendable {
    public enum Suppression: String, Hashable, Sendable { case skipped, done, logged }

    public let kind: ReminderKind
    public let definitionID: Int64
    public let date: CivilDate
    /// Nil for a date-only item, which goes in the morning digest.
    public let time: WallTime?
    public let title: String
    public let source: Occurrence.Source
    /// The item's own offsets; empty means the kind's defaults.
    public var offsets: [ReminderOffset] {
        switch own {
        case .none: []
        case .one(let offset): [offset]
        case .many(let offsets): offsets
        }
    }
    /// How many of its own offsets it has, and each: read per item without an array.
    var ownOffsetCount: Int {
        switch own {
        case .none: 0
        case .one: 1
        case .many(let offsets): offsets.count
        }
    }
    func ownOffset(_ i: Int) -> ReminderOffset {
        switch own {
        case .none: preconditionFailure("no offsets of its own")
        case .one(let offset): offset
        case .many(let offsets): offsets[i]
        }
    }
    @usableFromInline let own: Offsets
    /// An item's own offsets as a plan keeps them: nearly every item has one or none, kept in
    /// place, so the many items of a plan count no references on a shared list (two atomic
    /// operations an item). Made with `init(_:)`, always the shortest case, so that equal lists
    /// are equal.
    public enum Offsets: Hashable, Sendable {
        case none
        case one(ReminderOffset)
        case many([ReminderOffset])

        public init(_ offsets: [ReminderOffset]) {
            switch offsets.count {
            case 0: self = .none
            case 1: self = .one(offsets[0])
            default: self = .many(offsets)
            }
        }
    }
    public let suppression: Suppression?
    /// Extra words for the reminder (an amount, a duration).
    public let detail: String?
    /// Why this date (a clamped day of month), for `preview`.
    public let note: String?
    /// The external calendar instance behind a `calendar` item; boxed, so the many
    /// items of a plan stay small.
    public var calendar: CalendarOccurrence? { calendarBox?.occurrence }
    /// Whether it is an external calendar's: asked per reminder, without copying the instance.
    public var isCalendar: Bool { calendarBox != nil }
    @usableFromInline let calendarBox: CalendarBox?

    @usableFromInline final class CalendarBox: Hashable, Sendable {
        let occurrence: CalendarOccurrence
        init(_ occurrence: CalendarOccurrence) { self.occurrence = occurrence }
        @usableFromInline static func == (a: CalendarBox, b: CalendarBox) -> Bool { a.occurrence == b.occurrence }
        @usableFromInline func hash(into hasher: inout Hasher) { hasher.combine(occurrence) }
    }

    public init(
        kind: ReminderKind, definitionID: Int64, date: CivilDate, time: WallTime?, title: String,
        source: Occurrence.Source, offsets: [ReminderOffset] = [], suppression: Suppression? = nil,
        detail: String? = nil, note: String? = nil
    ) {
        self.init(
            kind: kind, definitionID: definitionID, date: date, time: time, title: title, source: source, offsets: Offsets(offsets),
            suppression: suppression, detail: detail, note: note, box: nil)
    }

    /// The same, its offsets as a plan keeps them: made per occurrence from what was worked out
    /// once per definition, in the caller's code (a call of ten arguments an occurrence, else).
    @inlinable
    public init(
        kind: ReminderKind, definitionID: Int64, date: CivilDate, time: WallTime?, title: String,
        source: Occurrence.Source, offsets: Offsets, suppression: Suppression?, detail: String?, note: String?
    ) {
        self.init(
            kind: kind, definitionID: definitionID, date: date, time: time, title: title, source: source, offsets: offsets,
            suppression: suppression, detail: detail, note: note, box: nil)
    }

    /// An external calendar's instance, as a `calendar` item.
    public init(calendar occurrence: CalendarOccurrence) {
        self.init(
            kind: .calendar, definitionID: 0, date: occurrence.date, time: occurrence.time, title: occurrence.title, source: .virtual, offsets: .none,
            suppression: nil, detail: nil, note: nil, box: CalendarBox(occurrence))
    }

    // One made per occurrence planned: no calendar instance to take in and let go of for the
    // many that have none.
    @inlinable
    init(
        kind: ReminderKind, definitionID: Int64, date: CivilDate, time: WallTime?, title: String, source: Occurrence.Source,
        offsets: Offsets, suppression: Suppression?, detail: String?, note: String?, box: CalendarBox?
    ) {
        calendarBox = box
        self.kind = kind
        self.definitionID = definitionID
        self.date = date
        self.time = time
        self.title = title
        self.source = source
        own = offsets
        self.suppression = suppression
        self.detail = detail
        self.note = note
    }
}

/// One planned reminder: when, what, where, and why.
public struct PlannedReminder: Hashable, Sendable {
    public enum Status: Hashable, Sendable {
        /// Fires at `fireAt`, in the future.
        case pending
        /// Its instant has come (at most `DeliveryPolicy.lateAfter` ago): goes out now, on time.
        case due
        /// Was due and not delivered, still inside the grace window: goes out now, marked late.
        case late
        /// Was due longer ago than the grace window: recorded as missed, not sent.
        case missed
        /// The delivery log has settled every channel (`settled` says how).
        case settled
        /// Produces no reminder: skipped, done or logged.
        case suppressed(PlanItem.Suppression)

        public init(_ timing: DeliveryPolicy.Timing) {
            switch timing {
            case .pending: self = .pending
            case .due: self = .due
            case .late: self = .late
            case .missed: self = .missed
            }
        }
    }

    /// Still to go out: pending, or due or late now (what `next` looks for).
    public var isToGoOut: Bool {
        switch status {
        case .pending, .due, .late: return true
        default: return false
        }
    }

    /// Deterministic: `todo:3:2026-12-01:10m`, `digest:2026-12-01`, `ics:…`. A channel's
    /// delivery is a `DeliveryID` (`key@channel`).
    public let key: ReminderKey
    public let fireAt: Instant
    public let utcOffset: Int
    public let channels: [Channel]
    public let status: Status
    /// How the delivery log says each channel's delivery ended (only the settled ones).
    public let settled: [Channel: Settlement]
    /// A snooze moved it to `fireAt`.
    public let snoozed: Bool
    /// What the reminder is about (nil for a digest) and how far ahead of it it fires.
    public let item: PlanItem?
    public let offset: ReminderOffset?
    /// What is out of the ordinary about its time or date: a DST gap or repeat, a clamped day.
    public let notes: [String]
    /// The digest's contents (empty for other reminders): items of the day or ahead, then overdue.
    public let items: [PlanItem]
    /// How many of `items` are overdue one-off todos.
    public let overdueCount: Int
    /// The digest's day (for a digest), else the item's date.
    public let occurrenceDate: CivilDate

    /// A reminder kind, or "digest".
    public var kind: String { item?.kind.rawValue ?? "digest" }
    public var title: String {
        item?.title ?? "\(occurrenceDate.weekday.fullName) \(occurrenceDate): \(Planner.count(items.count, "item"))"
    }
    public var source: Occurrence.Source { item?.source ?? .virtual }
    /// Where it comes from, for `preview`: `virtual` or `stored` (generated or stored occurrence),
    /// `ics:NAME` for an external calendar.
    public var sourceName: String { item?.calendar.map { "ics:\($0.calendar)" } ?? source.rawValue }
    public var definitionID: Int64? { item.flatMap { $0.isCalendar ? nil : $0.definitionID } }

    /// The notification text.
    public var body: String {
        guard let item, let offset else {
            return items.enumerated().map { i, x in
                i >= items.count - overdueCount
                    ? "overdue since \(x.date): \(x.title)"
                    : "\(x.kind.rawValue): \(x.title)" + (x.date != occurrenceDate ? " (\(x.date))" : "") + (x.detail.map { " \($0)" } ?? "")
            }.joined(separator: "\n")
        }
        var text = item.kind.label
        if let time = item.time { text += " at \(time)" } else { text += " on \(item.date)" }
        if !offset.isZero { text += " (in \(offset))" }
        if let detail = item.detail { text += ": \(detail)" }
        return text
    }

    /// Why it fires when it does, for `preview`.
    public var why: [String] {
        guard let item, let offset else {
            let due = items.count - overdueCount
            let local = ISO8601.format(fireAt, utcOffset: utcOffset)
            var why = ["morning digest at \(local.dropFirst(11).prefix(5))"]
            if due > 0 { why.append("\(Planner.count(due, "item")) of the day or days ahead") }
            if overdueCount > 0 { why.append("\(Planner.count(overdueCount, "overdue one-off todo")) still open") }
            return why + notes
        }
        if let calendar = item.calendar {
            let origin = "\(calendar.kind.rawValue) \(calendar.uid) from calendar \(calendar.calendar)" + (calendar.instance.map { ", instance \($0)" } ?? "")
            return [origin, calendar.alarms == nil ? "\(offset) before its time (the calendar default)" : "its VALARM"] + notes
        }
        return [
            "\(item.kind.rawValue) \(item.definitionID), \(item.source.rawValue) occurrence on \(item.date)",
            offset.isZero
                ? (item.time == nil ? "at the morning digest time" : "at its time")
                : "\(offset) before \(item.time == nil ? "the morning digest" : "its time")",
        ] + notes
    }
}

/// The rules a plan follows: the config's reminder settings.
public struct PlanRules: Sendable {
    public var defaults: [ReminderKind: [ReminderOffset]]
    public var morningDigest: WallTime
    /// Grace window and the meaning of late: the statuses a plan gives are the runner's.
    public var policy: DeliveryPolicy
    public var route: @Sendable (ReminderKind) -> [Channel]
    /// A calendar's own channels, by its name, where the config gives them.
    public var calendarChannels: [String: [Channel]] = [:]

    public init(config: Config) {
        for source in config.calendars { calendarChannels[source.name] = source.channels }
        defaults = config.reminders
        morningDigest = config.morningDigest
        policy = DeliveryPolicy(graceWindow: Int64(config.graceWindow))
        route = { [config] kind in config.channels(for: kind) }
    }
}

public struct Plan: Sendable {
    /// Inside the window, by fire time then key; suppressed ones only when asked for.
    public var reminders: [PlannedReminder]
    /// Calendar files, or items in them, that could not be used (the rest was planned).
    public var calendarProblems: [CalendarProblem] = []

    public init(reminders: [PlannedReminder], calendarProblems: [CalendarProblem] = []) {
        self.reminders = reminders
        self.calendarProblems = calendarProblems
    }
}

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
    ///   - scope: the whole plan's window, when this is a slice of it: a snoozed reminder is planned
    ///     at its new instant (in `window`) when its first instant is in `scope` (default: `window`).
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
        let context = Context(rules: rules, log: log, now: now, zone: zone)
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

        init(rules: PlanRules, log: [DeliveryID: Settlement], now: Instant, zone: Zone) {
            self.rules = rules
            self.log = log
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
            return (timing(fireAt), settled)
        }

        /// The kind's route, or an external calendar's own channels.
        func channels(of item: PlanItem) -> [Channel] {
            (item.isCalendar ? item.calendar.flatMap { rules.calendarChannels[$0.calendar] } : nil) ?? routes[item.kind.ordinal]
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
            _ index: Int, _ item: PlanItem, key: ReminderKey, fireAt: Instant, utcOffset: Int, offset: ReminderOffset, gap: String?, plain: Bool,
            into made: inout Made
        ) {
            let inWindow = window.contains(fireAt)
            guard inWindow || (!snoozed.isEmpty && scope.contains(fireAt)) else { return }
            let notes: [String] = item.note == nil && gap == nil ? [] : [item.note, gap].compactMap { $0 }
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
            guard inWindow else { return }
            if item.suppression != nil && !includeSuppressed { return }
            let (state, settled) = item.suppression.map { (.suppressed($0), [:]) } ?? context.status(key, fireAt, channels)
            if plain && notes.isEmpty && !moved && settled.isEmpty {
                return made.append(item: index, at: fireAt, utcOffset: utcOffset, offset: offset, timing: rules.policy.timing(fireAt, now: context.now))
            }
            made.append(
                PlannedReminder(
                    key: key, fireAt: fireAt, utcOffset: utcOffset, channels: channels, status: state, settled: settled, snoozed: false,
                    item: item, offset: offset, notes: notes, items: [], overdueCount: 0, occurrenceDate: item.date))
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
            if let alarms = calendar.alarms {
                // Exact instants, keyed by the instant (an alarm moved with its event reminds
                // again; one re-read unchanged does not).
                let channels = context.channels(of: item)
                for alarm in alarms where window.contains(alarm) {
                    let utcOffset = days.utcOffset(at: alarm)
                    let lead = max(0, Int((calendar.start ?? alarm).secondsSinceEpoch - alarm.secondsSinceEpoch) / 60)
                    let key = ReminderKey.calendar("\(calendar.key):alarm:\(ISO8601.format(alarm, utcOffset: 0).prefix(19))")
                    let (state, settled) = context.status(key, alarm, channels)
                    made.append(
                        PlannedReminder(
                            key: key, fireAt: alarm, utcOffset: utcOffset, channels: channels, status: state, settled: settled, snoozed: false,
                            item: item, offset: .minutes(lead), notes: [], items: [], overdueCount: 0, occurrenceDate: item.date))
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
                plan(
                    index, item, key: .calendar("\(calendar.key):\(offset)"), fireAt: fireAt, utcOffset: utcOffset, offset: offset, gap: gap, plain: false,
                    into: &made)
            }
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
                let plain = p.pointee.note == nil && p.pointee.suppression == nil
                // Its offsets read where they are, by index: no reference counted per item.
                let own = p.pointee.ownOffsetCount
                for k in 0..<(own > 0 ? own : context.defaults[kind].count) {
                    let offset = own > 0 ? p.pointee.ownOffset(k) : context.defaults[kind][k]
                    let (fireAt, utcOffset, gap) = fireInstant(base: p.pointee.time ?? rules.morningDigest, date: p.pointee.date, offset: offset, days: days)
                    // Nothing snoozed or logged to look up: a plain one is kept as it is.
                    if plain && gap == nil && snoozed.isEmpty && context.log.isEmpty {
                        if window.contains(fireAt) {
                            made.append(item: index, at: fireAt, utcOffset: utcOffset, offset: offset, timing: rules.policy.timing(fireAt, now: context.now))
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
        let context = Context(rules: rules, log: log, now: now, zone: zone)
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

    /// `base` on `date` in `zone`, less the offset: minutes and hours exactly, days and weeks on the
    /// calendar (the same wall time N days earlier). Returns a note when a DST change touched it.
    static func fireInstant(base: WallTime, date: CivilDate, offset: ReminderOffset, days: ZoneDayCache)
        -> (Instant, Int, String?)
    {
        let day = date.adding(days: -(offset.wholeDays ?? 0))
        let resolved = days.resolve(base, on: day)
        var gap: String?
        switch resolved.resolution {
        case .exact: break
        case .skippedByGap(let seconds): gap = "\(base) does not exist on \(day): moved \(seconds / 60) min by the DST gap"
        case .repeatedTakeFirst: gap = "\(base) happens twice on \(day) (clocks go back): the first"
        }
        guard offset.wholeDays == nil else { return (resolved.instant, resolved.utcOffset, gap) }
        let instant = resolved.instant.adding(seconds: -Int64(offset.exactSeconds))
        return (instant, days.utcOffset(at: instant), gap)
    }

    /// An instant less the offset: minutes and hours exactly, days and weeks on the calendar
    /// (the same wall time, to the second, N days earlier).
    static func fireInstant(start: Instant, offset: ReminderOffset, days: ZoneDayCache) -> (Instant, Int, String?) {
        guard let whole = offset.wholeDays else {
            let instant = start.adding(seconds: -Int64(offset.exactSeconds))
            return (instant, days.utcOffset(at: instant), nil)
        }
        let local = ISO8601.localDate(of: start, in: days.zone)
        let wall = WallTime(hour: local.secondsOfDay / 3600, minute: local.secondsOfDay / 60 % 60)!
        let (instant, utcOffset, gap) = fireInstant(base: wall, date: local.date, offset: offset, days: days)
        return (whole == 0 ? start : instant.adding(seconds: Int64(local.secondsOfDay % 60)), utcOffset, gap)
    }

    /// The indices of reminders firing at `fires` (seconds) by fire time, then `key`. Only
    /// (instant, index) pairs are sorted, and keys are asked for only for reminders that share
    /// their instant with another.
    static func fireOrder(_ fires: [Int64], key: (Int) -> ReminderKey) -> [Int] {
        var order: [Int]
        var sorted: [Int64]
        let first = fires.min() ?? 0
        let last = fires.max() ?? 0
        if last - first < 1 << 32 && fires.count < 1 << 32 {
            // Seconds from the first and the index in one word: one sort of plain integers, all
            // different, so the order among equal instants is the reminders' own.
            var packed = fires.indices.map { UInt64(fires[$0] - first) << 32 | UInt64($0) }
            radixSort(&packed, spanning: UInt64(last - first))
            order = packed.map { Int($0 & 0xFFFF_FFFF) }
            sorted = packed.map { Int64($0 >> 32) }
        } else {
            var pairs = fires.indices.map { (fire: fires[$0], index: $0) }
            pairs.sort { $0 < $1 }
            order = pairs.map(\.index)
            sorted = pairs.map(\.fire)
        }
        var scratch = KeyScratch()
        // Groups put in order where they are: a slice of the array per group would count a
        // reference and check for a unique buffer each time.
        order.withUnsafeMutableBufferPointer { order in
            var run = 0
            while run < sorted.count {
                var end = run + 1
                while end < sorted.count && sorted[end] == sorted[run] { end += 1 }
                if end - run > 1 { orderByKey(UnsafeMutableBufferPointer(rebasing: order[run..<end]), key, &scratch) }
                run = end
            }
        }
        return order
    }

    /// Sorts words by their upper halves, which are at most `span`, keeping the order of equal
    /// ones (their lower halves are their indices, already in order): least significant digit
    /// first, 11 bits a pass, as many passes as `span` has bits (two for a slice of days).
    static func radixSort(_ keys: inout [UInt64], spanning span: UInt64) {
        let bits = 64 - span.leadingZeroBitCount
        guard bits > 0 && keys.count > 1 else { return }
        var scratch = [UInt64](repeating: 0, count: keys.count)
        var counts = [Int](repeating: 0, count: 2049)
        var shift: UInt64 = 32
        while shift < UInt64(32 + bits) {
            keys.withUnsafeBufferPointer { from in
                scratch.withUnsafeMutableBufferPointer { to in
                    counts.withUnsafeMutableBufferPointer { counts in
                        for i in counts.indices { counts[i] = 0 }
                        for key in from { counts[Int((key >> shift) & 2047) + 1] += 1 }
                        for digit in 1..<counts.count { counts[digit] += counts[digit - 1] }
                        for key in from {
                            let digit = Int((key >> shift) & 2047)
                            to[counts[digit]] = key
                            counts[digit] += 1
                        }
                    }
                }
            }
            swap(&keys, &scratch)
            shift += 11
        }
    }

    /// Buffers the key comparisons of one plan reuse from group to group.
    struct KeyScratch {
        let bytes = ByteBuffer()
        var spans: [Range<Int>] = []
        var members: [Int] = []
    }

    /// Orders reminders that share an instant by their keys' text. The keys' bytes go into one
    /// buffer and are compared there (for ASCII, byte order is String order); only a group with a
    /// non-ASCII key (a calendar UID) compares Strings, which order by normalised scalars.
    static func orderByKey(_ group: UnsafeMutableBufferPointer<Int>, _ key: (Int) -> ReminderKey, _ scratch: inout KeyScratch) {
        // A few (most instants shared are shared by two or three): in place, by `precedes`,
        // which compares our own keys by their parts.
        if group.count <= 16 {
            for i in group.indices.dropFirst() {
                let member = group[i]
                let memberKey = key(member)
                var j = i
                while j > group.startIndex && memberKey.precedes(key(group[j - 1])) {
                    group[j] = group[j - 1]
                    j -= 1
                }
                group[j] = member
            }
            return
        }
        scratch.bytes.removeAll()
        scratch.spans.removeAll(keepingCapacity: true)
        scratch.members.removeAll(keepingCapacity: true)
        scratch.members.append(contentsOf: group)
        for index in group {
            let start = scratch.bytes.count
            key(index).write(to: scratch.bytes)
            scratch.spans.append(start..<scratch.bytes.count)
        }
        let members = scratch.members
        let ranked: [Int]
        if scratch.bytes.withBytes({ $0.allSatisfy { $0 < 0x80 } }) {
            let bytes = scratch.bytes, spans = scratch.spans
            ranked = members.indices.sorted { bytes.slice(spans[$0]).lexicographicallyPrecedes(bytes.slice(spans[$1])) }
        } else {
            let keys = members.map { key($0).description }
            ranked = members.indices.sorted { keys[$0] < keys[$1] }
        }
        for (position, rank) in zip(group.indices, ranked) { group[position] = members[rank] }
    }

    /// "1 item", "3 items".
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}

extension ReminderKind {
    /// `Todo`, `Event`, …: the word that starts a reminder's body.
    public var label: String {
        switch self {
        case .todo: return "Todo"
        case .event: return "Event"
        case .habit: return "Habit"
        case .bill: return "Bill"
        case .subscription: return "Subscription"
        case .debt: return "Debt"
        case .goal: return "Goal"
        case .income: return "Income"
        case .calendar: return "Calendar"
        }
    }
}

extension ReminderOffset {
    /// Days for `Nd` and `Nw` (nominal), and 0 for `0m`/`0h`; nil for a non-zero exact duration.
    public var wholeDays: Int? {
        switch self {
        case .days(let n): return n
        case .weeks(let n): return 7 * n
        case .minutes(0), .hours(0): return 0
        default: return nil
        }
    }

    /// Seconds for `Nm` and `Nh`.
    public var exactSeconds: Int {
        switch self {
        case .minutes(let n): return 60 * n
        case .hours(let n): return 3_600 * n
        case .days(let n): return 86_400 * n
        case .weeks(let n): return 604_800 * n
        }
    }

    public var isZero: Bool { exactSeconds == 0 }
}
