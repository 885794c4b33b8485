/// One rung of an escalation ladder: a reminder still unanswered `after` it first went out goes
/// out on `to` as well.
public struct EscalationStep: Hashable, Sendable {
    public var after: Duration
    public var to: [Channel]

    public init(after: Duration, to: [Channel]) {
        self.after = after
        self.to = to
    }

    /// The shortest wait before a rung, and the longest.
    public static let range: ClosedRange<Duration> = .seconds(5)...(.seconds(43_200))

    /// A ladder in words, as `preview` shows it: `email after 15m, command after 1h`.
    public static func words(_ ladder: [EscalationStep]) -> String {
        ladder.map { "\($0.to.map(\.rawValue).joined(separator: "+")) after \(DurationText.format($0.after))" }.joined(separator: ", ")
    }
}

/// How the items of one list remind (`lists` in the config): a list is a tag, and an item tagged
/// with it reminds this way. Each setting an item has of its own goes over its list's, and a
/// list's over its kind's.
public struct ReminderList: Hashable, Sendable {
    /// The channels, over the kind's route (nil: the route).
    public var channels: [Channel]?
    /// Nag, urgency and sound, each over the kind's.
    public var style = ReminderStyle()
    /// Hours in which its reminders are held, instead of the config's own (nil: those).
    public var quietHours: QuietHours?
    /// Stretches in which its reminders are not sent at all (nil: none).
    public var mute: QuietHours?
    /// Channels added while a reminder stays unanswered, over its kind's ladder (nil: that one).
    public var escalate: [EscalationStep]?

    public init() {}
}

/// The lists the config names, by tag.
public struct ReminderLists: Hashable, Sendable {
    public var byTag: [String: ReminderList] = [:]

    public init(_ byTag: [String: ReminderList] = [:]) { self.byTag = byTag }

    public var isEmpty: Bool { byTag.isEmpty }

    /// The list an item of `tags` belongs to: the first of its tags the config names; nil for none.
    public func list(_ tags: [String]) -> (tag: String, list: ReminderList)? {
        guard !byTag.isEmpty else { return nil }
        for tag in tags { if let list = byTag[tag] { return (tag, list) } }
        return nil
    }

    /// How an item defined as `d` reminds: its own channels and style laid over its list's, as
    /// its plan items carry them (one box a definition).
    public func reminding(_ d: ItemDefinition) -> (channels: [Channel]?, style: PlanItem.StyleBox?) {
        guard let (tag, list) = list(d.details.tags) else { return (d.channels, PlanItem.styleBox(d.style)) }
        let own = d.style ?? ReminderStyle()
        let style = ReminderStyle(nag: own.nag ?? list.style.nag, urgency: own.urgency ?? list.style.urgency, sound: own.sound ?? list.style.sound)
        return (d.channels ?? list.channels, PlanItem.StyleBox(style, list: list, tag: tag))
    }

    /// Some list makes its items come back until answered, or go on to other channels.
    public var mayNag: Bool { byTag.values.contains { ($0.style.nag ?? .zero) > .zero } }
    public var mayEscalate: Bool { byTag.values.contains { !($0.escalate ?? []).isEmpty } }
    public var mayHold: Bool { byTag.values.contains { $0.quietHours != nil } }
    /// The longest a list's ladder waits before its last rung.
    public var longestEscalation: Duration { byTag.values.compactMap { $0.escalate?.last?.after }.max() ?? .zero }
}
