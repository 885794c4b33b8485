import FoundationEssentials

/// Something a reminder can be about: one merged occurrence of any module or money source.
public struct PlanItem: Hashable, Sendable {
    /// Why it produces no reminder: skipped, done or logged, or muted by its list.
    public enum Suppression: String, Hashable, Sendable { case skipped, done, logged, muted }

    public let kind: ReminderKind
    public let definitionID: Int64
    public let date: CivilDate
    /// Nil for a date-only item, which goes in the morning digest.
    public let time: WallTime?
    public let title: String
    public let source: Occurrence.Origin
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
    /// The instant (seconds since the epoch) it reminds from: when its item was made or its
    /// date, time or schedule last changed. Its reminders of earlier instants are not planned.
    public let notBefore: Int64
    /// The channels its reminders go to, over its kind's route (nil: the route).
    public let channels: [Channel]?
    /// Its own way of reminding, over its kind's (nil: its kind's); boxed, as few items have one.
    public var style: ReminderStyle? { styleBox?.style }
    @usableFromInline let styleBox: StyleBox?

    /// A style shared by the occurrences of one definition (`styleBox(_:)`).
    /// With its list's settings, where a tag of its item names one (`ReminderLists`). (Not its
    /// item's note: a box on every item of a definition with a note would be counted on each
    /// occurrence of a plan; the note is added to a reminder's body as it goes out,
    /// `ReminderMessage.addNote`.)
    public final class StyleBox: Hashable, Sendable {
        let style: ReminderStyle
        let list: ReminderList?
        let tag: String?
        init(_ style: ReminderStyle, list: ReminderList? = nil, tag: String? = nil) {
            self.style = style
            self.list = list
            self.tag = tag
        }
        public static func == (a: StyleBox, b: StyleBox) -> Bool { a.style == b.style && a.list == b.list && a.tag == b.tag }
        public func hash(into hasher: inout Hasher) {
            hasher.combine(style)
            hasher.combine(tag)
        }
    }
    /// The list it reminds as (its item's first tag the config names), and that list's settings.
    public var list: ReminderList? { styleBox?.list }
    public var listTag: String? { styleBox?.tag }
    /// Its own zone, when its wall time is read there and not in the plan's (`ItemZone`); boxed, as
    /// few items have one.
    public var zone: Zone? { zoneBox?.zone }
    @usableFromInline let zoneBox: ZoneBox?

    /// A zone shared by the occurrences of one definition, made once for it.
    public final class ZoneBox: Hashable, Sendable {
        public let zone: Zone
        public init(_ zone: Zone) { self.zone = zone }
        public static func == (a: ZoneBox, b: ZoneBox) -> Bool { a.zone == b.zone }
        public func hash(into hasher: inout Hasher) { hasher.combine(zone) }
    }
    /// Extra words for the reminder (an amount, a duration).
    public let detail: String?
    /// Why this date (a clamped day of month), for `preview`.
    public let note: String?
    /// The external calendar instance behind a `calendar` item; boxed, so the many
    /// items of a plan stay small.
    public var calendar: CalendarOccurrence? { calendarBox?.occurrence }
    /// Whether it is an external calendar's: asked per reminder, without copying the instance.
    public var isCalendar: Bool { calendarBox != nil }
    /// What it is, as its reminder words it: its kind, or for a calendar file's item what the file
    /// says it is (a VTODO reads as a todo, a VEVENT as an event); its key's kind stays `calendar`.
    public var wordedKind: ReminderKind {
        switch calendar?.kind {
        case .todo?: .todo
        case .event?: .event
        case nil: kind
        }
    }
    @usableFromInline let calendarBox: CalendarBox?

    @usableFromInline final class CalendarBox: Hashable, Sendable {
        let occurrence: CalendarOccurrence
        init(_ occurrence: CalendarOccurrence) { self.occurrence = occurrence }
        @usableFromInline static func == (a: CalendarBox, b: CalendarBox) -> Bool { a.occurrence == b.occurrence }
        @usableFromInline func hash(into hasher: inout Hasher) { hasher.combine(occurrence) }
    }

    public init(
        kind: ReminderKind, definitionID: Int64, date: CivilDate, time: WallTime?, title: String,
        source: Occurrence.Origin, offsets: [ReminderOffset] = [], suppression: Suppression? = nil,
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
        source: Occurrence.Origin, offsets: Offsets, suppression: Suppression?, detail: String?, note: String?, notBefore: Int64 = .min,
        channels: [Channel]? = nil, style: StyleBox? = nil, zone: ZoneBox? = nil
    ) {
        self.init(
            kind: kind, definitionID: definitionID, date: date, time: time, title: title, source: source, offsets: offsets,
            suppression: suppression, detail: detail, note: note, box: nil, notBefore: notBefore, channels: channels, style: style, zone: zone)
    }

    /// An item's style as a plan keeps it: one box per definition, shared by its occurrences;
    /// nil for none.
    public static func styleBox(_ style: ReminderStyle?) -> StyleBox? {
        guard let style, !style.isEmpty else { return nil }
        return StyleBox(style)
    }

    /// An external calendar's instance, as a `calendar` item.
    /// `notBefore`: when this machine first saw the item (no reminder of a time before is sent).
    public init(calendar occurrence: CalendarOccurrence, notBefore: Int64 = .min) {
        self.init(
            kind: .calendar, definitionID: 0, date: occurrence.date, time: occurrence.time, title: occurrence.title, source: .virtual, offsets: .none,
            suppression: nil, detail: nil, note: nil, box: CalendarBox(occurrence), notBefore: notBefore)
    }

    // One made per occurrence planned: no calendar instance to take in and let go of for the
    // many that have none.
    @inlinable
    init(
        kind: ReminderKind, definitionID: Int64, date: CivilDate, time: WallTime?, title: String, source: Occurrence.Origin,
        offsets: Offsets, suppression: Suppression?, detail: String?, note: String?, box: CalendarBox?, notBefore: Int64 = .min,
        channels: [Channel]? = nil, style: StyleBox? = nil, zone: ZoneBox? = nil
    ) {
        calendarBox = box
        zoneBox = zone
        styleBox = style
        self.notBefore = notBefore
        self.channels = channels
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
