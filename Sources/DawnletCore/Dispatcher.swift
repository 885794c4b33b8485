/// One delivery of one reminder: a reminder key on a channel (`todo:3:2026-12-01:0m@desktop`),
/// the primary key of the delivery log.
public struct DeliveryID: Hashable, Sendable, CustomStringConvertible {
    public let key: ReminderKey
    public let channel: Channel

    public init(_ key: ReminderKey, _ channel: Channel) {
        self.key = key
        self.channel = channel
    }

    public var description: String { "\(key)@\(channel.rawValue)" }
}

/// How a delivery ended, as the delivery log says: what `preview` shows and the planner skips.
public struct Settlement: Hashable, Sendable {
    public enum Outcome: String, Hashable, Sendable { case delivered, failed, missed }
    public let outcome: Outcome
    /// When it ended.
    public let at: Instant?
    /// Why it failed, or how it went (a notification id, a fallback).
    public let detail: String?
    /// Delivered and answered by the person on none of the reminder's channels (a notification
    /// the server let expire or closed still waits): a nag brings it back.
    public let waiting: Bool
    /// When it first went out (a nag's repeats count from there; `at` is the latest).
    public let firstDelivered: Instant?

    public init(_ outcome: Outcome, at: Instant?, detail: String? = nil, waiting: Bool = false, firstDelivered: Instant? = nil) {
        self.outcome = outcome
        self.at = at
        self.detail = detail
        self.waiting = waiting
        self.firstDelivered = firstDelivered
    }
}

/// What becomes of a reminder that can only go out late (`late` in the config, per kind).
public enum LatePolicy: String, Hashable, Sendable, CaseIterable {
    /// Sent inside the grace window, marked late (more than three late at once on a channel go
    /// out as one summary).
    case send
    /// Sent inside the grace window, in one summary with the channel's other late reminders of
    /// such kinds whenever there are two or more.
    case summary
    /// Not sent: recorded missed at once, as `missed` lists it.
    case drop
}

/// The runner's rules for what goes out when, one value for `serve` and `preview`.
public struct DeliveryPolicy: Hashable, Sendable {
    /// How long after its instant a reminder may still go out (marked late); older ones are
    /// recorded as missed.
    public var graceWindow: Duration {
        get { .seconds(graceSeconds) }
        set { graceSeconds = newValue.wholeSeconds }
    }
    /// **Late**, the one meaning: a reminder goes out more than this after its instant (the
    /// machine was off or asleep, the clock jumped, a retry). Within it, it is on time.
    public var lateAfter: Duration {
        get { .seconds(lateSeconds) }
        set { lateSeconds = newValue.wholeSeconds }
    }
    /// The two in whole seconds, as instants count: `timing` runs once per planned reminder.
    private var graceSeconds: Int64
    private var lateSeconds: Int64 = 60
    /// More late reminders than this on one channel at once go out as one summary.
    public var summaryThreshold = 3
    /// How long to wait after the 1st, 2nd, … temporary failure before trying again; after the
    /// last, or when the next try would fall outside the grace window, the delivery is failed.
    public var retryDelays: [Duration] = [.seconds(1), .seconds(2), .seconds(4), .seconds(8)]
    /// At most this many deliveries in flight on one channel (a summary counts once): thousands
    /// due at once go out as earlier ones end, not as thousands of children and connections.
    public var concurrency = 32

    /// What becomes of a late reminder, by kind; a kind not named is sent (`.send`).
    public var late: [ReminderKind: LatePolicy] = [:]

    public init(graceWindow: Duration) {
        graceSeconds = graceWindow.wholeSeconds
    }

    /// The config's grace window and late policies.
    public init(config: Config) {
        self.init(graceWindow: config.graceWindow)
        late = config.late
    }

    public enum Timing: Hashable, Sendable {
        /// Its instant is still to come.
        case pending
        /// Its instant has come, at most `lateAfter` ago: goes out now, on time.
        case due
        /// Its instant is more than `lateAfter` and at most the grace window ago: goes out now, marked late.
        case late
        /// Its instant is more than the grace window ago: recorded as missed, never sent.
        case missed
    }

    /// Where a reminder due at `fireAt` stands at `now`.
    public func timing(_ fireAt: Instant, now: Instant) -> Timing {
        let age = now.secondsSinceEpoch - fireAt.secondsSinceEpoch
        if age < 0 { return .pending }
        if age <= lateSeconds { return .due }
        return age <= graceSeconds ? .late : .missed
    }

    /// The same for a reminder of `kind`: one its late policy drops is missed as soon as it is late.
    /// `kind` is read only then (a plan's reminder copies its item to say it).
    @inline(__always)
    public func timing(_ fireAt: Instant, now: Instant, kind: @autoclosure () -> ReminderKind?) -> Timing {
        let timing = timing(fireAt, now: now)
        guard timing == .late, !late.isEmpty, let kind = kind(), late[kind] == .drop else { return timing }
        return .missed
    }

    /// After `failures` temporary failures in a row: when to try again, or nil to record it failed
    /// (no delays left, or the try would come after `deadline`).
    public func retry(after failures: Int, deadline: Instant, now: Instant) -> Instant? {
        guard failures >= 1, failures <= retryDelays.count else { return nil }
        let at = now.adding(retryDelays[failures - 1])
        return at < deadline ? at : nil
    }
}

/// A temporary failure waiting for its next try.
public struct Retry: Hashable, Sendable {
    /// Temporary failures so far.
    public var failures: Int
    public var at: Instant

    public init(failures: Int, at: Instant) {
        self.failures = failures
        self.at = at
    }
}

/// What the runner does now (`Dispatcher.decide`).
public struct Decision: Sendable {
    /// One message on one channel: a reminder, or a summary of several late ones.
    public struct Send: Hashable, Sendable {
        public let channel: Channel
        public let reminders: [PlannedReminder]
        /// Goes out more than `lateAfter` after its instant.
        public let late: Bool
        /// Temporary failures before this try (0 for a first try).
        public let failures: Int
        /// No retry after this: the end of the grace window of its earliest reminder.
        public let deadline: Instant
        /// What waited while the screen was locked, sent together once it unlocked.
        public var away = false

        public var isSummary: Bool { reminders.count > 1 }
        public var ids: [DeliveryID] { reminders.map { DeliveryID($0.key, channel) } }
    }

    public struct Missed: Hashable, Sendable {
        public let reminder: PlannedReminder
        public let channel: Channel
        /// Why: due longer ago than the grace window, or late and dropped by its kind's late policy.
        public let reason: ReminderLife.MissedReason
    }

    public var sends: [Send] = []
    public var missed: [Missed] = []
    /// What is due (or past) on a paused channel: held, neither sent nor recorded, until it resumes.
    public var held: [Hold] = []
    /// When to decide again: the first pending reminder or retry, or the end of the plan.
    public var nextWake: Instant
}

/// The runner's one decision: a pure function of the plan, what the delivery log and
/// the runner know, `now` and the policy. `serve` does what it returns and arms its one timer at
/// `nextWake`; `preview --now` shows the same statuses through `DeliveryPolicy.timing`.
public enum Dispatcher {
    /// - Parameters:
    ///   - reminders: the plan, by fire time; settled channels (`PlannedReminder.settled`) are done.
    ///   - inFlight: deliveries handed to a channel and not ended: not started again, and they
    ///     count against the channel's concurrency.
    ///   - settled: deliveries ended since the plan was made: not started again.
    ///   - retries: temporary failures waiting for their next try.
    ///   - planEnds: the end of the plan's window (a re-plan is due then).
    ///   - paused: channels whose server holds what it is given unseen: what is due on them waits
    ///     (no wake: their resuming decides again).
    ///   - doNotDisturb: channels whose server's Do Not Disturb is on: what is due on them waits
    ///     likewise, but for what `passes` (a reminder, and whether it goes out late) lets through.
    public static func decide(
        _ reminders: [PlannedReminder], inFlight: Set<DeliveryID> = [], settled: Set<DeliveryID> = [],
        retries: [DeliveryID: Retry], now: Instant, policy: DeliveryPolicy, planEnds: Instant, paused: Set<Channel> = [],
        doNotDisturb: Set<Channel> = [], passes: (PlannedReminder, _ late: Bool) -> Bool = { _, _ in false }
    ) -> Decision {
        var decision = Decision(nextWake: planEnds)
        func wake(at instant: Instant) { decision.nextWake = min(decision.nextWake, instant) }
        var due: [Channel: [(reminder: PlannedReminder, failures: Int, timing: DeliveryPolicy.Timing)]] = [:]
        for reminder in reminders {
            if case .suppressed = reminder.status { continue }
            // A snooze or a nag coming back is not dropped as late: the person asked for it.
            let timing = policy.timing(reminder.fireAt, now: now, kind: reminder.snoozed || reminder.repetition > 0 ? nil : reminder.item?.kind)
            if timing == .pending {
                if reminder.settled.count < reminder.channels.count { wake(at: reminder.fireAt) }
                continue
            }
            for channel in reminder.channels where reminder.settled[channel] == nil {
                let id = DeliveryID(reminder.key, channel)
                if inFlight.contains(id) || settled.contains(id) { continue }
                if paused.contains(channel) {
                    decision.held.append(Hold(id, .serverPaused))
                    continue
                }
                if doNotDisturb.contains(channel), !passes(reminder, timing == .late) {
                    decision.held.append(Hold(id, .doNotDisturb))
                    continue
                }
                if let retry = retries[id], retry.at > now {
                    wake(at: retry.at)
                    continue
                }
                let failures = retries[id]?.failures ?? 0
                if timing == .missed {
                    // Missed for its kind's late policy when the grace window alone would send it.
                    let reason: ReminderLife.MissedReason = policy.timing(reminder.fireAt, now: now) == .missed ? .graceWindow : .latePolicy
                    decision.missed.append(Decision.Missed(reminder: reminder, channel: channel, reason: reason))
                } else {
                    due[channel, default: []].append((reminder, failures, timing))
                }
            }
        }
        var busy: [Channel: Int] = [:]
        for id in inFlight { busy[id.channel, default: 0] += 1 }
        for channel in due.keys.sorted() {
            let entries = due[channel] ?? []
            let first = decision.sends.count
            let late = entries.filter { $0.timing != .due }
            // Over the threshold, every late one; else those whose kind asks for a summary, if two or more.
            let asked = policy.late.isEmpty ? [] : late.filter { $0.reminder.item.map { policy.late[$0.kind] == .summary } ?? false }
            let summarised = late.count > policy.summaryThreshold ? late : asked.count >= 2 ? asked : []
            if !summarised.isEmpty {
                let earliest = summarised.map(\.reminder.fireAt).min() ?? now
                decision.sends.append(
                    Decision.Send(
                        channel: channel, reminders: summarised.map(\.reminder), late: true,
                        failures: summarised.map(\.failures).max() ?? 0,
                        deadline: earliest.adding(policy.graceWindow)))
            }
            // Held for quiet hours and going out together at their end: two or more as one summary.
            let held = entries.filter { $0.reminder.heldFrom != nil && $0.timing == .due }
            let heldTogether = held.count >= 2 ? Set(held.map(\.reminder.key)) : []
            if !heldTogether.isEmpty {
                decision.sends.append(
                    Decision.Send(
                        channel: channel, reminders: held.map(\.reminder), late: false, failures: held.map(\.failures).max() ?? 0,
                        deadline: (held.map(\.reminder.fireAt).min() ?? now).adding(policy.graceWindow)))
            }
            let inSummary = Set(summarised.map(\.reminder.key))
            for entry in entries where !heldTogether.contains(entry.reminder.key) && (entry.timing == .due || !inSummary.contains(entry.reminder.key)) {
                decision.sends.append(
                    Decision.Send(
                        channel: channel, reminders: [entry.reminder], late: entry.timing != .due,
                        failures: entry.failures, deadline: entry.reminder.fireAt.adding(policy.graceWindow)))
            }
            // The rest waits for a free place: an ending delivery makes the runner decide again.
            let room = max(0, policy.concurrency - (busy[channel] ?? 0))
            if decision.sends.count - first > room { decision.sends.removeLast(decision.sends.count - first - room) }
        }
        return decision
    }
}
