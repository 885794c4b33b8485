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
}
