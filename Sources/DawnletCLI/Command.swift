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

    static let all: [Command] =
        ItemCommands.commands + MoneyCommands.commands + MoneyCalendarCommands.commands + [
            TodayCommand.command,
            TodayCommand.agendaCommand,
            DashboardCommand.command,
            FindCommand.command,
            PreviewCommand.command,
            NextCommand.command,
            OccurrencesCommand.command,
            ExportCommand.command,
            ImportCommand.command,
        ] + DeletedCommands.commands + ReminderCommands.commands + ServeCommands.commands + DeliveryCommands.commands + [
            CompletionsCommand.command, ManPage.command,
        ]

    /// The command whose words start the argument list, the longest match first.
    static func find(_ arguments: [String]) -> Command? {
        all.filter { arguments.starts(with: $0.path) }.max { $0.path.count < $1.path.count }
    }
}
