/// Where an answer to a reminder came from. Every path answers the same way; where it came from
/// decides only what is left to do (the item is already written by its own command, the
/// notification already closed by the person who dismissed it).
public enum AnswerOrigin: String, Hashable, Sendable, CaseIterable {
    /// A notification's button, or the person closing it.
    case button
    /// `reminder VERB` (an email's answer lines are these, run in a terminal).
    case terminal
    /// The item's own command (`todo done`, `money paid`, `todo delete`): the item is written.
    case itemCommand = "item-command"
    /// Another device, through a calendar file: the item is written from the file.
    case device
    /// The notification server, on its own (it let the notification expire, or closed it).
    case server
}

/// What became of a reminder, kept as a code: words are only for display.
public enum Answer: Hashable, Sendable, CustomStringConvertible {
    case done, skipped, dismissed
    /// Comes back at `until`.
    case snoozed(until: Instant)
    /// A bill paid; a subscription's renewal or a debt's month logged as paid.
    case paid, logged
    /// The server let the notification expire, or closed it: not the person's answer, the
    /// reminder still waits.
    case expired, closed
    /// Its item was deleted: nothing is left to answer.
    case deleted
    /// Answered where it cannot be told how (another device acknowledged it).
    case answeredElsewhere(AnswerOrigin)

    /// The person's (or another device's) answer: everything but the server's own closing.
    public var byPerson: Bool {
        switch self {
        case .expired, .closed: false
        default: true
        }
    }

    /// Ends the reminder's life: a person's answer other than a snooze.
    public var isFinal: Bool {
        if case .snoozed = self { return false }
        return byPerson
    }

    /// The code the delivery log keeps: `done`, `snoozed:1796115600`, `elsewhere:device`.
    public var code: String {
        switch self {
        case .done: "done"
        case .skipped: "skipped"
        case .dismissed: "dismissed"
        case .snoozed(let until): "snoozed:\(until.secondsSinceEpoch)"
        case .paid: "paid"
        case .logged: "logged"
        case .expired: "expired"
        case .closed: "closed"
        case .deleted: "deleted"
        case .answeredElsewhere(let origin): "elsewhere:\(origin.rawValue)"
        }
    }

    /// A code read back; nil for text that is not one.
    public init?(code: String) {
        switch code {
        case "done": self = .done
        case "skipped": self = .skipped
        case "dismissed": self = .dismissed
        case "paid": self = .paid
        case "logged": self = .logged
        case "expired": self = .expired
        case "closed": self = .closed
        case "deleted": self = .deleted
        case _ where code.hasPrefix("snoozed:"):
            guard let seconds = Int64(code.dropFirst("snoozed:".count)), seconds > 0 else { return nil }
            self = .snoozed(until: Instant(secondsSinceEpoch: seconds))
        case _ where code.hasPrefix("elsewhere:"):
            guard let origin = AnswerOrigin(rawValue: String(code.dropFirst("elsewhere:".count))) else { return nil }
            self = .answeredElsewhere(origin)
        default: return nil
        }
    }

    public var description: String { code }
}

/// A reminder's life, from planned to answered, as one value: its state, and every input that
/// moves it (a button, a terminal or email command, the item's own command, another device, the
/// server closing or expiring its notification, a restart, a summary answered as a whole or by
/// one line) → the effects the runner carries out. Whatever the path, a reminder is answered at
/// most once, is never shown again once answered, and goes out again only when a snooze or a
/// nag brings it back.
public struct ReminderLife: Hashable, Sendable {
    /// A desktop notification showing the reminder, and the process that posted it (the server
    /// sends what is pressed on it to that process only).
    public struct Notification: Hashable, Sendable {
        public let id: UInt32
        public let postedBy: String

        public init(id: UInt32, postedBy: String) {
            self.id = id
            self.postedBy = postedBy
        }
    }

    /// Why a reminder never went out.
    public enum MissedReason: String, Hashable, Sendable {
        /// Due longer ago than the grace window.
        case graceWindow = "grace-window"
        /// Late, and its kind's late policy drops it.
        case latePolicy = "late-policy"
        /// Every try failed.
        case gaveUp = "gave-up"

        /// In words, as `missed` and the runner's log say it.
        public var words: String {
            switch self {
            case .graceWindow: "outside the grace window"
            case .latePolicy: "dropped as late (late policy \"drop\")"
            case .gaveUp: "gave up after failing"
            }
        }
    }

    public enum State: Hashable, Sendable {
        /// In the plan, not yet due.
        case planned
        /// Due and claimed in the log: on its way out.
        case claimed
        /// On screen, its buttons answerable.
        case showing(Notification)
        /// Went out, not answered; not on screen (an email, a command, a notification closed by
        /// the server). A nag brings it back.
        case waiting
        /// Went out; its notification expired on the server. Waits as `waiting` does.
        case expired
        /// Comes back at `until`.
        case snoozed(until: Instant)
        /// Answered, how and where: its life is over.
        case answered(Answer, AnswerOrigin)
        /// Will not go out: its item was deleted before it did.
        case dropped
        /// Never went out, and why.
        case missed(MissedReason)
    }

    public enum Input: Hashable, Sendable {
        /// Its time has come: claimed in the log (the first time, or a snooze's or nag's return).
        case due(at: Instant)
        /// It went out, showing `notification` (nil: a channel with nothing on screen).
        case delivered(Notification?)
        /// Its time passed without it going out.
        case missed(MissedReason)
        /// An answer, from anywhere. A summary or digest answered as a whole is this input to
        /// each of its members; answered by one line, to that line's reminder only.
        case answer(Answer, AnswerOrigin)
        /// The server closed its notification `id`: expired, dismissed by the person, or closed.
        case serverClosed(id: UInt32, CloseReason)
        /// A serve started as `process`: what an earlier one left on screen is taken over.
        case restart(process: String)
        /// Its notification `id` is still on screen (seen after another process wrote the log).
        case stillShowing(UInt32)
        /// A snooze called off: it waits again, and does not come back by itself.
        case unsnooze
        /// Its item was deleted.
        case itemDeleted
    }

    public enum Effect: Hashable, Sendable {
        /// Send it on its channels.
        case show
        /// Post notification `id` again under this process's name (a restart's takeover).
        case replace(UInt32)
        /// Close notification `id`: it is answered.
        case close(UInt32)
        /// Write the answer into the delivery log.
        case record(Answer, AnswerOrigin)
        /// Make the item's write the answer stands for (done, skipped, paid, logged; a calendar
        /// item's acknowledgement or snooze written back).
        case writeItem(Answer)
        /// Call the snooze off in the log.
        case unsnooze
    }

    public private(set) var state: State
    /// When it last went out: a snooze from another device for a time not after this is one
    /// that already brought it back (read again from a file), not a new one.
    public private(set) var lastShown: Instant?

    public init(_ state: State = .planned, lastShown: Instant? = nil) {
        self.state = state
        self.lastShown = lastShown
    }

    /// Whether the person (or a device) has answered it for good.
    public var isAnswered: Bool {
        if case .answered = state { return true }
        return false
    }

    /// Moves the life by `input` and returns what is to be done.
    public mutating func handle(_ input: Input) -> [Effect] {
        switch (state, input) {
        case (.answered, .delivered(let notification?)):
            // Answered while it was on its way (another device, a terminal): not left on screen.
            return [.close(notification.id)]
        case (.answered, .stillShowing(let id)):
            return [.close(id)]
        case (.answered, _), (.dropped, _), (.missed, _):
            return []

        case (.planned, .due(let at)), (.waiting, .due(let at)), (.expired, .due(let at)), (.snoozed, .due(let at)):
            state = .claimed
            lastShown = at
            return [.show]
        case (.showing(let shown), .due(let at)):
            // A nag's return while the last is still on screen: it replaces it.
            state = .claimed
            lastShown = at
            return [.replace(shown.id)]
        case (.planned, .missed(let reason)), (.claimed, .missed(let reason)):
            state = .missed(reason)
            return []
        case (.planned, .itemDeleted):
            state = .dropped
            return []

        case (.claimed, .delivered(let notification)), (.showing, .delivered(let notification)):
            state = notification.map(State.showing) ?? .waiting
            return []

        case (.showing(let shown), .restart(let process)) where shown.postedBy != process:
            return [.replace(shown.id)]

        case (.showing(let shown), .serverClosed(let id, let reason)) where shown.id == id:
            switch reason {
            case .dismissed:
                state = .answered(.dismissed, .button)
                return [.record(.dismissed, .button), .writeItem(.dismissed)]
            case .expired:
                state = .expired
                return [.record(.expired, .server)]
            case .closed, .undefined:
                state = .waiting
                return [.record(.closed, .server)]
            }

        case (.snoozed, .unsnooze):
            state = .waiting
            return [.unsnooze]

        case (_, .itemDeleted):
            return answer(.deleted, .itemCommand)
        case (_, .answer(let answer, let origin)):
            return self.answer(answer, origin)

        default:
            return []
        }
    }

    /// An answer in any state a reminder can be answered in: planned or claimed (a device may
    /// answer before it goes out here), showing, waiting, expired, snoozed.
    private mutating func answer(_ answer: Answer, _ origin: AnswerOrigin) -> [Effect] {
        guard answer.byPerson else { return [] }
        if case .snoozed(let until) = answer {
            // Read again from a file, a device's snooze that already brought it back is not a new one.
            if origin == .device, let lastShown, until <= lastShown { return [] }
            if case .snoozed(let current) = state, current == until { return [] }
        }
        var effects: [Effect] = []
        if case .showing(let shown) = state { effects.append(.close(shown.id)) }
        if case .planned = state, answer.isFinal == false { return [] }
        state = answer.isFinal ? .answered(answer, origin) : .snoozed(until: answer.snoozedUntil!)
        effects.append(.record(answer, origin))
        // The item's own command and another device's file have written the item already.
        if origin != .itemCommand && origin != .device && answer != .deleted { effects.append(.writeItem(answer)) }
        return effects
    }
}

extension Answer {
    /// A snooze's end.
    public var snoozedUntil: Instant? {
        if case .snoozed(let until) = self { return until }
        return nil
    }
}
