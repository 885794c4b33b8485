/// Where a reminder goes. Ordered by name, as lists of them are shown.
public enum Channel: String, Hashable, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    case command, desktop, email

    public static func < (a: Channel, b: Channel) -> Bool { a.rawValue < b.rawValue }
    public var description: String { rawValue }
}

/// What a reminder is about. `calendar` is an item of an external calendar file.
public enum ReminderKind: String, Hashable, Sendable, CaseIterable, Comparable {
    case todo, event, habit, bill, subscription, debt, goal, income, calendar

    public static func < (a: ReminderKind, b: ReminderKind) -> Bool { a.ordinal < b.ordinal }

    /// Its place in `allCases`: the planner's tables are indexed by it, not hashed.
    @usableFromInline var ordinal: Int {
        switch self {
        case .todo: 0
        case .event: 1
        case .habit: 2
        case .bill: 3
        case .subscription: 4
        case .debt: 5
        case .goal: 6
        case .income: 7
        case .calendar: 8
        }
    }
}

extension ReminderKind {
    /// Its name as a literal, for JSON and keys written by the hundred thousand.
    public var literal: StaticString {
        switch self {
        case .todo: "todo"
        case .event: "event"
        case .habit: "habit"
        case .bill: "bill"
        case .subscription: "subscription"
        case .debt: "debt"
        case .goal: "goal"
        case .income: "income"
        case .calendar: "calendar"
        }
    }
}

extension Channel {
    public var literal: StaticString {
        switch self {
        case .command: "command"
        case .desktop: "desktop"
        case .email: "email"
        }
    }
}

extension ConfigValue {
    /// Deeper than this is refused as it is read: dawnlet's own settings are 4 deep.
    public static let deepest = 16
}

/// A configuration value tree as JSON5 reads it. Kept as a tree so that every unknown key and
/// wrong type can be reported with its key path.
public indirect enum ConfigValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([ConfigValue])
    case object([String: ConfigValue])

    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "a list"
        case .object: return "an object"
        }
    }
}

/// A configuration problem: the key path (`channels.command.timeout`) and what is wrong with it.
public struct ConfigError: Error, Hashable, Sendable, CustomStringConvertible {
    public let keyPath: String
    public let problem: String

    public init(_ keyPath: String, _ problem: String) {
        self.keyPath = keyPath
        self.problem = problem
    }

    public var description: String { keyPath.isEmpty ? problem : "\(keyPath): \(problem)" }
}

/// The configuration file's settings (docs/config.md), typed and checked. Every key is optional;
/// an absent key takes its default.
public struct Config: Hashable, Sendable {
    /// An IANA zone name; nil means the system's zone.
    public var timeZone: String?
    public var morningDigest = WallTime(checkedHour: 8, minute: 0)
    /// How far ahead the runner plans, in seconds.
    public var horizon: Duration = .seconds(14 * 86_400)
    /// How late a missed reminder may still go out, in seconds.
    public var graceWindow: Duration = .seconds(12 * 3_600)
    /// Default offsets per kind, for items without their own.
    public var reminders: [ReminderKind: [ReminderOffset]] = Config.defaultReminders
    /// What becomes of a reminder that can only go out late, per kind (`late`; a kind not named:
    /// `.send`).
    public var late: [ReminderKind: LatePolicy] = [:]
    /// How often a reminder not yet answered comes back, per kind (`nag`; a kind not named: once).
    public var nag: [ReminderKind: Duration] = [:]
    /// How long after it first went out a reminder stops coming back (`nagFor`).
    public var nagFor: Duration = .seconds(3_600)
    /// Hours in which reminders are held until they end (`quietHours`; nil: none).
    public var quietHours: QuietHours?
    /// Per kind: the channels a reminder still unanswered goes on to, and when (`escalate`).
    public var escalate: [ReminderKind: [EscalationStep]] = [:]
    /// How the items of each list (a tag) remind, over their kinds' settings (`lists`).
    public var lists = ReminderLists()
    /// Channels per kind; `nil` key is the default route.
    public var route: [ReminderKind: [Channel]] = [:]
    public var defaultRoute: [Channel] = [.desktop]
    public var desktop = Desktop()
    public var command = Command()
    public var email: Email?
    public var calendars: [CalendarSource] = []
    /// A folder `serve` keeps the files of our todos and events in (as `export --to` writes them),
    /// after each change, and reads back what other devices wrote into them.
    public var exportTo: String?

    public struct Desktop: Hashable, Sendable {
        /// Seconds a notification stays; 0 means until dismissed.
        public var expire: Duration = .zero
        /// The snoozes a notification offers (and `reminder snooze` takes the first of).
        public var snooze: [SnoozePreset] = SnoozePreset.defaults
        /// The channel a desktop notification falls back to when no server answers; nil for none.
        public var fallback: Channel? = .command
        /// Per kind: the urgency asked for (a kind not named: normal, or critical for an overdue
        /// todo and a bill due today), the sound played where the server plays sounds, and
        /// whether the server keeps the notification once it is answered.
        public var urgency: [ReminderKind: Urgency] = [:]
        public var sound: [ReminderKind: String] = [:]
        public var persistence: [ReminderKind: Persistence] = [:]
        /// While the server says it is paused: hold desktop reminders until it resumes, or send
        /// them through the fallback channel.
        public var whilePaused: WhilePaused = .hold
        /// While the server's Do Not Disturb is on, a reminder asking for critical urgency goes out
        /// all the same (as quiet hours let it), unless this is false.
        public var criticalPassesDoNotDisturb = true

        public enum WhilePaused: String, Hashable, Sendable { case hold, fallback }
    }

    public struct Command: Hashable, Sendable {
        public var argv = ["notify-send", "--app-name=Dawnlet", "{title}", "{body}"]
        public var timeout: Duration = .seconds(10)
    }

    public struct CalendarSource: Hashable, Sendable {
        public var name: String
        public var path: String
        public var readOnly = true
        public var channels: [Channel]?
    }

    public static let defaultReminders: [ReminderKind: [ReminderOffset]] = [
        .event: [.minutes(10)], .todo: [.minutes(0)], .habit: [.minutes(0)], .bill: [.minutes(0)],
        .subscription: [.minutes(0)], .debt: [.minutes(0)], .goal: [.days(7), .days(0)], .income: [],
        .calendar: [.minutes(10)],
    ]

    public init() {}

    /// The channels reminders of `kind` go to.
    public func channels(for kind: ReminderKind) -> [Channel] { route[kind] ?? defaultRoute }

    /// Checks a decoded tree. Unknown keys are errors, never ignored.
    public init(_ value: ConfigValue) throws(ConfigError) {
        let root = try Config.object(value, "")
        try Config.allow(
            root, "",
            [
                "timeZone", "morningDigest", "horizon", "graceWindow", "late", "nag", "nagFor", "quietHours", "reminders", "route", "channels", "calendars",
                "export", "escalate", "lists",
            ])
        if let v = root["timeZone"] { timeZone = try Config.string(v, "timeZone") }
        if let v = root["morningDigest"] {
            guard let time = WallTime(try Config.string(v, "morningDigest")) else {
                throw ConfigError("morningDigest", "not a time as HH:MM")
            }
            morningDigest = time
        }
        if let v = root["horizon"] {
            horizon = try Config.duration(v, "horizon")
            guard (Duration.seconds(3_600)...Duration.seconds(366 * 86_400)).contains(horizon) else {
                throw ConfigError("horizon", "must be between 1h and 366d")
            }
        }
        if let v = root["graceWindow"] {
            graceWindow = try Config.duration(v, "graceWindow")
            guard graceWindow <= .seconds(7 * 86_400) else { throw ConfigError("graceWindow", "must be at most 7d") }
        }
        if let v = root["late"] {
            late = try Config.perKind(v, "late") { (value, path) throws(ConfigError) in
                guard let policy = LatePolicy(rawValue: try Config.string(value, path)) else { throw ConfigError(path, "one of send, summary, drop") }
                return policy
            }.filter { $0.value != .send }
        }
        if let v = root["nag"] {
            nag = try Config.perKind(v, "nag") { (value, path) throws(ConfigError) in
                guard let every = ReminderStyle.nag(try Config.string(value, path)) else {
                    throw ConfigError(path, "\"off\", or a duration between 5s and 1d such as 5m")
                }
                return every
            }.filter { $0.value > .zero }
        }
        if let v = root["nagFor"] {
            nagFor = try Config.duration(v, "nagFor")
            guard (Duration.seconds(5)...Duration.seconds(43_200)).contains(nagFor) else { throw ConfigError("nagFor", "must be between 5s and 12h") }
        }
        // A nag longer than its bound would never come back.
        if let (kind, every) = nag.filter({ $0.value > nagFor }).min(by: { $0.key < $1.key }) {
            throw ConfigError(
                root["nag"].map { if case .object = $0 { "nag.\(kind.rawValue)" } else { "nag" } } ?? "nag",
                "\(DurationText.format(every)) is longer than nagFor (\(DurationText.format(nagFor))): it would never come back")
        }
        if let v = root["quietHours"] { quietHours = try Config.quietHours(v) }
        if let v = root["reminders"] {
            let map = try Config.object(v, "reminders")
            for (key, list) in map {
                let path = "reminders.\(key)"
                guard let kind = ReminderKind(rawValue: key) else {
                    throw ConfigError(path, "unknown kind (one of \(ReminderKind.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                reminders[kind] = try Config.array(list, path).enumerated().map { (i, item) throws(ConfigError) in
                    guard let offset = ReminderOffset(try Config.string(item, "\(path)[\(i)]")) else {
                        throw ConfigError("\(path)[\(i)]", "not an offset such as 0m, 10m, 2h, 1d or 1w")
                    }
                    return offset
                }
            }
        }
        if let v = root["route"] {
            for (key, list) in try Config.object(v, "route") {
                let channels = try Config.channelList(list, "route.\(key)")
                if key == "default" {
                    defaultRoute = channels
                } else if let kind = ReminderKind(rawValue: key) {
                    route[kind] = channels
                } else {
                    throw ConfigError("route.\(key)", "unknown kind (default, or one of \(ReminderKind.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
            }
        }
        if let v = root["channels"] { try parseChannels(v) }
        for (path, channels) in [("route.default", defaultRoute)] + route.map({ ("route.\($0.key.rawValue)", $0.value) })
        where channels.contains(.email) && email == nil {
            throw ConfigError(path, "sends to email, but channels.email is not set up")
        }
        if let v = root["escalate"] { escalate = try Config.perKind(v, "escalate", Config.ladder).filter { !$0.value.isEmpty } }
        if let v = root["lists"] { lists = try Config.lists(v) }
        if let path = emailUnset() { throw ConfigError(path, "sends to email, but channels.email is not set up") }
        if let v = root["calendars"] {
            var names = Set<String>()
            calendars = try Config.array(v, "calendars").enumerated().map { (i, item) throws(ConfigError) in
                let path = "calendars[\(i)]"
                let entry = try Config.object(item, path)
                try Config.allow(entry, path, ["name", "path", "readOnly", "channels"])
                guard let nameValue = entry["name"], let pathValue = entry["path"] else {
                    throw ConfigError(path, "needs a name and a path")
                }
                let name = try Config.string(nameValue, "\(path).name")
                guard !name.isEmpty, names.insert(name).inserted else { throw ConfigError("\(path).name", "empty or used twice") }
                // A reminder's key names its calendar up to the first colon.
                guard !name.contains(":") else { throw ConfigError("\(path).name", "holds a colon, which a reminder's key uses to end the name") }
                var source = CalendarSource(name: name, path: try Config.string(pathValue, "\(path).path"))
                if let r = entry["readOnly"] { source.readOnly = try Config.bool(r, "\(path).readOnly") }
                if let c = entry["channels"] { source.channels = try Config.channelList(c, "\(path).channels") }
                return source
            }
        }
        if let v = root["export"] {
            let entry = try Config.object(v, "export")
            try Config.allow(entry, "export", ["to"])
            guard let to = entry["to"] else { throw ConfigError("export", "needs to: the folder to keep the files in") }
            let folder = try Config.string(to, "export.to")
            guard !folder.isEmpty else { throw ConfigError("export.to", "is empty") }
            guard !calendars.contains(where: { $0.readOnly && Config.samePath($0.path, folder) }) else {
                throw ConfigError("export.to", "is a calendar marked readOnly: mark it readOnly: false to export into it")
            }
            exportTo = folder
        }
    }

    /// Whether two paths of the config name one folder, as written (a trailing slash aside).
    static func samePath(_ a: String, _ b: String) -> Bool {
        func trimmed(_ s: String) -> Substring {
            var s = Substring(s)
            while s.count > 1 && s.hasSuffix("/") { s = s.dropLast() }
            return s
        }
        return trimmed(a) == trimmed(b)
    }
}
