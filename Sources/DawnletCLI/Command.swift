/// A command: its words, usage line, options, and what it does. Commands are values in one table,
/// so `--help`, dispatch and usage errors all read the same spec.
struct Command: Sendable {
    let path: [String]
    let usage: String
    let summary: String
    let options: [OptionSpec]
    var positionals: ClosedRange<Int> = 0...0
    /// A config file that cannot be read is handed to the command (`Invocation.configProblem`),
    /// which goes on with the defaults, instead of failing it: `doctor` reports it among its
    /// checks; `mail-send` needs none when `serve` gives it its settings.
    var runsDespiteConfigProblem = false
    let run: @Sendable (inout Invocation) throws -> Void

    /// Some of the table: the commands whose first word is one of `nouns`, made when asked for.
    struct Group: Sendable {
        let nouns: [String]
        let commands: @Sendable () -> [Command]
    }

    /// The table in its order (that of `--help`, completions and the man page), in groups: a
    /// command line makes only the groups its first word is in, instead of every command there is,
    /// which was a twentieth of a short command's time. A group's nouns are the first words of its
    /// commands: one left out would leave its commands unfound (`all` checks it).
    static let groups: [Group] = [
        Group(nouns: ["todo", "event", "habit"]) { ItemCommands.commands },
        Group(nouns: ["money"]) { MoneyCommands.commands },
        Group(nouns: ["subscription", "debt", "goal", "income", "payment", "calendar", "money"]) { MoneyCalendarCommands.commands },
        Group(nouns: ["today"]) { [TodayCommand.command] },
        Group(nouns: ["agenda"]) { [TodayCommand.agendaCommand] },
        Group(nouns: ["dashboard"]) { [DashboardCommand.command] },
        Group(nouns: ["find"]) { [FindCommand.command] },
        Group(nouns: ["preview"]) { [PreviewCommand.command] },
        Group(nouns: ["next"]) { [NextCommand.command] },
        Group(nouns: ["occurrences"]) { [OccurrencesCommand.command] },
        Group(nouns: ["export"]) { [ExportCommand.command] },
        Group(nouns: ["import"]) { [ImportCommand.command] },
        Group(nouns: ["deleted", "todo", "event"]) { DeletedCommands.commands },
        Group(nouns: ["reminder"]) { ReminderCommands.commands },
        Group(nouns: ["serve", "missed"]) { ServeCommands.commands },
        Group(nouns: ["notify-test", "doctor", "mail-send"]) { DeliveryCommands.commands },
        Group(nouns: ["completions"]) { [CompletionsCommand.command] },
        Group(nouns: ["man-page"]) { [ManPage.command] },
    ]

    /// Every command, for help, completions and the man page. A debug build (the tests') stops
    /// here on a command whose first word its group does not name.
    static let all: [Command] = groups.flatMap { group in
        let commands = group.commands()
        for command in commands { assert(group.nouns.contains(command.path[0]), "\(command.path[0]) is not among its group's nouns") }
        return commands
    }

    /// The command whose words start the argument list, the longest match first.
    static func find(_ arguments: [String]) -> Command? {
        guard let noun = arguments.first else { return nil }
        return groups.filter { $0.nouns.contains(noun) }.flatMap { $0.commands() }
            .filter { arguments.starts(with: $0.path) }.max { $0.path.count < $1.path.count }
    }
}
