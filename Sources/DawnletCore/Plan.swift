import FoundationEssentials

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
    /// A nag's how manyeth time back (1, 2, …) for a reminder that went out and waits for an
    /// answer; 0 for its first going out.
    public var repetition = 0
    /// Due at this instant, inside quiet hours: held until `fireAt`, when they end.
    public var heldFrom: Instant?

    /// A reminder kind, or "digest".
    /// What it reminds of, as the delivery log keeps it.
    public var kind: DeliveryKind { key.deliveryKind }
    public var title: String {
        item?.title ?? "\(occurrenceDate.weekday.fullName) \(occurrenceDate): \(Planner.count(items.count, "item"))"
    }
    public var source: Occurrence.Origin { item?.source ?? .virtual }
    /// Where it comes from, for `preview`: `virtual` or `stored` (generated or stored occurrence),
    /// `ics:NAME` for an external calendar.
    public var sourceName: String { item?.calendar.map { "ics:\($0.calendar)" } ?? source.rawValue }
    public var definitionID: Int64? { item.flatMap { $0.isCalendar ? nil : $0.definitionID } }

    /// The notification text as planned, worded per kind (`PlanItem.whenWords`): `Todo due at
    /// 09:00 (in 10m)`, `Event starts at 14:30`, `Bill due on 2026-12-01: -950.00` (a calendar
    /// file's todo and event too). A message says how far its item is when it goes out instead
    /// (`body(relative:)`, from `ReminderMessage`).
    public var body: String {
        body(relative: offset.flatMap { $0.isZero ? nil : "in \($0)" })
    }

    /// The same, with `relative` (`in 7m`, `3m ago`; nil: none) after the item's time.
    public func body(relative: String?) -> String {
        guard let item, offset != nil else {
            // One line per item: a title's line break (a calendar's may hold one) is shown, not kept.
            return items.enumerated().map { i, x in
                let title = DisplayText.shown(x.title)
                return i >= items.count - overdueCount
                    ? "overdue since \(x.date): \(title)"
                    : "\(x.wordedKind.rawValue): \(title)" + (x.date != occurrenceDate ? " (\(x.date))" : "") + (x.detail.map { " \($0)" } ?? "")
            }.joined(separator: "\n")
        }
        var text = item.whenWords
        if let relative { text += " (\(relative))" }
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
            var why = [origin, calendar.alarms == nil ? "\(offset) before its time (the calendar default)" : "its VALARM"]
            // Seen here first on its own day or later: its reminders of a time before were not sent.
            if item.notBefore > Int64(item.date.dayNumber) * 86_400 - Int64(utcOffset) {
                let seen = ISO8601.format(Instant(secondsSinceEpoch: item.notBefore), utcOffset: utcOffset)
                why.append("first seen on this machine at \(seen): its reminders of a time before are not sent")
            }
            return why + notes
        }
        // An item of its own zone: its date and time are that zone's.
        let own = item.zone.flatMap { zone in item.time.map { " (\($0) \(zone.identifier))" } } ?? ""
        return [
            "\(item.kind.rawValue) \(item.definitionID), \(item.source.rawValue) occurrence on \(item.date)",
            offset.isZero
                ? (item.time == nil ? "at the morning digest time" : "at its time" + own)
                : "\(offset) before \(item.time == nil ? "the morning digest" : "its time" + own)",
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
    /// How often a reminder of a kind comes back until answered, and for how long at most.
    public var nag: [ReminderKind: Duration]
    public var nagFor: Duration
    public var quietHours: QuietHours?
    /// Some list has quiet hours of its own.
    public var listsHold: Bool
    /// Per kind, the channels a reminder still unanswered goes on to, and when (a list's ladder
    /// goes over its kind's).
    public var escalate: [ReminderKind: [EscalationStep]]
    /// The longest any ladder waits before its last rung.
    public var longestEscalation: Duration
    /// Some kind comes back until answered, or goes on to other channels (an item of its own
    /// nag, the planner sees for itself).
    public var mayNag: Bool
    /// The urgency each kind asks for (critical ones may pass quiet hours).
    public var urgency: [ReminderKind: Urgency]
    /// When the database began: a reminder of an instant before it is never sent (see
    /// `Planner.floor(_:now:)`).
    public var databaseBegan: Instant?

    public init(config: Config, databaseBegan: Instant? = nil) {
        self.databaseBegan = databaseBegan
        for source in config.calendars { calendarChannels[source.name] = source.channels }
        defaults = config.reminders
        morningDigest = config.morningDigest
        policy = DeliveryPolicy(config: config)
        route = { [config] kind in config.channels(for: kind) }
        nag = config.nag
        nagFor = config.nagFor
        escalate = config.escalate
        longestEscalation = max(config.escalate.values.compactMap { $0.last?.after }.max() ?? .zero, config.lists.longestEscalation)
        mayNag = !config.nag.isEmpty || config.lists.mayNag || longestEscalation > .zero
        quietHours = config.quietHours
        listsHold = config.lists.mayHold
        urgency = config.desktop.urgency
    }

    /// When the quiet hours that hold a reminder of `item` due at `instant` (`local`: its wall
    /// clock in seconds) end; nil when none do (no quiet hours, another kind, or a critical one
    /// they let pass).
    @inline(__always)
    func heldUntil(_ instant: Instant, local: Int64, _ item: PlanItem, zone: Zone) -> Instant? {
        guard let quietHours = item.list?.quietHours ?? quietHours, let end = quietHours.end(of: instant, local: local, kind: item.kind, zone: zone)
        else { return nil }
        if quietHours.criticalPasses && item.urgency(urgency) == .critical { return nil }
        return end
    }

    /// How often, in seconds, `item`'s reminders come back until answered (its own nag, else its
    /// kind's); 0: they do not.
    public func nagSeconds(_ item: PlanItem) -> Int64 {
        item.nag(nag)?.wholeSeconds ?? 0
    }

    /// The latest instant a nag can bring back a reminder that went out and waits (`settled`), if
    /// its item nags: its bound after it first went out, and a day more where quiet hours may
    /// hold that return. A snooze that brought it back starts its returns again, so this can be
    /// days after its date. Nil when nothing can bring it back.
    public func lastReturn(_ settled: Settlement) -> Instant? {
        guard settled.waiting, let first = settled.firstDelivered else { return nil }
        return first.adding(max(nagFor, longestEscalation)).adding(seconds: mayHold ? 86_400 : 0)
    }

    /// Some reminder may be held for quiet hours: the config's, or a list's.
    public var mayHold: Bool { quietHours != nil || listsHold }

    /// The channels a reminder of `item` still unanswered goes on to: its list's ladder, else its
    /// kind's.
    public func ladder(_ item: PlanItem) -> [EscalationStep] { item.ladder(escalate) }
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

extension PlanItem {
    /// What the item is and when, as a reminder's body begins, worded per what it is: an event
    /// starts (one of a whole day is on it), a todo is due (a calendar file's todo with no DUE
    /// starts), a bill and a debt's payment are due, a subscription renews, income is expected,
    /// a goal is reached by its day, a habit is kept at its time: `Event starts at 14:30`, `Todo
    /// due on 2026-12-04`, `Subscription renews on 2026-12-14`, `Goal by 2027-03-01`.
    public var whenWords: String {
        let (what, timed, onDay): (String, String, String) =
            switch wordedKind {
            case .todo: calendar.map { !$0.hasDue } == true ? ("Todo", "starts at", "starts on") : ("Todo", "due at", "due on")
            case .event: ("Event", "starts at", "on")
            case .habit: ("Habit", "at", "on")
            case .bill: ("Bill", "due at", "due on")
            case .subscription: ("Subscription", "renews at", "renews on")
            case .debt: ("Debt payment", "due at", "due on")
            case .goal: ("Goal", "by", "by")
            case .income: ("Income", "expected at", "expected on")
            case .calendar: ("Calendar item", "at", "on")
            }
        return time.map { "\(what) \(timed) \($0)" } ?? "\(what) \(onDay) \(date)"
    }
}

extension ReminderKind {
    /// `a todo`, `an event`, `an income`: the kind's name after its article, for a sentence.
    public var withArticle: String {
        (self == .event || self == .income ? "an " : "a ") + rawValue
    }
}
