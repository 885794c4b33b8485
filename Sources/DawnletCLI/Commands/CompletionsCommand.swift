import DawnletApp
import DawnletCore
import DawnletStore

/// `completions bash|zsh|fish`: a completion script generated from the command table — nouns,
/// verbs, each command's options (with their meanings, where the shell shows them), and for an
/// `ID` the ids and titles in the database, which the script asks for with `completions ids NOUN`
/// (passing on the `--db` and `--config` typed so far).
enum CompletionsCommand {
    static let command = Command(
        path: ["completions"], usage: "completions bash|zsh|fish | completions ids NOUN",
        summary: "Print the shell completion script for bash, zsh or fish (make install installs them); `ids NOUN` lists ids and titles for it.",
        options: [], positionals: 1...2, run: run)

    static let shells = ["bash", "zsh", "fish"]

    static func run(_ invocation: inout Invocation) throws {
        let words = invocation.arguments.positionals
        switch (words[0], words.count) {
        case ("bash", 1): invocation.output.line(bash())
        case ("zsh", 1): invocation.output.line(zsh())
        case ("fish", 1): invocation.output.line(fish())
        case ("ids", 2): try ids(words[1], &invocation)
        default:
            throw CLIError.usage(
                "\"\(words.joined(separator: " "))\" is not a shell: give bash, zsh or fish"
                    + Help.suggestion(words[0], among: shells + ["ids"]), invocation.globals.usage)
        }
    }

    // MARK: The table, as the scripts need it

    /// A command's words, its options (`--due`, …, with whether each takes a value) and the noun
    /// whose ids its `ID` takes.
    struct Entry {
        let command: Command
        /// The noun whose ids its `ID` takes, if it takes one.
        let ids: String?
        var path: [String] { command.path }
    }

    /// The nouns whose commands take an `ID` (a `KEY` for `reminder`) the database can list.
    static let idNouns: Set<String> = ["todo", "event", "habit", "money", "subscription", "debt", "goal", "income", "payment", "reminder"]

    static var entries: [Entry] {
        Command.all.map { command in
            let words = command.usage.split(separator: " ")
            let takesID = words.count > command.path.count && ["ID", "[KEY]"].contains(words[command.path.count])
            return Entry(command: command, ids: takesID && idNouns.contains(command.path[0]) ? command.path[0] : nil)
        }
    }

    static let globalValues = ["config", "db", "tz", "now", "color"]

    /// The global options, as a command line's first words take them.
    static let globalOptions = "--config --db --tz --now --color --help --version"

    /// Every option that takes a value, anywhere: its next word is not completed as a command.
    static var valueOptions: [String] {
        Array(Set(Command.all.flatMap { $0.options.filter { $0.kind != .flag }.map(\.name) } + globalValues)).sorted()
    }

    /// The values an option takes, where they are few.
    static let choices: [String: [String]] = ["channel": ["desktop", "command", "email"], "format": ["waybar"], "color": ["auto", "always", "never"]]

    /// The words a command's first argument is one of, with what each means.
    static let positionals: [String: [(String, String)]] = [
        "completions": [("bash", "the bash script"), ("zsh", "the zsh script"), ("fish", "the fish script"), ("ids", "ids and titles of a noun")],
        "man-page": [("1", "the commands"), ("5", "the config file")],
    ]

    static var topLevel: [String] { Help.nouns + ["help"] }

    /// The commands of one word (`today`) and the nouns of several (`todo`).
    static var singleWords: Set<String> { Set(Command.all.filter { $0.path.count == 1 }.map { $0.path[0] }) }

    /// The arms of `case $command in` that bash's and zsh's scripts share: each command's options,
    /// and the noun whose ids its `ID` takes.
    static var commandArms: String {
        entries.map { entry in
            let options = (entry.command.options.map { "--\($0.name)" } + ["--help"]).joined(separator: " ")
            return "        \"\(entry.path.joined(separator: " "))\") opts=\"\(options)\"" + (entry.ids.map { "; ids=\($0)" } ?? "") + " ;;\n"
        }.joined()
    }

    /// The options whose value the scripts step over when they count words (`--due fri`).
    static var skipped: String { valueOptions.filter { $0 != "config" && $0 != "db" }.map { "--\($0)" }.joined(separator: "|") }

    // MARK: ids

    /// `ID<TAB>title` per line, the title escaped and bounded so that a line stays a line.
    static func ids(_ noun: String, _ invocation: inout Invocation) throws {
        guard idNouns.contains(noun) else {
            throw CLIError.usage(
                "\"\(noun)\" has no ids: give one of \(idNouns.sorted().joined(separator: ", "))"
                    + Help.suggestion(noun, among: Array(idNouns)), invocation.globals.usage)
        }
        let store: Store
        // No database yet: nothing to offer, and nothing to print under a prompt.
        do { store = try invocation.readStore() } catch let error as StoreError where error.code == .missing { return }
        var rows: [(Int64, String)] = []
        switch noun {
        case "todo", "event", "habit":
            rows = try store.items.definitions([ItemKind(rawValue: noun)!]).map { ($0.id, $0.title) }
        case "money": rows = try store.money.recurringTransactions().map { ($0.id, $0.name) }
        case "subscription": rows = try store.sources.subscriptions().map { ($0.id, $0.name) }
        case "debt": rows = try store.sources.debts().map { ($0.id, $0.name) }
        case "goal": rows = try store.sources.goals().map { ($0.id, $0.name) }
        case "income": rows = try store.sources.incomeSources().map { ($0.id, $0.name) }
        case "reminder":
            // The keys of the reminders waiting for an answer, then of those snoozed, then the
            // writable calendars' items (answered in their files whether or not a reminder went out).
            let (now, zone) = (try invocation.now(), try invocation.timeZone())
            let answers = ReminderAnswers(store: store, config: invocation.config, zone: zone)
            var keys = (try answers.waiting(now: now) + answers.snoozed()).map { ($0.key.description, $0.title) }
            let writable = Set(invocation.config.calendars.filter { !$0.readOnly }.map(\.name))
            if !writable.isEmpty {
                let items = PlanReader(store: store, config: invocation.config, zone: zone).calendarItemsOnce(from: now.adding(seconds: -86_400), now: now)
                    .items
                keys += items.filter { writable.contains($0.calendar) }.map { ($0.key, $0.title) }
            }
            // Keys a shell takes as one word unquoted (bash's script joins those it breaks at : @ =).
            for (key, title) in keys where ShellWords.quoted(key) == key {
                invocation.output.line("\(key)\t\(DisplayText.bounded(DisplayText.escaped(title), to: 60).filter { $0 != "\t" })")
            }
            return
        default: rows = try store.sources.payments().map { ($0.id, "\($0.kind.rawValue) \($0.amount) on \($0.date)") }
        }
        for (id, title) in rows {
            invocation.output.line("\(id)\t\(DisplayText.bounded(DisplayText.escaped(title), to: 60).filter { $0 != "\t" })")
        }
    }
}
