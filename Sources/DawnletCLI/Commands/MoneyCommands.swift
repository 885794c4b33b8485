import DawnletApp
import DawnletCore
import DawnletStore

/// `money`: recurring transactions (the definitions) and the month of real rows they materialise.
enum MoneyCommands {
    static let commands: [Command] = [
        Command(
            path: ["money", "add"], usage: "money add NAME --amount AMOUNT (--every SCHEDULE | --on DATE)",
            summary: "Add a recurring transaction, or with --on a one-off one (negative amounts go out); prints its id.",
            options: [.value("amount"), .value("every"), .value("on")], positionals: 1...1, run: add),
        Command(
            path: ["money", "list"], usage: "money list [--json]", summary: "List recurring transactions.",
            options: [.flag("json")], run: list),
        Command(
            path: ["money", "month"], usage: "money month [YYYY-MM] [--json]",
            summary: "Show a month's whole cashflow: bills, one-offs, renewals, debt payments and income, with totals in, out and net.",
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
            path: ["money", "paid"], usage: "money paid ID [--on DATE]",
            summary: "Mark a bill paid: its occurrence on DATE (default: the latest reminded by today), as Paid on its reminder does.",
            options: [.value("on")], positionals: 1...1, run: paid),
        Command(
            path: ["money", "unpaid"], usage: "money unpaid ID [--on DATE]",
            summary: "Undo money paid: that occurrence (default: the latest paid) counts as not paid again.",
            options: [.value("on")], positionals: 1...1, run: unpaid),
        Command(
            path: ["money", "delete"], usage: "money delete ID",
            summary: "Delete a recurring transaction; past rows stay as history.",
            options: [], positionals: 1...1, run: delete),
    ]

    static func add(_ invocation: inout Invocation) throws {
        let usage = invocation.globals.usage
        switch (invocation.arguments.value("every"), invocation.arguments.value("on")) {
        case (nil, nil): throw CLIError.usage("give --every SCHEDULE for a recurring transaction, or --on DATE for a one-off", usage)
        case (_?, _?): throw CLIError.usage("give --every or --on, not both", usage)
        case (_?, nil):
            try invocation.addScheduledAmount(.either, "a recurring transaction") {
                try $0.money.addRecurringTransaction(name: $1, amount: $2, schedule: $3, today: $4)
            }
        case (nil, _?):
            let name = try invocation.text(invocation.arguments.positionals[0], "name")
            let amount = try invocation.moneyAmount("amount", .either, "a transaction")
            let date = try invocation.date("on", invocation.required("on"))
            let id = try invocation.openStore().money.addOneOff(name: name, amount: amount, on: date, today: try invocation.today())
            invocation.output.line(String(id))
            invocation.echoResolved("on", as: "money \(id): once on", (date, nil))
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
                                    ("schedule", $0.once == nil ? .string($0.schedule.description) : .null),
                                    ("once", $0.once.map { .string($0.description) } ?? .null),
                                ])
                            })
                    )
                ]))
            return
        }
        if definitions.isEmpty { invocation.output.line("no recurring transactions") }
        for d in definitions { invocation.output.line("#\(d.id)  \(DisplayText.shown(d.name))  \(d.amount)  (\(d.when))") }
    }

    static func month(_ invocation: inout Invocation) throws {
        let month = try invocation.monthArgument()
        let cashflow = try MonthClose.cashflow(of: month, store: try invocation.readStore())
        if invocation.json {
            invocation.output.line(
                JSON.object([
                    ("month", .string(month.description)),
                    (
                        "lines",
                        .array(
                            cashflow.lines.map { line in
                                // Ids named as they are: `definition_id` what the kind's commands
                                // take (`money paid ID`, `subscription log ID`), as in `today`;
                                // a bill's row is its `occurrence_id`, a logged payment's what
                                // `payment delete` takes.
                                var members: [(String, JSON)] = [
                                    ("date", .string(line.date.description)), ("kind", .string(line.kind)),
                                    ("definition_id", line.sourceID.map { .int(Int($0)) } ?? .null),
                                ]
                                if let id = line.id { members.append((line.kind == "bill" ? "occurrence_id" : "payment_id", .int(Int(id)))) }
                                members += [("name", .string(line.name)), ("amount", .string(line.amount.description)), ("status", .string(line.status))]
                                return .object(members)
                            })
                    ),
                    ("in", .string(cashflow.incoming.description)), ("out", .string(cashflow.outgoing.description)),
                    ("net", .string(cashflow.net.description)),
                ]))
            return
        }
        invocation.output.line("\(month)")
        for line in cashflow.lines {
            // A bill says only what is not plain (skipped, paid); the calendar's kinds say what they are.
            let mark =
                line.kind == "bill"
                ? (line.status == "posted" ? "" : "  (\(line.status))") : "  (\(line.kind) #\(line.sourceID ?? 0), \(line.status))"
            invocation.output.line("  \(line.date)  \(line.amount.description.leftPadded(12))  \(DisplayText.shown(line.name))\(mark)")
        }
        for (label, total) in [("in", cashflow.incoming), ("out", cashflow.outgoing), ("net", cashflow.net)] {
            invocation.output.line("  \(label.rightPadded(10))  \(total.description.leftPadded(12))")
        }
    }

    static func skip(_ invocation: inout Invocation) throws {
        let id = try invocation.id()
        guard let date = try invocation.optionalDate("on") else { throw CLIError.usage("--on is required", invocation.globals.usage) }
        let store = try invocation.openStore()
        let definition = try store.money.recurringTransaction(id: id)
        guard definition.falls(on: date) else {
            throw CLIError.data("\(date) is not an occurrence of recurring transaction \(id) (\(definition.when))")
        }
        let before = try status(of: id, on: date, store)
        try store.money.skipTransaction(definitionID: id, date: date)
        invocation.output.line("recurring transaction \(id) on \(date): skipped")
        try invocation.answerReminders(store, after: "recurring transaction \(id) on \(date) skipped") { answers, now throws(StoreError) in
            try answers.answer(.init(.bill, id: id, date: date), .skipped, digests: before != .skipped, now: now)
        }
    }

    static func unskip(_ invocation: inout Invocation) throws {
        let id = try invocation.id()
        guard let date = try invocation.optionalDate("on") else { throw CLIError.usage("--on is required", invocation.globals.usage) }
        let store = try invocation.openStore()
        let cleared = try store.money.unskipTransaction(definitionID: id, date: date)
        invocation.output.line("recurring transaction \(id) on \(date): \(cleared ? "no longer skipped" : "was not skipped; nothing changed")")
        guard cleared else { return }
        try invocation.answerReminders(store, after: "recurring transaction \(id) on \(date) no longer skipped", takingBack: true) {
            answers, now throws(StoreError) in try answers.takeBack(.init(.bill, id: id, date: date), .skipped, now: now)
        }
    }

    /// The status of a bill's row on `date`; nil when its month was never laid out.
    static func status(of id: Int64, on date: CivilDate, _ store: Store) throws -> Transaction.Status? {
        try store.money.transactions(in: date...date).first { $0.definitionID == id }?.status
    }

    static func delete(_ invocation: inout Invocation) throws {
        let id = try invocation.id()
        let today = try invocation.today()
        let store = try invocation.openStore()
        try store.money.deleteRecurringTransaction(id: id, today: today)
        invocation.output.line("recurring transaction \(id) deleted")
        try invocation.answerReminders(store, after: "recurring transaction \(id) deleted") { answers, _ throws(StoreError) in
            try answers.answerDeleted(.bill, id: id)
        }
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
