/// `channels`: the desktop, command and email channels' settings, each checked with its key path.
extension Config {
    mutating func parseChannels(_ value: ConfigValue) throws(ConfigError) {
        let channels = try Config.object(value, "channels")
        try Config.allow(channels, "channels", ["desktop", "command", "email"])
        if let v = channels["desktop"] {
            let d = try Config.object(v, "channels.desktop")
            try Config.allow(
                d, "channels.desktop", ["expire", "snooze", "fallback", "urgency", "sound", "persistence", "whilePaused", "criticalPassesDoNotDisturb"])
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
            if let c = d["criticalPassesDoNotDisturb"] {
                desktop.criticalPassesDoNotDisturb = try Config.bool(c, "channels.desktop.criticalPassesDoNotDisturb")
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
}
