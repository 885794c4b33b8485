/// The lists' settings (`lists`) and the escalation ladders (`escalate`).
extension Config {
    /// `escalate: [{ after: "15m", to: ["email"] }, …]` at `path`: rungs in the order they come,
    /// each later than the one before.
    static func ladder(_ v: ConfigValue, _ path: String) throws(ConfigError) -> [EscalationStep] {
        var ladder: [EscalationStep] = []
        for (i, item) in try array(v, path).enumerated() {
            let at = "\(path)[\(i)]"
            let rung = try object(item, at)
            try allow(rung, at, ["after", "to"])
            guard let after = rung["after"], let to = rung["to"] else { throw ConfigError(at, "needs after and to") }
            let step = EscalationStep(after: try duration(after, "\(at).after"), to: try channelList(to, "\(at).to"))
            guard EscalationStep.range.contains(step.after) else { throw ConfigError("\(at).after", "must be between 5s and 12h") }
            guard !step.to.isEmpty else { throw ConfigError("\(at).to", "names no channel") }
            if let last = ladder.last, step.after <= last.after {
                throw ConfigError("\(at).after", "must be later than the rung before (\(DurationText.format(last.after)))")
            }
            ladder.append(step)
        }
        return ladder
    }

    /// `lists: { work: { route, urgency, nag, sound, quietHours, mute, escalate }, … }`.
    static func lists(_ v: ConfigValue) throws(ConfigError) -> ReminderLists {
        var lists = ReminderLists()
        for (name, value) in try object(v, "lists").sorted(by: { $0.key < $1.key }) {
            let path = "lists.\(name)"
            guard let tag = ItemDetails.tag(name), tag == name else {
                throw ConfigError(path, "not a tag: lowercase letters, digits, - and _, at most 40")
            }
            let o = try object(value, path)
            try allow(o, path, ["route", "urgency", "nag", "sound", "quietHours", "mute", "escalate"])
            var list = ReminderList()
            if let r = o["route"] { list.channels = try channelList(r, "\(path).route") }
            if let u = o["urgency"] {
                guard let urgency = Urgency(rawValue: try string(u, "\(path).urgency")) else { throw ConfigError("\(path).urgency", "low, normal or critical") }
                list.style.urgency = urgency
            }
            if let n = o["nag"] {
                guard let every = ReminderStyle.nag(try string(n, "\(path).nag")) else {
                    throw ConfigError("\(path).nag", "\"off\", or a duration between 5s and 1d such as 5m")
                }
                list.style.nag = every
            }
            if let s = o["sound"] {
                guard let sound = ReminderStyle.sound(try string(s, "\(path).sound")) else {
                    throw ConfigError("\(path).sound", "a sound name (letters, digits, -, _ and .) or none")
                }
                list.style.sound = sound
            }
            if let q = o["quietHours"] { list.quietHours = try quietHours(q, "\(path).quietHours", kinds: false) }
            if let m = o["mute"] { list.mute = try quietHours(m, "\(path).mute", kinds: false, wholeDays: true) }
            if let e = o["escalate"] { list.escalate = try ladder(e, "\(path).escalate") }
            lists.byTag[name] = list
        }
        return lists
    }

    /// The key path of the first list or ladder that sends to email while it is not set up.
    func emailUnset() -> String? {
        var uses: [(String, [Channel])] = []
        for (name, list) in lists.byTag.sorted(by: { $0.key < $1.key }) {
            uses.append(("lists.\(name).route", list.channels ?? []))
            uses.append(("lists.\(name).escalate", (list.escalate ?? []).flatMap(\.to)))
        }
        // One ladder for every kind is named as it was written.
        let one = escalate.count == ReminderKind.allCases.count && Set(escalate.values).count == 1
        for (kind, ladder) in escalate.sorted(by: { $0.key < $1.key }) { uses.append((one ? "escalate" : "escalate.\(kind.rawValue)", ladder.flatMap(\.to))) }
        return uses.first { $0.1.contains(.email) && email == nil }?.0
    }
}
