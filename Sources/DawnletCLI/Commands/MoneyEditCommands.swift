import DawnletCore
import DawnletStore

/// `money edit`, `subscription edit`, `income edit`, `debt edit` and `goal edit`: one command per
/// kind, each with the options its rows have.
extension MoneyCalendarCommands {
    static func editCommand(_ kind: MoneyEditKind) -> Command {
        let options: [String]
        switch kind {
        case .money: options = ["name", "amount", "every", "on"]
        case .subscription, .income: options = ["name", "amount", "every"]
        case .debt: options = ["name", "minimum", "day", "balance"]
        case .goal: options = ["name", "target", "by"]
        }
        let placeholders = [
            "name": "N", "amount": "AMOUNT", "every": "SCHEDULE", "minimum": "AMOUNT", "day": "N", "balance": "AMOUNT",
            "target": "AMOUNT", "by": "DATE", "on": "DATE",
        ]
        let noun = kind == .money ? "recurring transaction" : kind == .income ? "income source" : kind.rawValue
        return Command(
            path: [kind.rawValue, "edit"],
            usage: "\(kind.rawValue) edit ID " + options.map { "[--\($0) \(placeholders[$0] ?? "X")]" }.joined(separator: " "),
            summary: "Change the \(noun)\(kind == .money ? " (months from today on follow)" : "").",
            options: options.map { .value($0) }, positionals: 1...1, run: { try edit(kind, &$0) })
    }

    static func edit(_ kind: MoneyEditKind, _ invocation: inout Invocation) throws {
        let id = try invocation.id()
        let usage = invocation.globals.usage
        var changes = MoneyChanges()
        if let name = invocation.arguments.value("name") { changes.name = try invocation.text(name, "name") }
        /// Each by the sign convention of its kind (`moneyAmount`).
        func amount(_ name: String, _ way: Invocation.MoneyWay, _ what: String) throws -> Amount? {
            invocation.arguments.value(name) == nil ? nil : try invocation.moneyAmount(name, way, what)
        }
        changes.amount =
            switch kind {
            case .subscription: try amount("amount", .paid, "a subscription's price")
            case .income: try amount("amount", .received, "income")
            default: try amount("amount", .either, "a recurring transaction")
            }
        changes.schedule = try invocation.schedule("every")
        changes.minimum = try amount("minimum", .paid, "a debt's minimum payment")?.magnitude
        changes.balance = try amount("balance", .size, "a debt's balance (what you owe)")
        changes.target = try amount("target", .size, "a goal's target")
        if let text = invocation.arguments.value("day") {
            guard let day = Int(text), (1...31).contains(day) else { throw CLIError.usage("--day \"\(text)\" is not a day of the month (1 to 31)", usage) }
            changes.day = day
        }
        changes.targetDate = try goalDate(invocation)
        if kind == .money {
            changes.once = try invocation.optionalDate("on")
            guard changes.once == nil || changes.schedule == nil else { throw CLIError.usage("give --every or --on, not both", usage) }
        }
        guard !changes.isEmpty else { throw CLIError.usage("nothing to change: give what to set (see --help)", usage) }
        try invocation.openStore().sources.editMoney(kind, id: id, changes, today: try invocation.today())
        invocation.output.line("\(kind == .money ? "recurring transaction" : kind.rawValue) \(id) changed")
    }
}
