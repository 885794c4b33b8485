/// What a person defined: a one-off item on a date, or a repeating one with a Schedule.
///
/// A plan holds every definition at once, so what every one has is kept inline, in as few
/// bytes as it takes, and what few have (a duration, channels, a style, details, a zone, a
/// checklist) out of line, in one shared box written only when its own (copied on write).
public struct ItemDefinition: Hashable, Sendable {
    public let id: Int64
    public var title: String
    public var reminders: [ReminderOffset]
    /// When it was made, or its date, time or schedule last changed: it reminds of no instant
    /// before (nil: of every instant).
    public var remindsFrom: Instant?
    /// The repeating pattern, its anchor explicit; nil for a one-off.
    public var schedule: Schedule?
    private var more: More?
    /// A one-off's date (a todo's due date, an event's start); nil for an undated todo.
    /// For a repeating item, where its anchor defaults to.
    public var date: CivilDate?
    public var time: WallTime?
    public let kind: ItemKind

    public init(
        kind: ItemKind, id: Int64, title: String, time: WallTime? = nil, schedule: Schedule? = nil,
        date: CivilDate? = nil, durationMinutes: Int? = nil, reminders: [ReminderOffset] = []
    ) {
        self.kind = kind
        self.id = id
        self.title = title
        self.time = time
        self.schedule = schedule
        self.date = date
        self.reminders = reminders
        if let durationMinutes { self.durationMinutes = durationMinutes }
    }

    public var durationMinutes: Int? {
        get { more?.rare.durationMinutes }
        set { editMore { $0.durationMinutes = newValue } }
    }
    /// The channels its reminders go to, over its kind's route (nil: the route).
    public var channels: [Channel]? {
        get { more?.rare.channels }
        set { editMore { $0.channels = newValue } }
    }
    /// Its own way of reminding (nag, urgency, sound), over its kind's (nil: its kind's).
    public var style: ReminderStyle? {
        get { more?.rare.style }
        set { editMore { $0.style = newValue } }
    }
    /// Its note, location, link, priority and tags (todos and events).
    public var details: ItemDetails {
        get { more?.rare.details ?? ItemDetails() }
        set { editMore { $0.details = newValue } }
    }
    /// Its own zone's name (`America/New_York`, todos and events): its wall times are read there,
    /// so it keeps its instant whatever the viewer's zone (`ItemZone`). Nil: floating, read in the
    /// viewer's zone.
    public var zone: String? {
        get { more?.rare.zone }
        set { editMore { $0.zone = newValue } }
    }
    /// A todo's checklist, and its checks per occurrence (empty for events and habits).
    public var checklist: Checklist {
        get { more?.rare.checklist ?? Checklist() }
        set { editMore { $0.checklist = newValue } }
    }

    /// What few definitions hold.
    struct Rare: Hashable, Sendable {
        var durationMinutes: Int?
        var channels: [Channel]?
        var style: ReminderStyle?
        var details = ItemDetails()
        var zone: String?
        var checklist = Checklist()
    }

    /// The box of what few hold: changed in place only while this definition is its one owner.
    final class More: @unchecked Sendable {
        var rare: Rare
        init(_ rare: Rare) { self.rare = rare }
    }

    private mutating func editMore(_ change: (inout Rare) -> Void) {
        if more != nil && isKnownUniquelyReferenced(&more) {
            change(&more!.rare)
        } else {
            var rare = more?.rare ?? Rare()
            change(&rare)
            // Most definitions hold none of it: no box for them (the store sets every field).
            more = rare == Rare() ? nil : More(rare)
        }
    }

    public static func == (lhs: ItemDefinition, rhs: ItemDefinition) -> Bool {
        lhs.id == rhs.id && lhs.kind == rhs.kind && lhs.title == rhs.title && lhs.reminders == rhs.reminders && lhs.remindsFrom == rhs.remindsFrom
            && lhs.schedule == rhs.schedule && lhs.date == rhs.date && lhs.time == rhs.time && (lhs.more?.rare ?? Rare()) == (rhs.more?.rare ?? Rare())
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(kind)
        hasher.combine(title)
        hasher.combine(schedule)
        hasher.combine(date)
        hasher.combine(time)
    }

    public var isRepeating: Bool { schedule != nil }
}
