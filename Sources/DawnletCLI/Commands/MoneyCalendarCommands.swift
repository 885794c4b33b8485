import DawnletApp
import DawnletCore
import DawnletStore

/// Subscriptions, debts, goals, income sources, and the forward-looking month that merges them.
enum MoneyCalendarCommands {
    static let commands: [Command] =
        [
            Command(
                path: ["subscription", "add"], usage: "subscription add NAME --amount AMOUNT --every SCHEDULE",
                summary: "Add a subscription renewing on a schedule; prints its id.",
                options: [.value("amount"), .value("every")], positionals: 1...1, run: addSubscription),
            Command(
                path: ["subscription", "list"], usage: "subscription list [--json]", summary: "List subscriptions.",
                options: [.flag("json")], run: listSubscriptions),
            Command(
                path: ["subscription", "pause"], usage: "subscription pause ID", summary: "Pause a subscription: off the calendar.",
                options: [], positionals: 1...1, run: { try setActive(false, &$0) }),
            Command(
                path: ["subscription", "resume"], usage: "subscription resume ID", summary: "Resume a paused subscription.",
                options: [], positionals: 1...1, run: { try setActive(true, &$0) }),
            Command(
                path: ["subscription", "log"], usage: "subscription log ID [--on DATE] [--amount AMOUNT]",
                summary: "Record the payment of the billing period holding DATE (default today); once per period.",
                options: [.value("on"), .value("amount")], positionals: 1...1, run: logSubscription),
            Command(
                path: ["debt", "add"], usage: "debt add NAME --balance AMOUNT --minimum AMOUNT --day N",
                summary: "Add a debt paid on day N of each month (clamped); prints its id.",
                options: [.value("balance"), .value("minimum"), .value("day")], positionals: 1...1, run: addDebt),
            Command(
                path: ["debt", "list"], usage: "debt list [--json]",
                summary: "List debts: balance, minimum payment, paid so far, months to payoff at the minimum.",
                options: [.flag("json")], run: listDebts),
            Command(
                path: ["debt", "log"], usage: "debt log ID [--on DATE] [--amount AMOUNT]",
                summary:
                    "Record the month's payment (default: the minimum, today; not before the debt was added; more with --amount, as extra payments); lowers the balance.",
                options: [.value("on"), .value("amount")], positionals: 1...1, run: logDebt),
            Command(
                path: ["debt", "pay-off"], usage: "debt pay-off ID", summary: "Mark a debt paid off: off the calendar.",
                options: [], positionals: 1...1, run: payOff),
            Command(
                path: ["goal", "add"], usage: "goal add NAME --target AMOUNT [--by DATE]",
                summary: "Add a savings goal, optionally with a deadline (today or later); prints its id.",
                options: [.value("target"), .value("by")], positionals: 1...1, run: addGoal),
            Command(
                path: ["goal", "list"], usage: "goal list [--json]",
                summary: "List goals: saved, target, percent, and what is needed a month to reach one by its date.",
                options: [.flag("json")], run: listGoals),
            Command(
                path: ["goal", "log"], usage: "goal log ID --amount AMOUNT [--on DATE]",
                summary: "Record money put towards a goal (default: today; not before the goal was added); payment delete undoes it.",
                options: [.value("amount"), .value("on")], positionals: 1...1, run: { try log(.goal, &$0) }),
            Command(
                path: ["income", "add"], usage: "income add NAME --amount AMOUNT --every SCHEDULE",
                summary: "Add an income source; prints its id.",
                options: [.value("amount"), .value("every")], positionals: 1...1, run: addIncome),
            Command(
                path: ["income", "list"], usage: "income list [--json]", summary: "List income sources.",
                options: [.flag("json")], run: listIncome),
            Command(
                path: ["payment", "list"], usage: "payment list [--json]",
                summary: "List every logged payment: id, kind, source, period, amount, date.",
                options: [.flag("json")], run: listPayments),
            Command(
                path: ["payment", "delete"], usage: "payment delete ID",
                summary: "Delete a logged payment: its period is unlogged unless another payment still logs it (a debt's month), a debt's balance given back.",
                options: [], positionals: 1...1, run: deletePayment),
        ]
        + MoneySourceKind.allCases.map { kind in
            Command(
                path: [kind.rawValue, "delete"], usage: "\(kind.rawValue) delete ID",
                summary: "Delete the \(kind == .income ? "income source" : kind.rawValue); its logged payments stay as history.",
                options: [], positionals: 1...1, run: { try deleteSource(kind, &$0) })
        } + MoneyEditKind.allCases.map(editCommand) + [
            Command(
                path: ["calendar"], usage: "calendar [YYYY-MM] [--json]",
                summary: "The month ahead: subscription renewals, debt due dates, goal deadlines, income.",
                options: [.flag("json")], positionals: 0...1, run: calendar)
        ]

    static func addSubscription(_ invocation: inout Invocation) throws {
        try invocation.addScheduledAmount(.paid, "a subscription's price") { try $0.sources.addSubscription(name: $1, amount: $2, schedule: $3, today: $4) }
    }

    static func listSubscriptions(_ invocation: inout Invocation) throws {
        let subscriptions = try invocation.readStore().sources.subscriptions()
        if invocation.json {
            invocation.output.line(
                JSON.object([
                    (
                        "subscriptions",
                        .array(
                            subscriptions.map {
                                .object([
                                    ("id", .int(Int($0.id))), ("name", .string($0.name)), ("amount", .string($0.amount.description)),
                                    ("schedule", .string($0.schedule.description)), ("active", .bool($0.active)),
                                ])
                            })
                    )
                ]))
            return
        }
        if subscriptions.isEmpty { invocation.output.line("no subscriptions") }
        for s in subscriptions {
            invocation.output.line("#\(s.id)  \(DisplayText.shown(s.name))  \(s.amount)  (\(s.schedule))\(s.active ? "" : "  paused")")
        }
    }

    static func setActive(_ active: Bool, _ invocation: inout Invocation) throws {
        let id = try invocation.id()
        try invocation.openStore().sources.setSubscriptionActive(id: id, active)
        invocation.output.line("subscription \(id) \(active ? "resumed" : "paused")")
    }

    static func logSubscription(_ invocation: inout Invocation) throws {
        try log(.subscription, &invocation)
    }

    /// `subscription log` and `debt log`: the store's one way of logging a payment.
    static func log(_ kind: Payment.Kind, _ invocation: inout Invocation) throws {
        let id = try invocation.id()
        let today = try invocation.today()
        let date = try invocation.optionalDate("on") ?? today
        // Money is logged when it went out, as a habit is done on its day: not ahead.
        guard date <= today else { throw CLIError.data("\(date) is in the future: a payment is logged on the day it is made, or after") }
        let amount = try invocation.arguments.value("amount") == nil ? nil : invocation.moneyAmount("amount", .paid, "a payment").magnitude
        let store = try invocation.openStore()
        let logged = try store.sources.logPayment(for: kind, id: id, on: date, amount: amount)
        var line = "payment #\(logged.payment): \(kind.rawValue) \(id), \(logged.amount.paidOut) on \(date)"
        if kind == .goal, let goal = try store.sources.goals(ids: [id]).first {
            line += "; \(GoalProgress(goal, payments: try store.sources.payments(of: ([], [], [id])), on: today))"
        } else {
            line += ", for \(logged.period)"
        }
        if let first = logged.extraAfter { line += "; an extra payment, after payment #\(first) this month" }
        if let over = logged.paidOff {
            line += "; debt \(id) is paid off"
            if over > .zero { line += " (\(over) more than its balance of \(Amount(minorUnits: logged.amount.minorUnits - over.minorUnits)))" }
        }
        invocation.output.line(line)
        // The reminder of what was paid: a renewal's, the month's due date, a goal's deadline.
        let due: CivilDate?
        switch kind {
        case .subscription: due = MoneyCalendar.period(of: try store.sources.subscription(id: id), containing: date)?.lowerBound
        case .debt: due = try store.sources.debt(id: id).dueDate(in: YearMonth(containing: date))
        case .goal: due = try store.sources.goals(ids: [id]).first?.targetDate
        }
        guard let due else { return }
        let occurrence = ReminderAnswers.Occurrence(ReminderKind(rawValue: kind.rawValue)!, id: id, date: due)
        try invocation.answerReminders(store, after: "payment #\(logged.payment) logged") { answers, now throws(StoreError) in
            // An extra payment of a month answers nothing the month's first did not.
            try answers.answer(
                occurrence, .logged(payment: logged.payment, amount: logged.amount, period: kind == .goal ? nil : logged.period),
                digests: logged.extraAfter == nil, now: now)
        }
    }

    static func addDebt(_ invocation: inout Invocation) throws {
        let name = try invocation.text(invocation.arguments.positionals[0], "name")
        let balance = try invocation.moneyAmount("balance", .size, "a debt's balance (what you owe)")
        // Kept as a size; shown, as every payment, negative.
        let minimum = try invocation.moneyAmount("minimum", .paid, "a debt's minimum payment").magnitude
        let dayText = try invocation.required("day")
        guard let day = Int(dayText), (1...31).contains(day) else {
            throw CLIError.usage("--day \"\(dayText)\" is not a day of the month (1 to 31)", invocation.globals.usage)
        }
        guard minimum <= balance else {
            throw CLIError.usage("--minimum \(minimum) is more than the balance \(balance): a payment cannot exceed what is owed", invocation.globals.usage)
        }
        let today = try invocation.today()
        invocation.output.line(String(try invocation.openStore().sources.addDebt(name: name, balance: balance, minimum: minimum, day: day, today: today)))
    }

    static func listDebts(_ invocation: inout Invocation) throws {
        let store = try invocation.readStore()
        let debts = try store.sources.debts()
        let payments = try store.sources.payments(of: ([], Set(debts.map(\.id)), []))
        let progress = Dictionary(debts.map { ($0.id, DebtProgress($0, payments: payments)) }, uniquingKeysWith: { a, _ in a })
        if invocation.json {
            invocation.output.line(
                JSON.object([
                    (
                        "debts",
                        .array(
                            debts.map {
                                .object([
                                    ("id", .int(Int($0.id))), ("name", .string($0.name)), ("balance", .string($0.balance.description)),
                                    ("minimum", .string($0.minimumPayment.paidOut.description)), ("day", .int($0.paymentDay)),
                                    ("paid", .string(progress[$0.id]?.paid.description ?? "0.00")),
                                    ("months_to_payoff", progress[$0.id]?.monthsToPayoff.map { .int($0) } ?? .null),
                                ])
                            })
                    )
                ]))
            return
        }
        if debts.isEmpty { invocation.output.line("no debts") }
        for d in debts {
            invocation.output.line(
                "#\(d.id)  \(DisplayText.shown(d.name))  balance \(d.balance), minimum payment \(d.minimumPayment.paidOut) on day \(d.paymentDay)"
                    + "; paid \(progress[d.id]?.paid.description ?? "0.00") so far"
                    + (progress[d.id]?.monthsToPayoff.map { ", \($0) month\($0 == 1 ? "" : "s") to payoff at the minimum" } ?? "  paid off"))
        }
    }

    static func logDebt(_ invocation: inout Invocation) throws {
        try log(.debt, &invocation)
    }

    static func payOff(_ invocation: inout Invocation) throws {
        let id = try invocation.id()
        try invocation.openStore().sources.payOffDebt(id: id)
        invocation.output.line("debt \(id) paid off")
    }

    static func addGoal(_ invocation: inout Invocation) throws {
        let name = try invocation.text(invocation.arguments.positionals[0], "name")
        let target = try invocation.moneyAmount("target", .size, "a goal's target")
        let by = try goalDate(invocation)
        let today = try invocation.today()
        let id = try invocation.openStore().sources.addGoal(name: name, target: target, by: by, today: today)
        invocation.output.line(String(id))
        invocation.echoResolved("by", as: "goal \(id): by", by.map { ($0, nil) })
    }

    /// `--by`, which is today or later: a date already past is no deadline to save towards.
    static func goalDate(_ invocation: Invocation) throws -> CivilDate? {
        guard let by = try invocation.optionalDate("by") else { return nil }
        let today = try invocation.today()
        guard by >= today else { throw CLIError.data("--by \(by) is before today (\(today)): a goal's date is today or later") }
        return by
    }

    static func listGoals(_ invocation: inout Invocation) throws {
        let store = try invocation.readStore()
        let goals = try store.sources.goals()
        let payments = try store.sources.payments(of: ([], [], Set(goals.map(\.id))))
        let today = try invocation.today()
        let progress = Dictionary(goals.map { ($0.id, GoalProgress($0, payments: payments, on: today)) }, uniquingKeysWith: { a, _ in a })
        if invocation.json {
            invocation.output.line(
                JSON.object([
                    (
                        "goals",
                        .array(
                            goals.map {
                                .object([
                                    ("id", .int(Int($0.id))), ("name", .string($0.name)), ("target", .string($0.target.description)),
                                    ("by", $0.targetDate.map { .string($0.description) } ?? .null),
                                    ("saved", .string(progress[$0.id]?.saved.description ?? "0.00")), ("percent", .int(progress[$0.id]?.percent ?? 0)),
                                    ("per_month", progress[$0.id]?.perMonth.map { .string($0.description) } ?? .null),
                                ])
                            })
                    )
                ]))
            return
        }
        if goals.isEmpty { invocation.output.line("no goals") }
        for g in goals {
            guard let p = progress[g.id] else { continue }
            let pace = p.perMonth.map { "; \($0) a month to reach it" } ?? ""
            invocation.output.line("#\(g.id)  \(DisplayText.shown(g.name))  \(p)\(g.targetDate.map { " by \($0)" } ?? "")\(pace)")
        }
    }

    static func addIncome(_ invocation: inout Invocation) throws {
        try invocation.addScheduledAmount(.received, "income") { try $0.sources.addIncome(name: $1, amount: $2, schedule: $3, today: $4) }
    }

    static func listIncome(_ invocation: inout Invocation) throws {
        let sources = try invocation.readStore().sources.incomeSources()
        if invocation.json {
            invocation.output.line(
                JSON.object([
                    (
                        "income",
                        .array(
                            sources.map {
                                .object([
                                    ("id", .int(Int($0.id))), ("name", .string($0.name)), ("amount", .string($0.amount.description)),
                                    ("schedule", .string($0.schedule.description)),
                                ])
                            })
                    )
                ]))
            return
        }
        if sources.isEmpty { invocation.output.line("no income sources") }
        for s in sources {
            invocation.output.line(
                "#\(s.id)  \(DisplayText.shown(s.name))  \(s.amount)  (\(s.schedule))\(s.schedule.anchor == nil ? "  no anchor date: not projected" : "")")
        }
    }

    static let marks: [CalendarEvent.Kind: Character] = [.subscription: "S", .debt: "D", .goal: "G", .income: "I"]

    static func calendar(_ invocation: inout Invocation) throws {
        let month = try invocation.monthArgument()
        let store = try invocation.readStore()
        let events = MoneyCalendar.events(
            in: month.days, subscriptions: try store.sources.subscriptions(), debts: try store.sources.debts(),
            goals: try store.sources.goals(), incomes: try store.sources.incomeSources(), payments: try store.sources.payments())
        if invocation.json {
            invocation.output.line(
                JSON.object([
                    ("month", .string(month.description)),
                    (
                        "events",
                        .array(
                            events.map { event in
                                // Ids as `agenda` names them: what the kind's commands take, the payment logging it.
                                var members: [(String, JSON)] = [
                                    ("definition_id", .int(Int(event.sourceID))), ("kind", .string(event.kind.rawValue)),
                                    ("date", .string(event.date.description)), ("name", .string(event.name)),
                                    ("amount", event.amount.map { .string($0.description) } ?? .null),
                                    ("loggable", .bool(event.loggable)), ("logged", .bool(event.payment != nil)),
                                ]
                                if let payment = event.payment { members.append(("payment_id", .int(Int(payment.id)))) }
                                return .object(members)
                            })
                    ),
                ]))
            return
        }
        // The grid: Monday-first weeks, each day with a mark per kind that has something on it.
        invocation.output.line("\(month)    S subscription  D debt  G goal  I income")
        invocation.output.line(" Mon    Tue    Wed    Thu    Fri    Sat    Sun")
        var line = String(repeating: "       ", count: month.firstDay.weekday.isoNumber - 1)
        for day in month.firstDay.dayNumber...month.lastDay.dayNumber {
            let date = CivilDate(dayNumber: day)
            let kinds = CalendarEvent.Kind.allCases.filter { kind in events.contains { $0.date == date && $0.kind == kind } }
            let cell = String(date.day).leftPadded(3) + String(kinds.compactMap { marks[$0] }).rightPadded(4)
            line += cell
            if date.weekday == .sunday || date == month.lastDay {
                invocation.output.line(line)
                line = ""
            }
        }
        invocation.output.line("")
        if events.isEmpty { invocation.output.line("nothing this month") }
        for e in events {
            let amount = e.amount?.description ?? ""
            var text = "\(e.date)  \(e.kind.rawValue.rightPadded(12)) #\(e.sourceID)  \(DisplayText.shown(e.name))  \(amount)"
            if let payment = e.payment { text += "  logged (payment #\(payment.id) on \(payment.date))" }
            invocation.output.line(text)
        }
    }

    static func listPayments(_ invocation: inout Invocation) throws {
        let store = try invocation.readStore()
        let payments = try store.sources.payments()
        // The source's name, or "(deleted)" for a source gone since.
        var names: [String: String] = [:]
        for s in try store.sources.subscriptions() { names["subscription:\(s.id)"] = s.name }
        for d in try store.sources.debts() { names["debt:\(d.id)"] = d.name }
        for g in try store.sources.goals() { names["goal:\(g.id)"] = g.name }
        func source(_ p: Payment) -> String { names["\(p.kind.rawValue):\(p.sourceID)"] ?? "(deleted)" }
        func period(_ p: Payment) -> String { p.kind == .debt ? YearMonth(containing: p.periodStart).description : p.periodStart.description }
        if invocation.json {
            invocation.output.line(
                JSON.object([
                    (
                        "payments",
                        .array(
                            payments.map { p in
                                .object([
                                    ("id", .int(Int(p.id))), ("kind", .string(p.kind.rawValue)), ("source_id", .int(Int(p.sourceID))),
                                    ("source", .string(source(p))), ("period", .string(period(p))), ("amount", .string(p.amount.paidOut.description)),
                                    ("date", .string(p.date.description)),
                                ])
                            })
                    )
                ]))
            return
        }
        if payments.isEmpty { invocation.output.line("no payments") }
        for p in payments {
            invocation.output.line(
                "#\(p.id)  \(p.date)  \(p.kind.rawValue) \(p.sourceID) \(DisplayText.shown(source(p)))  \(p.amount.paidOut)  for \(period(p))")
        }
    }

    static func deletePayment(_ invocation: inout Invocation) throws {
        let store = try invocation.openStore()
        let payment = try store.sources.deletePayment(id: try invocation.id())
        let period = try store.sources.payments().filter { $0.kind == payment.kind && $0.sourceID == payment.sourceID && $0.periodStart == payment.periodStart }
        invocation.output.line(deleted(payment, leaving: period))
    }

    static func deleteSource(_ kind: MoneySourceKind, _ invocation: inout Invocation) throws {
        let id = try invocation.id()
        let store = try invocation.openStore()
        try store.sources.deleteMoneySource(kind, id: id)
        invocation.output.line("\(kind.rawValue) \(id) deleted")
        try invocation.answerReminders(store, after: "\(kind.rawValue) \(id) deleted") { answers, _ throws(StoreError) in
            try answers.answerDeleted(ReminderKind(rawValue: kind.rawValue)!, id: id)
        }
    }
}
