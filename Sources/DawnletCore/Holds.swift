/// A delivery the runner holds back: its time has come, and it is not handed to its channel.
public struct Hold: Hashable, Sendable {
    public enum Reason: String, Hashable, Sendable {
        /// Its channel's server is paused (dunst's do-not-disturb): it goes out when it resumes.
        case serverPaused = "server-paused"
        /// The screen is locked: desktop reminders wait, and go out when it unlocks (several as one
        /// summary of what came while the person was away).
        case screenLocked = "screen-locked"
        /// The server's Do Not Disturb is on (`DoNotDisturb`): it goes out when it ends.
        case doNotDisturb = "do-not-disturb"

        /// In words, as `next` and `preview` say it.
        public var words: String {
            switch self {
            case .serverPaused: "notification server paused"
            case .screenLocked: "screen locked"
            case .doNotDisturb: "Do Not Disturb"
            }
        }
    }

    public let id: DeliveryID
    public let reason: Reason

    public init(_ id: DeliveryID, _ reason: Reason) {
        self.id = id
        self.reason = reason
    }
}

/// What the runner holds back, as it publishes it for `next` and `preview`: the channels whose
/// server is paused (and since when it knew), and the deliveries it holds, each with why.
public struct Holds: Hashable, Sendable {
    public var paused: [Channel: Instant]
    public var held: [DeliveryID: Hold.Reason]

    public init(paused: [Channel: Instant] = [:], held: [DeliveryID: Hold.Reason] = [:]) {
        self.paused = paused
        self.held = held
    }

    public var isEmpty: Bool { paused.isEmpty && held.isEmpty }

    /// One channel of a reminder held back: why, and since when its server has been paused.
    public struct Held: Hashable, Sendable {
        public let channel: Channel
        public let reason: Hold.Reason
        public let since: Instant?
    }

    /// The channels of `reminder`, as planned now, that the runner holds back: those it named, and
    /// any not yet settled on a paused channel once its time has come (due, late or past the grace
    /// window: `Dispatcher.decide` hands none of them over while the pause lasts).
    public func held(_ reminder: PlannedReminder) -> [Held] {
        guard !isEmpty else { return [] }
        let come: Bool
        switch reminder.status {
        case .due, .late, .missed: come = true
        case .pending: come = false
        case .settled, .suppressed: return []
        }
        return reminder.channels.compactMap { channel in
            guard reminder.settled[channel] == nil else { return nil }
            if let reason = held[DeliveryID(reminder.key, channel)] { return Held(channel: channel, reason: reason, since: paused[channel]) }
            guard come, let since = paused[channel] else { return nil }
            return Held(channel: channel, reason: .serverPaused, since: since)
        }
    }

    /// Whether every channel of `reminder` still to go out is held back (and one is): it goes out
    /// nowhere now.
    public func holdsWhole(_ reminder: PlannedReminder) -> Bool {
        let held = held(reminder)
        return !held.isEmpty && held.count == reminder.channels.filter { reminder.settled[$0] == nil }.count
    }
}
