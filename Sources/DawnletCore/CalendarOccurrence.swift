/// One instance of an event or todo from an external calendar file: read at planning
/// time, never stored. Its key (`ics:NAME:UID:INSTANCE`) stays the same however often the file is
/// read, so a reminder for it fires once.
public struct CalendarOccurrence: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable { case event, todo }

    /// The calendar's name in the config (`work`).
    public let calendar: String
    public let uid: String
    public let kind: Kind
    public let title: String
    /// Its day in the planning zone (an all-day item's own date).
    public let date: CivilDate
    /// Its start (a todo's due), nil for an all-day item.
    public let start: Instant?
    /// Its wall time in the planning zone, nil for an all-day item.
    public let time: WallTime?
    /// The instants its VALARMs fire at; nil when it has none (the per-kind defaults apply).
    public let alarms: [Instant]?
    /// Which instance of a repeating item: its original start (`20261201T090000Z`, or `20261201`
    /// for a date); nil for a single one.
    public let instance: String?
    /// Up to when its reminders were seen on another device (Thunderbird's X-MOZ-LASTACK, which
    /// dawnlet-remind writes too): those of the calendar's default offsets as well as its VALARMs.
    public let acknowledged: Instant?
    /// A todo with a DUE (its `date` and `time` are then when it is due); one with DTSTART only
    /// is about when it starts.
    public let hasDue: Bool

    public init(
        calendar: String, uid: String, kind: Kind, title: String, date: CivilDate, start: Instant?, time: WallTime?,
        alarms: [Instant]?, instance: String?, acknowledged: Instant? = nil, hasDue: Bool = false
    ) {
        self.acknowledged = acknowledged
        self.hasDue = hasDue
        self.calendar = calendar
        self.uid = uid
        self.kind = kind
        self.title = title
        self.date = date
        self.start = start
        self.time = time
        self.alarms = alarms
        self.instance = instance
    }

    /// `ics:work:UID:20261201T090000Z`, or `ics:work:UID` for a single item.
    public var key: String {
        "ics:\(calendar):\(uid)" + (instance.map { ":\($0)" } ?? "")
    }
}

/// A calendar file, or one item in it, that could not be used: reported, skipped, nothing else lost.
public struct CalendarProblem: Error, Hashable, Sendable, CustomStringConvertible {
    public let file: String
    public let message: String
    /// Set when this problem is a calendar left partly unplanned by the plan's work budget.
    public let cut: CalendarCut?

    public init(file: String, _ message: String, cut: CalendarCut? = nil) {
        self.file = file
        self.message = message
        self.cut = cut
    }

    public var description: String { "\(file): \(message)" }
}

/// What the plan's calendar budget (work: bytes read, instances expanded) left out of one
/// calendar: the files it did not read, and whether a rule was stopped part way.
public struct CalendarCut: Hashable, Sendable, CustomStringConvertible {
    /// The calendar's name in the config.
    public let calendar: String
    /// Its files (1 for a single file) and how many of them were not read.
    public let files: Int
    public let filesNotRead: Int
    /// The UID whose rule stopped expanding when the budget ran out, if one did.
    public let ruleCut: String?
    /// What ran out: `1000000 instances`, `268435456 bytes read`.
    public let limit: String

    public init(calendar: String, files: Int, filesNotRead: Int, ruleCut: String?, limit: String) {
        self.calendar = calendar
        self.files = files
        self.filesNotRead = filesNotRead
        self.ruleCut = ruleCut
        self.limit = limit
    }

    /// `calendar "big": the calendar budget of 1000000 instances is spent: 9744 of 50000 files not read`.
    public var description: String {
        var parts: [String] = []
        if let ruleCut { parts.append("the rest of the rule of \(ruleCut) not expanded") }
        if filesNotRead > 0 || ruleCut == nil { parts.append("\(filesNotRead) of \(files) file\(files == 1 ? "" : "s") not read") }
        return "calendar \"\(calendar)\": the plan's calendar budget of \(limit) is spent: " + parts.joined(separator: ", ")
    }
}
