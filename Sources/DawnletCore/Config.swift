/// What a reminder is about. `calendar` is an item of an external calendar file.
/// Where a reminder goes. Ordered by name, as lists of them are shown.
public enum Channel: String, Hashable, Sendable, CaseIterable, Comparable, CustomStringConvertible {
    case command, desktop, email

    public static func < (a: Channel, b: Channel) -> Bool { a.rawValue < b.rawValue }
    public var description: String { rawValue }
}

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
                "export",
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

    private mutating func parseChannels(_ value: ConfigValue) throws(ConfigError) {
        let channels = try Config.object(value, "channels")
        try Config.allow(channels, "channels", ["desktop", "command", "email"])
        if let v = channels["desktop"] {
            let d = try Config.object(v, "channels.desktop")
            try Config.allow(d, "channels.desktop", ["expire", "snooze", "fallback", "urgency", "sound", "persistence", "whilePaused"])
            if let e = d["expire"] { desktop.expire = try Config.duration(e, "channels.desktop.expire") }
            if let s = d["snooze"] {
                // One preset, or a list of them.
                let texts: [String]
                if case .string(let one) = s { texts = [one] } else { texts = try Config.strings(s, "channels.desktop.snooze") }
                guard (1...6).contains(texts.count) else { throw ConfigError("channels.desktop.snooze", "needs one to six presets") }
                desktop.snooze = try texts.enumerated().map { (i, text) throws(ConfigError) in
                    guard let preset = SnoozePreset(text) else {
                        throw ConfigError(
                            texts.count == 1 && s == .string(text) ? "channels.desktop.snooze" : "channels.desktop.snooze[\(i)]",
                            "\"\(text)\" is not a snooze: a duration of at least 5s (10m), a day and time (tomorrow 09:00), or a duration before start (15m before start)"
                        )
                    }
                    return preset
                }
            }
            if let f = d["fallback"] {
                if case .null = f {
                    desktop.fallback = nil
                } else {
                    let name = try Config.string(f, "channels.desktop.fallback")
                    guard let channel = Channel(rawValue: name), channel != .desktop else {
                        throw ConfigError("channels.desktop.fallback", "must be command, email or null")
                    }
                    desktop.fallback = channel
                }
            }
            if let u = d["urgency"] {
                desktop.urgency = try Config.perKind(u, "channels.desktop.urgency") { (value, path) throws(ConfigError) in
                    guard let urgency = Urgency(rawValue: try Config.string(value, path)) else { throw ConfigError(path, "one of low, normal, critical") }
                    return urgency
                }
            }
            if let s = d["sound"] {
                desktop.sound = try Config.perKind(s, "channels.desktop.sound") { (value, path) throws(ConfigError) in
                    guard let name = ReminderStyle.sound(try Config.string(value, path)) else {
                        throw ConfigError(path, "a sound name such as bell or message-new-instant (letters, digits, - _ .), or none")
                    }
                    return name
                }.filter { !$0.value.isEmpty }
            }
            if let w = d["whilePaused"] {
                guard let choice = Desktop.WhilePaused(rawValue: try Config.string(w, "channels.desktop.whilePaused")) else {
                    throw ConfigError("channels.desktop.whilePaused", "hold or fallback")
                }
                desktop.whilePaused = choice
                if choice == .fallback && desktop.fallback == nil && d["fallback"] != nil {
                    throw ConfigError("channels.desktop.whilePaused", "fallback needs channels.desktop.fallback (it is null)")
                }
            }
            if let p = d["persistence"] {
                desktop.persistence = try Config.perKind(p, "channels.desktop.persistence") { (value, path) throws(ConfigError) in
                    guard let persistence = Persistence(rawValue: try Config.string(value, path)) else {
                        throw ConfigError(path, "one of default, resident, transient")
                    }
                    return persistence
                }
            }
        }
        if let v = channels["command"] {
            let c = try Config.object(v, "channels.command")
            try Config.allow(c, "channels.command", ["argv", "timeout"])
            if let a = c["argv"] {
                command.argv = try Config.strings(a, "channels.command.argv")
                guard let program = command.argv.first, !program.isEmpty else {
                    throw ConfigError("channels.command.argv", "needs at least the program to run")
                }
            }
            if let t = c["timeout"] {
                command.timeout = try Config.duration(t, "channels.command.timeout")
                guard (Duration.seconds(1)...Duration.seconds(3_600)).contains(command.timeout) else {
                    throw ConfigError("channels.command.timeout", "must be between 1s and 1h")
                }
            }
        }
        if let v = channels["email"] {
            let e = try Config.object(v, "channels.email")
            try Config.allow(e, "channels.email", ["url", "tls", "from", "to", "user", "passwordFile", "sendmail", "timeout", "caFile"])
            var email = Email()
            if let u = e["url"] {
                let url = try Config.string(u, "channels.email.url")
                guard url.hasPrefix("smtp://") || url.hasPrefix("smtps://") else {
                    throw ConfigError("channels.email.url", "must start with smtp:// or smtps://")
                }
                // Only scheme://host[:port][/domain]: a `?`, `#`, `@`, `%` or `\` would let this check
                // and curl read different hosts out of the same text (the user goes in `user`).
                if let bad = url.unicodeScalars.first(where: { "?#@%\\ ".unicodeScalars.contains($0) || !DisplayText.isTypable($0) }) {
                    throw ConfigError(
                        "channels.email.url",
                        "may hold only smtp[s]://host[:port][/domain]; \(bad == "@" ? "the login goes in user and passwordFile" : "\"\(DisplayText.escaped(String(bad)))\" has no place in it")"
                    )
                }
                guard let host = Email.host(of: url), !host.isEmpty else { throw ConfigError("channels.email.url", "names no host") }
                email.url = url
            }
            if let t = e["tls"] {
                guard let tls = Email.TLS(rawValue: try Config.string(t, "channels.email.tls")) else {
                    throw ConfigError("channels.email.tls", "must be starttls or none")
                }
                email.tls = tls
            }
            if let f = e["from"] { email.from = try Config.string(f, "channels.email.from") }
            if let t = e["to"] { email.to = try Config.strings(t, "channels.email.to") }
            if let u = e["user"] { email.user = try Config.string(u, "channels.email.user") }
            if let p = e["passwordFile"] { email.passwordFile = try Config.string(p, "channels.email.passwordFile") }
            if let s = e["sendmail"] {
                email.sendmail = try Config.strings(s, "channels.email.sendmail")
                guard let program = email.sendmail?.first, !program.isEmpty else {
                    throw ConfigError("channels.email.sendmail", "needs at least the program to run")
                }
            }
            if let t = e["timeout"] {
                email.timeout = try Config.duration(t, "channels.email.timeout")
                guard (Duration.seconds(1)...Duration.seconds(600)).contains(email.timeout) else {
                    throw ConfigError("channels.email.timeout", "must be between 1s and 10m")
                }
            }
            if let c = e["caFile"] { email.caFile = try Config.string(c, "channels.email.caFile") }
            if email.tls == .none, email.url != nil {
                guard email.url?.hasPrefix("smtp://") == true else {
                    throw ConfigError("channels.email.tls", "smtps:// always uses TLS: remove tls or use smtp://")
                }
                guard email.hostIsLoopback else {
                    throw ConfigError(
                        "channels.email.tls",
                        "none is refused for \(email.host ?? "this host"): mail and password would cross the network in clear (allowed only for a loopback host)"
                    )
                }
            }
            guard (email.url == nil) != (email.sendmail == nil) else {
                throw ConfigError("channels.email", "give either url or sendmail")
            }
            guard email.from != nil, !email.to.isEmpty else { throw ConfigError("channels.email", "needs from and to") }
            // Scalars, not Characters: "\r\n" is one Character that equals neither "\r" nor "\n".
            for address in [email.from ?? ""] + email.to where address.unicodeScalars.contains(where: { "\r\n<>".unicodeScalars.contains($0) }) {
                throw ConfigError("channels.email", "an address contains a line break or angle bracket")
            }
            self.email = email
        }
    }

    // MARK: Typed reads that name the key path on failure.

    static func object(_ v: ConfigValue, _ path: String) throws(ConfigError) -> [String: ConfigValue] {
        guard case .object(let o) = v else { throw ConfigError(path, "must be an object, not \(v.typeName)") }
        return o
    }

    static func array(_ v: ConfigValue, _ path: String) throws(ConfigError) -> [ConfigValue] {
        guard case .array(let a) = v else { throw ConfigError(path, "must be a list, not \(v.typeName)") }
        return a
    }

    static func string(_ v: ConfigValue, _ path: String) throws(ConfigError) -> String {
        guard case .string(let s) = v else { throw ConfigError(path, "must be a string, not \(v.typeName)") }
        return s
    }

    static func bool(_ v: ConfigValue, _ path: String) throws(ConfigError) -> Bool {
        guard case .bool(let b) = v else { throw ConfigError(path, "must be true or false, not \(v.typeName)") }
        return b
    }

    static func strings(_ v: ConfigValue, _ path: String) throws(ConfigError) -> [String] {
        try array(v, path).enumerated().map { (i, item) throws(ConfigError) in try string(item, "\(path)[\(i)]") }
    }

    static func duration(_ v: ConfigValue, _ path: String) throws(ConfigError) -> Duration {
        let text = try string(v, path)
        guard let duration = DurationText.parse(text) else {
            throw ConfigError(path, "\"\(text)\" is not a duration such as 30s, 10m, 12h or 14d")
        }
        return duration
    }

    static func channelList(_ v: ConfigValue, _ path: String) throws(ConfigError) -> [Channel] {
        try strings(v, path).map { (name) throws(ConfigError) in
            guard let channel = Channel(rawValue: name) else { throw ConfigError(path, "unknown channel \"\(name)\" (desktop, command or email)") }
            return channel
        }
    }

    /// `quietHours: { from: "22:00", to: "07:00", days: [...], kinds: [...], critical: "pass" }`.
    static func quietHours(_ v: ConfigValue) throws(ConfigError) -> QuietHours {
        let o = try object(v, "quietHours")
        try allow(o, "quietHours", ["from", "to", "days", "kinds", "critical"])
        func time(_ key: String) throws(ConfigError) -> WallTime {
            guard let value = o[key] else { throw ConfigError("quietHours", "needs from and to") }
            guard let time = WallTime(try string(value, "quietHours.\(key)")) else { throw ConfigError("quietHours.\(key)", "not a time as HH:MM") }
            return time
        }
        var quiet = QuietHours(from: try time("from"), to: try time("to"))
        guard quiet.from != quiet.to else { throw ConfigError("quietHours", "from and to are the same time") }
        if let d = o["days"] {
            quiet.days = WeekdaySet(
                try strings(d, "quietHours.days").map { (name) throws(ConfigError) in
                    guard let day = Weekday(name: name) else { throw ConfigError("quietHours.days", "\"\(name)\" is not a weekday (mon … sun)") }
                    return day
                })
            guard !quiet.days.isEmpty else { throw ConfigError("quietHours.days", "names no day") }
        }
        if let k = o["kinds"] {
            quiet.kinds = Set(
                try strings(k, "quietHours.kinds").map { (name) throws(ConfigError) in
                    guard let kind = ReminderKind(rawValue: name) else {
                        throw ConfigError(
                            "quietHours.kinds", "unknown kind \"\(name)\" (one of \(ReminderKind.allCases.map(\.rawValue).joined(separator: ", ")))")
                    }
                    return kind
                })
        }
        if let c = o["critical"] {
            switch try string(c, "quietHours.critical") {
            case "pass": quiet.criticalPasses = true
            case "hold": quiet.criticalPasses = false
            default: throw ConfigError("quietHours.critical", "pass or hold")
            }
        }
        return quiet
    }

    /// A setting per kind: one value for every kind, or an object of kinds (and `default`, for
    /// the kinds not named, whatever the order written).
    static func perKind<Value>(
        _ v: ConfigValue, _ path: String, _ read: (ConfigValue, String) throws(ConfigError) -> Value
    ) throws(ConfigError) -> [ReminderKind: Value] {
        guard case .object(let map) = v else {
            let value = try read(v, path)
            return Dictionary(uniqueKeysWithValues: ReminderKind.allCases.map { ($0, value) })
        }
        var result: [ReminderKind: Value] = [:]
        for (key, value) in map.sorted(by: { $0.key < $1.key }) {
            let at = "\(path).\(key)"
            let read = try read(value, at)
            if key == "default" {
                for kind in ReminderKind.allCases where map[kind.rawValue] == nil { result[kind] = read }
            } else if let kind = ReminderKind(rawValue: key) {
                result[kind] = read
            } else {
                throw ConfigError(at, "unknown kind (default, or one of \(ReminderKind.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
        }
        return result
    }

    static func allow(_ object: [String: ConfigValue], _ path: String, _ keys: Set<String>) throws(ConfigError) {
        for key in object.keys.sorted() where !keys.contains(key) {
            throw ConfigError(path.isEmpty ? key : "\(path).\(key)", "unknown key (known: \(keys.sorted().joined(separator: ", ")))")
        }
    }
}
