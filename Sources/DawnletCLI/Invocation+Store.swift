import DawnletCore
import DawnletStore
import DawnletSystem
import FoundationEssentials

extension Invocation {
    /// `--db`, else `$XDG_DATA_HOME/dawnlet/dawnlet.sqlite`, else `~/.local/share/dawnlet/dawnlet.sqlite`.
    func databasePath() -> String {
        if let path = globals.databasePath { return path }
        if let data = Environment.variable("XDG_DATA_HOME"), data.hasPrefix("/") { return data + "/dawnlet/dawnlet.sqlite" }
        let home = Environment.variable("HOME") ?? FileManager.default.homeDirectoryForCurrentUser.path
        return home + "/.local/share/dawnlet/dawnlet.sqlite"
    }

    /// The database, created if it is not there yet: for commands that write. The default one's
    /// folders are made too; a `--db` whose folder is missing is exit 66 (a mistyped path builds
    /// nothing).
    func openStore() throws -> Store {
        try Store(path: databasePath(), folders: globals.databasePath == nil, began: try now())
    }

    /// The database for a command that only reads: a missing one is exit 66, never created.
    func readStore() throws -> Store {
        try Store(path: databasePath(), create: false)
    }

    /// The positional ID argument: a positive whole number.
    func id(at index: Int = 0) throws(CLIError) -> Int64 {
        let text = arguments.positionals[index]
        guard let id = Int64(text), id > 0 else { throw .usage("\"\(text)\" is not an id (a number that add printed)", globals.usage) }
        return id
    }

    /// An optional `YYYY-MM-DD` option.
    func optionalDate(_ name: String) throws(CLIError) -> CivilDate? {
        try arguments.value(name).map { (text) throws(CLIError) in try date(name, text) }
    }

    /// `DATE`, `DATETHH:MM`, `DATE TIME` or a time alone, as people type them (`tomorrow 9am`).
    func dateAndTime(_ name: String) throws(CLIError) -> (CivilDate, WallTime?)? {
        guard let text = arguments.value(name) else { return nil }
        let today = try today()
        guard let resolved = DateWords.dateAndTime(text, today: today) else {
            let why = DateWords.whyNot(text, today: today).map { " (\($0))" } ?? ""
            throw .usage(
                "--\(name) \"\(text)\" is not a date, or a date and time\(why): give \(DateWords.examples) "
                    + "(2026-12-04T09:30, tomorrow 09:00, fri 6:30pm)", globals.usage)
        }
        return resolved
    }

    /// When `--name` was a word (`fri`, `tomorrow 09:00`) rather than an ISO date, says on stderr
    /// what it was read as (`todo 4: due Fri 2026-12-04 09:00`), as `at` says when a job runs.
    func echoResolved(_ name: String, as what: String, _ resolved: (CivilDate, WallTime?)?) {
        guard let text = arguments.value(name), let (day, time) = resolved,
            CivilDate(String(text.prefix(10))) == nil
        else { return }
        let weekday = day.weekday.shortName.prefix(1).uppercased() + day.weekday.shortName.dropFirst()
        output.error("\(what) \(weekday) \(day)\(time.map { " \($0)" } ?? "")")
    }

    /// `--channel desktop,email`: an item's own channels, over its kind's route (nil: not given).
    func itemChannels() throws(CLIError) -> [Channel]? {
        guard let text = arguments.value("channel") else { return nil }
        var channels: [Channel] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let channel = Channel(rawValue: String(name)) else {
                throw .usage(
                    "--channel \"\(text)\": \"\(name)\" is not a channel (desktop, command, email)",
                    globals.usage)
            }
            if !channels.contains(channel) { channels.append(channel) }
        }
        if channels.contains(.email) && config.email == nil {
            throw CLIError(code: .configError, message: "--channel email: channels.email is not set up in the config")
        }
        return channels
    }

    /// `--nag 5m|off`, `--urgency low|normal|critical`, `--sound NAME|none` over `style` (each
    /// `default`: back to the kind's); nil when nothing of its own is left.
    func itemStyle(over style: ReminderStyle?) throws(CLIError) -> ReminderStyle? {
        var style = style ?? ReminderStyle()
        /// The option's value: nil when not given, `.some(nil)` for `default`.
        func read<Value>(_ name: String, _ meaning: String, _ parse: (String) -> Value?) throws(CLIError) -> Value?? {
            guard let text = arguments.value(name) else { return nil }
            if text == "default" { return .some(nil) }
            guard let value = parse(text) else { throw .usage("--\(name) \"\(text)\" is not \(meaning)", globals.usage) }
            return .some(value)
        }
        if let nag = try read("nag", "a time between 5s and 1d such as 5m, off, or default", ReminderStyle.nag) {
            if let every = nag, every > config.nagFor {
                throw .usage(
                    "--nag \(DurationText.format(every)) is longer than nagFor (\(DurationText.format(config.nagFor))) in the config: it would never come back",
                    globals.usage)
            }
            style.nag = nag
        }
        if let urgency = try read("urgency", "low, normal, critical or default", Urgency.init(rawValue:)) { style.urgency = urgency }
        if let sound = try read("sound", "a sound name such as bell (letters, digits, - _ .), none or default", ReminderStyle.sound) { style.sound = sound }
        return style.isEmpty ? nil : style
    }

    func optionalTime(_ name: String) throws(CLIError) -> WallTime? {
        guard let text = arguments.value(name) else { return nil }
        guard let time = DateWords.time(text) else {
            throw .usage("--\(name) \"\(text)\" is not a time: \(DateWords.timeForms)", globals.usage)
        }
        return time
    }

    /// `--every SCHEDULE`, ended by `--until DATE` when that is given too.
    func schedule(_ name: String) throws(CLIError) -> Schedule? {
        guard let text = arguments.value(name) else { return nil }
        var schedule: Schedule
        do {
            schedule = try Schedule(parsing: text)
        } catch {
            throw .usage(error.description, globals.usage)
        }
        try ending(&schedule)
        return schedule
    }

    /// Sets `--until DATE` (as people type it) as the schedule's last day: not before its first.
    func ending(_ schedule: inout Schedule) throws(CLIError) {
        guard let until = try optionalDate("until") else { return }
        let today = try today()
        let first = schedule.anchor ?? today
        guard until >= first else {
            throw .usage("--until \(until) is before the schedule's first day \(first): nothing would be left", globals.usage)
        }
        schedule.until = until
    }

    func amount(_ name: String) throws(CLIError) -> Amount {
        let text = try required(name)
        guard let amount = Amount(text) else {
            throw .usage("--\(name) \"\(text)\" is not an amount (a decimal like -12.50)", globals.usage)
        }
        return amount
    }

    /// Which way a money option goes, by the one sign convention (`moneyAmount`).
    enum MoneyWay { case paid, received, either, size }

    /// A money option by the one sign convention every view shows: what you pay is negative, what
    /// you receive positive, a balance or a target a size above zero. Where the kind says which
    /// way (a subscription is paid, income received) the sign may be left off; the other sign,
    /// and zero, are refused. Returns it signed that way (a size positive).
    func moneyAmount(_ name: String, _ way: MoneyWay, _ what: String) throws(CLIError) -> Amount {
        let text = try required(name)
        let amount = try amount(name)
        let size = amount.magnitude
        switch way {
        case .paid:
            guard size > .zero, !text.hasPrefix("+") else {
                throw .usage(
                    "--\(name) \(text): \(what) is money you pay: write \(size == .zero ? "an amount above zero, such as -12.50" : "-\(size) (or \(size) without a sign)")",
                    globals.usage)
            }
            return amount.paidOut
        case .received:
            guard amount > .zero else {
                throw .usage("--\(name) \(text): \(what) is money you receive, written \(size) (above zero)", globals.usage)
            }
            return amount
        case .either:
            guard amount != .zero else { throw .usage("--\(name) \(text): \(what) is not zero: -950 goes out, 3200 comes in", globals.usage) }
            return amount
        case .size:
            guard amount > .zero else {
                throw .usage("--\(name) \(text): \(what) is an amount above zero, such as \(size == .zero ? "100.00" : size.description)", globals.usage)
            }
            return amount
        }
    }

    func reminders() throws(CLIError) -> [ReminderOffset] {
        try arguments.all("remind").map { (text) throws(CLIError) in
            guard let offset = ReminderOffset(text) else {
                throw .usage("--remind \"\(text)\" is not an offset (e.g. 0m, 10m, 2h, 1d, 1w)", globals.usage)
            }
            return offset
        }
    }

    /// `add NAME --amount AMOUNT --every SCHEDULE`, shared by money, subscriptions and income:
    /// checks the arguments, adds through `add`, prints the new id.
    mutating func addScheduledAmount(_ way: MoneyWay, _ what: String, _ add: (Store, String, Amount, Schedule, CivilDate) throws -> Int64) throws {
        let name = try text(arguments.positionals[0], "name")
        let amount = try moneyAmount("amount", way, what)
        guard let schedule = try schedule("every") else { throw CLIError.usage("--every is required", globals.usage) }
        let id = try add(try openStore(), name, amount, schedule, try today())
        output.line(String(id))
    }

    /// The optional `YYYY-MM` argument of `money month` and `calendar`; the current month without it.
    func monthArgument() throws(CLIError) -> YearMonth {
        guard let text = arguments.positionals.first else { return YearMonth(containing: try today()) }
        guard let month = YearMonth(text) else { throw .usage("\"\(text)\" is not a month as YYYY-MM", globals.usage) }
        return month
    }

    /// A title or name a person typed: not empty, not huge, no control characters and no bidi
    /// override (text shown in another order than it is stored).
    func text(_ value: String, _ what: String) throws(CLIError) -> String {
        let trimmed = String(value.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        guard !trimmed.isEmpty else { throw .usage("the \(what) is empty", globals.usage) }
        guard trimmed.count <= 500 else { throw .usage("the \(what) is longer than 500 characters", globals.usage) }
        if let bad = trimmed.unicodeScalars.first(where: { !DisplayText.isTypable($0) }) {
            let which =
                bad.properties.generalCategory == .control
                ? "a control character (such as a line break)" : "U+\(String(bad.value, radix: 16, uppercase: true)), a bidi override or line separator"
            throw .usage("the \(what) contains \(which)", globals.usage)
        }
        return trimmed
    }
}

extension CLIError {
    /// How each database failure reaches the person: a bad file or a reference to nothing is bad
    /// input data (65); a lock or an unwritable folder is a runtime failure (1).
    init(_ error: StoreError) {
        switch error.code {
        case .notADatabase, .newerSchema, .corrupt, .notFound, .conflict:
            self.init(code: .dataError, message: error.message)
        case .busy, .cannotOpen, .sqlite:
            self.init(code: .failure, message: error.message)
        case .missing:
            self.init(code: .noInput, message: error.message)
        }
    }
}
