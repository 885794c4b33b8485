/// Typed reads that name the key path on failure.
extension Config {
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

    /// `quietHours: { from: "22:00", to: "07:00", days: [...], kinds: [...], critical: "pass" }`
    /// at `path`; a list's has no `kinds`. A `mute` (`wholeDays`) is from midnight to midnight
    /// unless it says otherwise, and holds nothing back: what it holds is not sent.
    static func quietHours(_ v: ConfigValue, _ path: String = "quietHours", kinds: Bool = true, wholeDays: Bool = false) throws(ConfigError) -> QuietHours {
        let o = try object(v, path)
        try allow(o, path, Set(["from", "to", "days"] + (kinds ? ["kinds"] : []) + (wholeDays ? [] : ["critical"])))
        func time(_ key: String) throws(ConfigError) -> WallTime {
            guard let value = o[key] else {
                if wholeDays { return .midnight }
                throw ConfigError(path, "needs from and to")
            }
            guard let time = WallTime(try string(value, "\(path).\(key)")) else { throw ConfigError("\(path).\(key)", "not a time as HH:MM") }
            return time
        }
        var quiet = QuietHours(from: try time("from"), to: try time("to"))
        // From midnight to midnight is a whole day; any other same time is a mistake.
        guard quiet.from != quiet.to || (wholeDays && quiet.from.secondsOfDay == 0) else { throw ConfigError(path, "from and to are the same time") }
        if let d = o["days"] {
            quiet.days = WeekdaySet(
                try strings(d, "\(path).days").map { (name) throws(ConfigError) in
                    guard let day = Weekday(name: name) else { throw ConfigError("\(path).days", "\"\(name)\" is not a weekday (mon … sun)") }
                    return day
                })
            guard !quiet.days.isEmpty else { throw ConfigError("\(path).days", "names no day") }
        }
        if let k = o["kinds"] {
            quiet.kinds = Set(
                try strings(k, "\(path).kinds").map { (name) throws(ConfigError) in
                    guard let kind = ReminderKind(rawValue: name) else {
                        throw ConfigError(
                            "\(path).kinds", "unknown kind \"\(name)\" (one of \(ReminderKind.allCases.map(\.rawValue).joined(separator: ", ")))")
                    }
                    return kind
                })
        }
        if let c = o["critical"] {
            switch try string(c, "\(path).critical") {
            case "pass": quiet.criticalPasses = true
            case "hold": quiet.criticalPasses = false
            default: throw ConfigError("\(path).critical", "pass or hold")
            }
        }
        if wholeDays { quiet.criticalPasses = false }
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
