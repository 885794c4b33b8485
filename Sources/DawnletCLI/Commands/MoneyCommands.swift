import DawnletCore
import DawnletStore

/// `money`: recurring transactions (the definitions) and the month of real rows they materialise.
enum MoneyCommands {
    static let commands: [Command] = [
        Command(
            path: ["money", "add"], usage: "money add NAME --amount AMOUNT --every SCHEDULE",
            summary: "Add a recurring transaction (negative amounts go out); prints its id.",
            options: [.value("amount"), .value("every")], positionals: 1...1, run: add),
        Command(
            path: ["money", "list"], usage: "money list [--json]", summary: "List recurring transactions.",
            options: [.flag("json")], run: list),
        Command(
            path: ["money", "month"], usage: "money month [YYYY-MM] [--json]",
            summary: "Show a month's transactions (creating those its recurring ones are due) and its total.",
            options: [.flag("json")], positionals: 0...1, run: month),
        Command(
            path: ["money", "skip"], usage: "money skip ID --on DATE",
            summary: "Skip one occurrence of a recurring transaction; it stays out of totals.",
            options: [.value("on")], positionals: 1...1, run: skip),
        Command(
            path: ["money", "unskip"], usage: "money unskip ID --on DATE",
            summary: "Undo a skip: that occurrence counts in totals again.",
            options: [.value("on")], positionals: 1...1, run: unskip),
        Command(
            path: ["money", "delete"], usage: "money delete ID",
            summary: "Delete a recurring transaction; past rows stay as history.",
            options: [], positionals: 1...1, run: delete),
    ]

    static func add(_ invocation: inout Invocation) throws {
        try invocation.addScheduledAmount(.either, "a recurring transaction") {
            try $0.money.addRecurringTransaction(name: $1, amount: $2, schedule: $3, today: $4)
        }
    }

    static func list(_ invocation: inout Invocation) throws {
        let definitions = try invocation.readStore().money.recurringTransactions()
        if invocation.json {
            invocation.output.line(
                JSON.object([
                    (
                        "recurring",
                        .array(
                            definitions.map {
                                .object([
                                    ("id", .int(Int($0.id))), ("name", .string($0.name)), ("amount", .string($0.amount.description)),
                                    ("schedule", .string($0.schedule.description)),
                                ])
                            })
                    )
                ]))
            return
        }
        if definitions.isEmpty { invocation.output.line("no recurring transactions") }
        for d in definitions { invocation.output.line("#\(d.id)  \(DisplayText.shown(d.name))  \(d.amount)  (\(d.schedule))") }
    }

    static func month(_ invocation: inout Invocation) throws {
        let month = try invocation.monthArgument()
        let rows = try invocation.readStore().money.loadMonth(month)
        let total = MoneyRules.total(rows)
        if invocation.json {
            invocation.output.line(
                JSON.object([
                    ("month", .string(month.description)),
                    (
                        "transactions",
                        .array(
                            rows.map {
                                .object([
                                    ("id", .int(Int($0.id))), ("definition_id", $0.definitionID.map { .int(Int($0)) } ?? .null),
                                    ("date", .string($0.date.description)), ("name", .string($0.name)),
                                    ("amount", .string($0.amount.description)), ("status", .string($0.status.rawValue)),
                                ])
                            })
                    ),
                    ("total", .string(total.description)),
                ]))
            return
        }
        invocation.output.line("\(month)")
        for row in rows {
            let mark = row.status == .skipped ? "  (skipped)" : row.status == .paid ? "  (paid)" : ""
            invocation.output.line("  \(row.date)  \(row.amount.description.leftPadded(12))  \(DisplayText.shown(row.name))\(mark)")
        }
        invocation.output.line("  total       \(total.description.leftPadded(12))")
    }

    static func skip(_ invocation: inout Invocation) throws {
        let id = try invocation.id()
        guard let date = try invocation.optionalDate("on") else { throw CLIError.usage("--on is required", invocation.globals.usage) }
        let store = try invocation.openStore()
        let definition = try store.money.recurringTransaction(id: id)
        guard definition.schedule.matches(date, defaultAnchor: definition.created) else {
            throw CLIError.data("\(date) is not an occurrence of recurring transaction \(id) (\(definition.schedule))")
        }
        try store.money.skipTransaction(definitionID: id, date: date)
        invocation.output.line("recurring transaction \(id) on \(date): skipped")
    }

    static func unskip(_ invocation: inout Invocation) throws {
        let id = try invocation.id()
        guard let date = try invocation.optionalDate("on") else { throw CLIError.usage("--on is required", invocation.globals.usage) }
        let cleared = try invocation.openStore().money.unskipTransaction(definitionID: id, date: date)
        invocation.output.line("recurring transaction \(id) on \(date): \(cleared ? "no longer skipped" : "was not skipped; nothing changed")")
    }

    static func delete(_ invocation: inout Invocation) throws {
        let id = try invocation.id()
        let today = try invocation.today()
        try invocation.openStore().money.deleteRecurringTransaction(id: id, today: today)
        invocation.output.line("recurring transaction \(id) deleted")
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }

    /// Spaces after, to `width` characters; cut to it when longer (as a column must be).
    func rightPadded(_ width: Int) -> String {
        count >= width ? String(prefix(width)) : self + String(repeating: " ", count: width - count)
    }
}
