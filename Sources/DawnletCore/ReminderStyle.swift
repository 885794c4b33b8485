/// How hard a notification asks for attention: the freedesktop urgency levels.
public enum Urgency: String, Hashable, Sendable, CaseIterable, Comparable {
    case low, normal, critical

    /// The `urgency` hint's byte: 0, 1, 2.
    public var level: UInt8 {
        switch self {
        case .low: 0
        case .normal: 1
        case .critical: 2
        }
    }

    public static func < (a: Urgency, b: Urgency) -> Bool { a.level < b.level }
}

/// Whether a notification server keeps a notification once it is answered or gone from the
/// screen (the `resident` and `transient` hints), or does as it does by default.
public enum Persistence: String, Hashable, Sendable, CaseIterable {
    case `default`, resident, transient
}

/// An item's own way of reminding, over its kind's (the config): a field left nil takes the
/// kind's. Stored with the item as `nag=5m urgency=critical sound=bell` (`text`).
public struct ReminderStyle: Hashable, Sendable {
    /// Comes back every this long until it is answered; `.zero`: never, whatever its kind does.
    public var nag: Duration?
    public var urgency: Urgency?
    /// A freedesktop sound name; "" for none, whatever its kind plays.
    public var sound: String?

    public init(nag: Duration? = nil, urgency: Urgency? = nil, sound: String? = nil) {
        self.nag = nag
        self.urgency = urgency
        self.sound = sound
    }

    public var isEmpty: Bool { nag == nil && urgency == nil && sound == nil }

    /// As stored and shown: `nag=5m urgency=critical sound=bell` (`nag=off`, `sound=none`); nil
    /// when it says nothing of its own.
    public var text: String? {
        var words: [String] = []
        if let nag { words.append("nag=" + (nag == .zero ? "off" : DurationText.format(nag))) }
        if let urgency { words.append("urgency=\(urgency.rawValue)") }
        if let sound { words.append("sound=" + (sound.isEmpty ? "none" : sound)) }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// Reads `text` back; nil for anything else.
    public init?(text: String) {
        self.init()
        for word in text.split(separator: " ") {
            guard let equals = word.firstIndex(of: "=") else { return nil }
            let (name, value) = (word[..<equals], String(word[word.index(after: equals)...]))
            switch name {
            case "nag" where nag == nil:
                guard let every = Self.nag(value) else { return nil }
                nag = every
            case "urgency" where urgency == nil:
                guard let level = Urgency(rawValue: value) else { return nil }
                urgency = level
            case "sound" where sound == nil:
                guard let name = Self.sound(value) else { return nil }
                sound = name
            default: return nil
            }
        }
    }

    /// The shortest time between two reminders of a nag, and the longest.
    public static let nagRange: ClosedRange<Duration> = .seconds(5)...(.seconds(86_400))

    /// `5m` (every five minutes) or `off`; nil for anything else.
    public static func nag(_ text: String) -> Duration? {
        if text == "off" { return .zero }
        guard let every = DurationText.parse(text), nagRange.contains(every) else { return nil }
        return every
    }

    /// A freedesktop sound name (`message-new-instant`, `bell`): letters, digits, `-`, `_`, `.`,
    /// at most 64; `none` is "" (no sound). Nil for anything else.
    public static func sound(_ text: String) -> String? {
        if text == "none" { return "" }
        let allowed = text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0))
        }
        return allowed && (1...64).contains(text.utf8.count) ? text : nil
    }
}

/// What one reminder's delivery does, its item's style laid over its kind's (`Config.style`).
public struct DeliveryStyle: Hashable, Sendable {
    /// Every this long until answered, or nil: once.
    public var nag: Duration?
    /// The urgency asked for (nil: what the reminder itself says — an overdue todo, a bill due today).
    public var urgency: Urgency?
    public var sound: String?
    public var persistence: Persistence = .default

    public init(nag: Duration? = nil, urgency: Urgency? = nil, sound: String? = nil, persistence: Persistence = .default) {
        self.nag = nag
        self.urgency = urgency
        self.sound = sound
        self.persistence = persistence
    }
}

extension PlanItem {
    /// How often its reminders come back until answered: its own nag, else its kind's in
    /// `kinds`; nil when they do not.
    public func nag(_ kinds: [ReminderKind: Duration]) -> Duration? {
        let every = style?.nag ?? kinds[kind]
        return every.flatMap { $0 > .zero ? $0 : nil }
    }

    /// The channels its reminders go on to while unanswered: its list's ladder, else its kind's
    /// in `kinds`.
    public func ladder(_ kinds: [ReminderKind: [EscalationStep]]) -> [EscalationStep] { list?.escalate ?? kinds[kind] ?? [] }

    /// The urgency it asks for: its own, else its kind's in `kinds` (nil: neither says).
    public func urgency(_ kinds: [ReminderKind: Urgency]) -> Urgency? { style?.urgency ?? kinds[kind] }
}

extension Config {
    /// The channels a reminder of `item` left unanswered goes on to: its list's ladder, else its
    /// kind's (`escalate`).
    public func escalation(of item: PlanItem) -> [EscalationStep] { item.ladder(escalate) }

    /// How reminders of `item` (nil: a digest) go out: the item's own style over its kind's.
    public func style(of item: PlanItem?) -> DeliveryStyle {
        guard let item else { return DeliveryStyle() }
        let kind = item.kind
        let own = item.style
        let sound = own?.sound ?? desktop.sound[kind]
        return DeliveryStyle(
            nag: item.nag(nag), urgency: item.urgency(desktop.urgency),
            sound: sound.flatMap { $0.isEmpty ? nil : $0 }, persistence: desktop.persistence[kind] ?? .default)
    }
}
