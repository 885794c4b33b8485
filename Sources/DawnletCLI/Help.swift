import FoundationEssentials

/// Help from the command table (`Command.all`): `help [COMMAND…]`, `--help` and `-h` on every noun
/// and verb, the topics (`help schedules`, `dates`, `offsets`, `config`), and the nearest valid
/// word for a mistyped one. Completions and the man page read the same table.
enum Help {
    /// The nouns in table order: a noun is the first word of a command.
    static var nouns: [String] {
        var seen: Set<String> = []
        return Command.all.compactMap { seen.insert($0.path[0]).inserted ? $0.path[0] : nil }
    }

    /// The commands a noun leads, in table order.
    static func verbs(of noun: String) -> [Command] { Command.all.filter { $0.path[0] == noun } }

    // MARK: Text

    static func overview() -> String {
        var text = "\(CommandLineTool.name): reminders for todos, events, habits and money, fired exactly on time.\n\n"
        text += "usage: \(CommandLineTool.name) [--config PATH] [--db PATH] [--tz ZONE] [--now ISO] [--color WHEN] COMMAND [OPTIONS]\n\ncommands:\n"
        for noun in nouns {
            let commands = verbs(of: noun)
            let words =
                commands.count == 1 && commands[0].path.count == 1
                ? commands[0].summary
                : commands.compactMap { $0.path.dropFirst().first }.joined(separator: ", ")
            text += pad("  \(noun)", 16) + words + "\n"
        }
        text += "\nglobal options (before or after the command):\n"
        for (option, meaning) in globalOptions { text += pad("  \(option)", 18) + meaning + "\n" }
        text += "\ntopics:\n"
        for topic in topics { text += pad("  \(topic.name)", 16) + topic.summary + "\n" }
        text += """

            `\(CommandLineTool.name) help COMMAND` (or COMMAND --help) says what a command does, its options
            and examples; `help TOPIC` explains a syntax. Exit codes: 0 success, 1 failure, 2 usage,
            65 bad data, 66 no database, 78 bad config. See dawnlet-remind(1).
            """
        return text
    }

    static let globalOptions: [(String, String)] = [
        ("--config PATH", "the config file (default: $XDG_CONFIG_HOME/dawnlet/config.json5)"),
        ("--db PATH", "the database (default: $XDG_DATA_HOME/dawnlet/dawnlet.sqlite)"),
        ("--tz ZONE", "read and show wall times in this IANA zone instead of the config's"),
        ("--now ISO", "the instant \"today\" and `preview` count from (default: the clock)"),
        ("--color WHEN", "colour on a terminal: auto (unless NO_COLOR is set), always or never"),
        ("-h, --help", "print help"),
        ("--version", "print the version"),
    ]

    /// One command, whole: usage, what it does, each option and its meaning, examples.
    static func text(of command: Command) -> String {
        let key = command.path.joined(separator: " ")
        var text = "usage: \(CommandLineTool.name) \(command.usage)\n\n\(command.summary)\n"
        let rows =
            command.options.map { option in
                ("--\(option.name)" + (placeholder(of: option, in: command).map { " \($0)" } ?? ""), meaning(of: option.name, in: command))
            } + [("-h, --help", "print this help")]
        let width = min(28, (rows.map(\.0.count).max() ?? 0) + 4)
        text += "\noptions:\n"
        for (option, meaning) in rows { text += pad("  \(option)", width) + meaning + "\n" }
        if let examples = examples[key], !examples.isEmpty {
            text += "\nexamples:\n" + examples.map { "  \($0)\n" }.joined()
        }
        let related = topics.filter { topic in command.options.contains { topic.options.contains($0.name) } }.map { "help \($0.name)" }
        if !related.isEmpty { text += "\nsee also: \(related.joined(separator: ", "))\n" }
        return String(text.dropLast())
    }

    /// A noun: each of its commands, a line of usage and one of summary.
    static func text(ofNoun noun: String) -> String {
        var text = "\(noun) commands:\n"
        for command in verbs(of: noun) { text += "  \(CommandLineTool.name) \(command.usage)\n      \(command.summary)\n" }
        text += "\n`\(CommandLineTool.name) \(noun) VERB --help` for a command's options and examples."
        return text
    }

    /// The value an option takes as its usage line writes it (`--due DATE[THH:MM]` → DATE[THH:MM]).
    static func placeholder(of option: OptionSpec, in command: Command) -> String? {
        guard option.kind != .flag else { return nil }
        let words = command.usage.split(separator: " ")
        // The option may open an optional part or a choice (`[--on DATE]`, `(--every SCHEDULE | …`),
        // and its value close one (`DATE)`, `DATE]...`): the brackets are the usage line's, not the value's.
        guard let at = words.firstIndex(where: { $0.drop { $0 == "[" || $0 == "(" } == "--\(option.name)" }), at + 1 < words.count else {
            return "VALUE"
        }
        var word = String(words[at + 1])
        if word.hasSuffix("...") { word.removeLast(3) }
        let opening: [Character: Character] = ["]": "[", ")": "("]
        while let close = word.last, let open = opening[close], word.filter({ $0 == close }).count > word.filter({ $0 == open }).count {
            word.removeLast()
        }
        return word.isEmpty ? "VALUE" : word
    }

    static func meaning(of option: String, in command: Command) -> String {
        meanings["\(command.path.joined(separator: " ")) --\(option)"] ?? meanings["--\(option)"] ?? ""
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + "  " : text + String(repeating: " ", count: width - text.count)
    }

    // MARK: Nearest word

    /// The candidate nearest `word` by edit distance (at most a third of its length, at least 1
    /// off), or one it begins; nil when none is near.
    static func nearest(_ word: String, among candidates: [String]) -> String? {
        let word = word.lowercased()
        let scored = candidates.map { ($0, distance(word, $0)) }
        if let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(1, word.count / 3) { return best.0 }
        return word.count >= 2 ? candidates.first { $0.hasPrefix(word) } : nil
    }

    /// Edit distance with transpositions (optimal string alignment).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1) }
            }
        }
        return rows[a.count][b.count]
    }

    /// " (did you mean \"x\"?)", or nothing; `writtenWith` goes before the word (`--`).
    static func suggestion(_ word: String, among candidates: [String], writtenWith prefix: String = "") -> String {
        nearest(word, among: candidates).map { " (did you mean \"\(prefix)\($0)\"?)" } ?? ""
    }

    // MARK: Options

    /// What each option means: by `--name`, or for one command by "noun verb --name".
    static let meanings: [String: String] = [
        "--json": "print JSON instead of text",
        "--on": "the occurrence's date (default: today's); see `help dates`",
        "--every": "the schedule it repeats on, like \"weekly on mon at 09:00\"; see `help schedules`",
        "--remind": "when a reminder fires before it, like 10m, 2h or 1d (repeat for several); see `help offsets`",
        "--no-remind": "no reminders of its own: the config's defaults for its kind apply",
        "--due": "the day it is due, optionally with a time: 2026-12-24, fri, tomorrow 09:00",
        "--start": "when it starts: a date (all day) or a date and time, like 2026-12-24T18:00",
        "--duration": "how long it lasts, like 45m, 2h or 1h30m",
        "--at": "the wall-clock time, HH:MM",
        "--no-time": "no time of day: it belongs to the day and goes in the morning digest",
        "--all-day": "an all-day event, no time of day",
        "--once": "a one-off on its next open occurrence instead of repeating",
        "--title": "the new title",
        "--name": "the new name",
        "--days": "the weekdays it is kept on, like mon,wed,fri; or daily, weekdays",
        "--from": "the first day (default: today)",
        "--amount":
            "the amount, a decimal like -12.50: what you pay is negative, what you receive positive (a subscription's or a payment's sign may be left off)",
        "--balance": "what is owed, a decimal above zero",
        "--minimum": "the least paid each month, -180 or 180 (paid: shown negative), at most the balance",
        "--day": "the day of the month it is paid (29-31: the month's last day when shorter)",
        "--target": "the amount to save, a decimal above zero",
        "--by": "the date the goal is due: today or later",
        "--date": "the day to show (default: today); see `help dates`",
        "--open": "only todos still open",
        "--done": "only todos done",
        "--overdue": "only one-off todos past their date and not done",
        "--to": "the last day",
        "--all": "also what will not fire (skipped, done, logged), with why",
        "--clear": "acknowledge missed reminders: all of them, or the KEYs given",
        "--channel": "the channel to try: desktop, command or email",
        "--schedule": "the schedule text; see `help schedules`",
        "--todos": "only todos",
        "--events": "only events",
        "todo edit --on": "change only the occurrence of this date (its title and time)",
        "event edit --on": "change only the occurrence of this date (its title and time)",
        "todo edit --due": "the new date, optionally with a time",
        "event edit --start": "the new start: a date, or a date and time",
        "habit edit --days": "the new weekdays, like mon,wed,fri",
        "goal log --amount": "what you put towards it, -150 or 150 (shown, as every payment, negative)",
        "goal log --on": "the day you put it aside (default: today; not a day ahead, nor before the goal was added)",
        "money add --on": "a one-off transaction's date (instead of --every); see `help dates`",
        "money edit --on": "the date of a one-off (a recurring one becomes a one-off on it)",
        "money skip --on": "the occurrence's date",
        "money unskip --on": "the occurrence's date",
        "subscription log --on": "a date in the billing period paid (default: today)",
        "subscription log --amount": "what was paid (default: the subscription's amount)",
        "debt log --on": "the payment's date (default: today; not a day ahead, nor before the debt was added)",
        "debt log --amount": "what was paid (default: the minimum); a second payment in a month is an extra one, given with --amount",
        "debt edit --balance": "the new balance",
        "agenda --from": "the first day shown (default: today); see `help dates`",
        "agenda --days": "how many days (default 7, at most 366)",
        "preview --from": "the window's start: a date (today, fri, 2026-12-01), a date and time, or an ISO 8601 time (with --to); see `help dates`",
        "preview --to": "the window's end, as --from; a date alone includes that day (with --from)",
        "preview --days": "the window: this many days from now (default 7, at most 366)",
        "occurrences --from": "the first date of the range",
        "occurrences --to": "the last date of the range (at most 100 years after --from)",
        "--format": "waybar: one line of JSON for waybar's custom module ({\"text\",\"tooltip\",\"class\"})",
        "export --to": "the folder (a vdir) the .ics files are written to",
        "todo add --channel": "the channels its reminders go to, over the route: desktop, command, email, comma-separated",
        "event add --channel": "the channels its reminders go to, over the route: desktop, command, email, comma-separated",
        "habit add --channel": "the channels its reminders go to, over the route: desktop, command, email, comma-separated",
        "todo edit --channel": "the channels its reminders go to, over the route, comma-separated",
        "event edit --channel": "the channels its reminders go to, over the route, comma-separated",
        "habit edit --channel": "the channels its reminders go to, over the route, comma-separated",
        "--no-channel": "its reminders go by its kind's route again",
        "--nag": "come back every EVERY (like 5m) until answered, at most nagFor (1h); off: never; default: as its kind (the config's nag)",
        "--urgency": "how its notifications ask for attention: low, normal or critical (kept on screen); default: as its kind",
        "--sound": "a freedesktop sound name (like bell) played where the server plays sounds; none, or default: as its kind",
        "reminder snooze --for": "how long until it comes back, like 10m, 1h or 1h30m",
        "reminder snooze --until": "when it comes back: a date and time, like \"tomorrow 09:00\" or 2026-12-04T09:30",
        "reminder list --waiting": "only the reminders waiting for an answer",
        "reminder list --snoozed": "only the reminders snoozed, and when each comes back",
    ]

    // MARK: Examples

    /// Two or three command lines per command, each one the command accepts (a test runs the
    /// parser on every one).
    static let examples: [String: [String]] = {
        let name = CommandLineTool.name
        var table: [String: [String]] = [
            "todo add": [
                "\"Renew passport\" --due 2027-03-01", "\"Call mum\" --due \"fri 18:30\" --remind 0m --remind 1h",
                "\"Water plants\" --every \"weekly on mon,thu at 08:00\"", "\"Take the pills\" --due \"today 09:00\" --nag 5m",
            ],
            "todo list": ["", "--overdue", "--json"],
            "todo done": ["4", "2 --on yesterday"],
            "todo reopen": ["4", "2 --on 2026-12-01"],
            "todo edit": [
                "4 --due \"next mon 10:00\"", "2 --every \"weekdays at 07:30\" --no-remind", "2 --on 2026-12-24 --title \"Water plants (short)\"",
                "4 --channel desktop,command", "4 --nag off --urgency critical",
            ],
            "event add": [
                "\"Dentist\" --start 2027-01-12T14:30 --duration 45m --remind 1d --remind 1h",
                "\"Team call\" --start 2026-12-07T10:00 --every \"weekly on mon\"", "\"Holiday\" --start 2026-12-24",
                "\"Talk\" --start \"fri 10:00\" --urgency critical --sound bell",
            ],
            "event edit": ["3 --start 2027-01-13T09:00", "3 --all-day", "5 --on 2026-12-14 --at 11:00"],
            "habit add": ["\"Meds\" --days mon,tue,wed,thu,fri,sat,sun --at 08:30", "\"Run\" --days mon,wed,fri --at 07:00 --from +1w"],
            "habit done": ["1", "1 --on yesterday"],
            "habit edit": ["1 --days tue,thu", "1 --at 19:00", "1 --no-time"],
            "money add": [
                "\"Rent\" --amount -950 --every \"monthly on day 1\"", "\"Salary\" --amount 3200 --every \"monthly on last fri\"",
                "\"New bike\" --amount -480 --on 2027-03-15",
            ],
            "money list": ["", "--json"],
            "money month": ["", "2027-01", "2027-01 --json"],
            "money skip": ["2 --on 2027-01-01", "2 --on 2027-02-01"],
            "money unskip": ["2 --on 2027-01-01", "--db ~/household.sqlite 1 --on 2027-03-01"],
            "money edit": ["2 --amount -980", "2 --every \"monthly on day 3\"", "3 --on 2027-03-20"],
            "subscription add": ["\"Music\" --amount -10.99 --every \"monthly on day 14\"", "\"Domain\" --amount -15 --every \"yearly from 2027-03-02\""],
            "subscription pause": ["1", "--db ~/household.sqlite 2"],
            "subscription resume": ["1", "--db ~/household.sqlite 2"],
            "subscription log": ["1", "1 --on 2026-11-14 --amount 9.99"],
            "subscription edit": ["1 --amount -11.99", "1 --name \"Music (family)\""],
            "debt add": ["\"Car loan\" --balance 4200 --minimum 180 --day 15", "\"Card\" --balance 900 --minimum 25 --day 31"],
            "debt log": ["1", "1 --amount 250 --on yesterday"],
            "goal log": ["1 --amount 150", "1 --amount 50 --on yesterday"],
            "debt pay-off": ["1", "--db ~/household.sqlite 2"],
            "debt edit": ["1 --minimum 200", "1 --day 20"],
            "goal add": ["\"Bike\" --target 1200 --by 2027-06-01", "\"Rainy day\" --target 5000"],
            "goal edit": ["1 --target 1500", "1 --by 2027-09-01"],
            "income add": ["\"Salary\" --amount 3200 --every \"monthly on day 25\"", "\"Tutoring\" --amount 60 --every \"weekly on thu\""],
            "income edit": ["1 --amount 3350", "1 --every \"monthly on last fri\""],
            "payment list": ["", "--json"],
            "payment delete": ["7", "--db ~/household.sqlite 3"],
            "calendar": ["", "2027-02", "--json"],
            "today": ["", "--date tomorrow", "--json"],
            "agenda": ["", "--days 14", "--from mon --days 5 --json"],
            "dashboard": ["", "--json"],
            "find": ["passport", "\"dentist\" --json"],
            "preview": ["", "--days 1 --all", "--from 2027-01-01 --to 2027-02-01 --json"],
            "next": ["", "--json", "--format waybar"],
            "occurrences": [
                "--schedule \"monthly on 5th fri\" --from 2026-01-01 --to 2026-12-31",
                "--schedule \"daily at 02:30\" --from 2026-03-28 --to 2026-03-30 --tz Europe/Berlin --json",
            ],
            "export": ["--to ~/.local/share/vdirsyncer/dawnlet", "--to /tmp/todos --todos"],
            "serve": ["", "--db ~/other.sqlite"],
            "missed": ["", "--json", "--clear"],
            "reminder list": ["", "--waiting", "--snoozed --json"],
            "reminder done": ["", "todo:3:2026-12-04:0m"],
            "reminder skip": ["", "habit:1:2026-12-04:0m"],
            "reminder dismiss": ["", "event:2:2026-12-04:15m"],
            "reminder paid": ["", "bill:1:2026-12-01:0m"],
            "reminder log": ["", "subscription:2:2026-12-14:1d"],
            "reminder snooze": ["", "--for 1h", "todo:3:2026-12-04:0m --until \"tomorrow 09:00\""],
            "reminder unsnooze": ["", "todo:3:2026-12-04:0m"],
            "notify-test": ["", "--channel email"],
            "completions": ["bash", "fish", "ids todo"],
            "man-page": ["", "5"],
            "doctor": ["", "--config ~/.config/dawnlet/work.json5"],
            "mail-send": ["< message.eml", "--config ~/.config/dawnlet/work.json5 < message.eml"],
        ]
        for kind in ["todo", "event", "habit"] {
            if table["\(kind) list"] == nil { table["\(kind) list"] = ["", "--json"] }
            table["\(kind) skip"] = ["3", "3 --on tomorrow"]
            table["\(kind) unskip"] = ["3", "3 --on tomorrow"]
            table["\(kind) delete"] = ["3", "--db ~/work.sqlite 3"]
        }
        for noun in ["subscription", "debt", "goal", "income"] {
            if table["\(noun) list"] == nil { table["\(noun) list"] = ["", "--json"] }
            table["\(noun) delete"] = ["2", "--db ~/household.sqlite 1"]
        }
        table["money delete"] = ["2", "--db ~/household.sqlite 1"]
        return table.reduce(into: [:]) { result, entry in
            result[entry.key] = entry.value.map { $0.isEmpty ? "\(name) \(entry.key)" : "\(name) \(entry.key) \($0)" }
        }
    }()

    // MARK: Topics

    struct Topic {
        let name: String
        let summary: String
        /// The options whose value it explains: a command with one names the topic under "see also".
        let options: Set<String>
        let text: String
    }

    static func topic(_ name: String) -> Topic? { topics.first { $0.name == name } }

    static let topics: [Topic] = [
        Topic(
            name: "schedules", summary: "how repeating things are written (--every, --schedule)", options: ["every", "schedule"],
            text: """
                Every repeating thing (todos, events, bills, subscriptions, income) uses one schedule text,
                case-insensitive, with full or short weekday names:

                  daily                      weekdays
                  weekly on tue,thu          every 2 weeks on mon       every other week on fri
                  monthly on day 31          every 3 months on day 15   yearly
                  monthly on 2nd tue         monthly on last fri        every 2 months on 1st mon

                then optionally `from YYYY-MM-DD` (the anchor) and `at HH:MM` (a wall-clock time):

                  weekly on mon,thu from 2027-01-04 at 07:30

                - The anchor is the first day the schedule may produce; intervals count from it: weeks from
                  the Monday-started week that holds it, months from its month. Without one, a new item
                  anchors at today (`occurrences` at --from).
                - Day 29-31 falls on the month's last day when the month is shorter: `monthly on day 31`
                  gives Jan 31, Feb 28 (29 in leap years), Mar 31, Apr 30.
                - A 5th weekday a month does not have gives nothing that month.
                - `yearly`, `monthly` and `every N months` without a day take the anchor's day (and, for
                  yearly, month); `weekly` without `on` takes the anchor's weekday.
                - Times are wall-clock times in your zone. A time a spring-forward gap skips fires as far
                  after the gap as it was into it (02:30 -> 03:30); a time that happens twice on a
                  fall-back day fires the first time.

                Try one: dawnlet-remind occurrences --schedule "monthly on last fri" --from 2027-01-01 --to 2027-06-30
                """),
        Topic(
            name: "dates", summary: "how dates and times are written (--due, --on, --from, --date)", options: ["due", "on", "date", "start", "by"],
            text: """
                DATE is YYYY-MM-DD or as people say it, read in the configured zone at --now (default: the
                clock):

                  today  tomorrow  yesterday
                  fri              the next Friday, never today (`next fri` says the same)
                  +3d  -1w         days or weeks from today
                  +2m  +1y         months or years from today (a month's day clamped to its length)

                DATE[THH:MM] adds a wall-clock time: 2026-12-24T18:00, `tomorrow 09:00`, `fri 18:30`.
                TIME is HH:MM, 24-hour. `preview --from/--to` and `--now` also take an ISO 8601 instant:
                2026-12-01T09:00 (in your zone) or 2026-12-01T09:00:00+01:00.

                A command that read a word says on stderr what it made of it (`todo 4: due Fri 2026-12-04`);
                stdout keeps just the answer.
                """),
        Topic(
            name: "offsets", summary: "how long before an item its reminders fire (--remind, reminders)", options: ["remind"],
            text: """
                An OFFSET is how long before an item a reminder fires: 0m (at its time), 10m, 2h, 1d, 1w,
                or combined like 1h30m. Give --remind several times for several reminders.

                - Minutes and hours are exact durations before the item's time.
                - Days and weeks are calendar days: 1d before a 09:00 event is 09:00 the day before, across
                  a DST change.
                - Date-only items (todos due on a day, all-day events, bills, subscriptions, debts, goals)
                  have no time: 0m and whole days put them in the morning digest (default 08:00) of that
                  day or of N days before.
                - Items without --remind get the config's defaults for their kind (`help config`:
                  reminders); an empty list there turns a kind's reminders off.
                """),
        Topic(
            name: "config", summary: "the settings file and every key in it", options: [],
            text: """
                ~/.config/dawnlet/config.json5 ($XDG_CONFIG_HOME/dawnlet/config.json5, or --config PATH) is
                JSON5: comments, unquoted keys and trailing commas are allowed. Every key is optional; a
                missing file means the defaults. An unknown key, a key given twice, a wrong type or a value
                out of range is exit 78 with the file, the line and column, the key path and the problem.

                  timeZone        the IANA zone wall times are read in (default: the system's)
                  morningDigest   when the digest of date-only items goes out, HH:MM (08:00)
                  horizon         how far ahead the runner plans, 1h to 366d (14d)
                  graceWindow     how late a missed reminder may still go out, at most 7d (12h)
                  late            per kind and default: send (the default), summary or drop a late reminder
                  nag             how often an unanswered reminder comes back, per kind ("off"; "5m")
                  nagFor          for how long at most after it first went out (1h)
                  quietHours      { from: "22:00", to: "07:00", days, kinds, critical }: what falls due
                                  inside goes out when they end (default: none)
                  reminders       default offsets per kind: event, todo, habit, bill, subscription,
                                  debt, goal, income, calendar (lists like ["10m"]; [] is off)
                  route           channels per kind, and default: desktop, command, email
                  channels.desktop  expire, snooze (presets: "10m", "tomorrow 09:00", "15m before start"),
                                    fallback (command, email or null), urgency, sound, persistence,
                                    whilePaused (hold or fallback, while the server is paused)
                  channels.command  argv (run without a shell; {title} {body} {kind} {key} {when}
                                    {due} {offset} {late} {repeat} {urgency} in its words), timeout (1s to 1h)
                  channels.email    url (smtp:// with STARTTLS, or smtps://), tls, from, to, user,
                                    passwordFile (0600), sendmail (instead of url), timeout, caFile
                  calendars       a list of { name, path (an .ics file or a vdir), readOnly, channels }
                  export          { to: a folder }: serve keeps your todos' and events' files there, and
                                  reads back what other devices write into them

                The commented example is config/config.example.json5; every key is in
                dawnlet-remind.json5(5). `dawnlet-remind doctor` checks the file.
                """),
    ]
}
