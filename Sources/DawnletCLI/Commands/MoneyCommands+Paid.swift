import DawnletCore
import DawnletStore

/// `money paid` and `money unpaid`: a bill marked paid from the terminal, as Paid on its
/// notification marks it, and undone. Each answers the bill's reminder waiting (a morning digest
/// that listed it too), or takes that answer back.
extension MoneyCommands {
    static func paid(_ invocation: inout Invocation) throws {
        let id = try invocation.id()
        let store = try invocation.openStore()
        let bill = try store.money.recurringTransaction(id: id)
        let (date, why) = try occurrence(of: bill, paying: true, store, invocation)
        let which = "recurring transaction \(id) on \(date)\(why.map { " (\($0))" } ?? "")"
        switch try status(of: id, on: date, store) {
        case .paid: throw CLIError.data("\(which) is paid already: money unpaid \(id) --on \(date) undoes it; another occurrence is paid with --on DATE")
        case .skipped: throw CLIError.data("\(which) is skipped: money unskip \(id) --on \(date) first, to pay it")
        case .posted, nil: break
        }
        try store.money.markTransactionPaid(definitionID: id, date: date)
        if let why { invocation.output.error("recurring transaction \(id): \(date), \(why)") }
        invocation.output.line("recurring transaction \(id) on \(date): paid")
        try invocation.answerReminders(store, after: "recurring transaction \(id) on \(date) paid") { answers, now throws(StoreError) in
            try answers.answer(.init(.bill, id: id, date: date), .paid, now: now)
        }
    }

    static func unpaid(_ invocation: inout Invocation) throws {
        let id = try invocation.id()
        let store = try invocation.openStore()
        let bill = try store.money.recurringTransaction(id: id)
        let (date, why) = try occurrence(of: bill, paying: false, store, invocation)
        let cleared = try store.money.unpayTransaction(definitionID: id, date: date)
        if let why { invocation.output.error("recurring transaction \(id): \(date), \(why)") }
        invocation.output.line("recurring transaction \(id) on \(date): \(cleared ? "no longer paid" : "was not paid; nothing changed")")
        guard cleared else { return }
        try invocation.answerReminders(store, after: "recurring transaction \(id) on \(date) no longer paid", takingBack: true) {
            answers, now throws(StoreError) in try answers.takeBack(.init(.bill, id: id, date: date), .paid, now: now)
        }
    }

    /// The occurrence `--on` names, which the bill must fall on (or, to undo, have been paid on).
    /// Without it, to pay: its current one, the latest whose reminder has gone out by today (on its
    /// day, or the days ahead the config's `bill` offsets say), else its first; to undo: the latest
    /// paid within a year. Which was taken, and why, for stderr once it is done (nil: as asked).
    static func occurrence(of bill: RecurringTransaction, paying: Bool, _ store: Store, _ invocation: Invocation) throws -> (CivilDate, String?) {
        let noun = "recurring transaction \(bill.id)"
        let today = try invocation.today()
        if let asked = try invocation.optionalDate("on") {
            let paid = paying ? false : try status(of: bill.id, on: asked, store) == .paid
            guard bill.falls(on: asked) || paid else {
                throw CLIError.data("\(asked) is not an occurrence of \(noun) (\(bill.when))")
            }
            return (asked, nil)
        }
        let year = today.adding(days: -366)...today.adding(days: 366)
        guard paying else {
            let paid = try store.money.transactions(in: year).filter { $0.definitionID == bill.id && $0.status == .paid }.map(\.date)
            guard let latest = paid.max() else {
                throw CLIError.data("\(noun) has no paid occurrence within a year of today (\(today)); give --on DATE")
            }
            return (latest, "its latest paid occurrence")
        }
        let dates = bill.dates(in: year)
        let lead = (invocation.config.reminders[.bill] ?? []).map { $0.exactSeconds / 86_400 }.max() ?? 0
        guard let current = dates.last(where: { $0 <= today.adding(days: lead) }) else {
            guard let first = dates.first else {
                throw CLIError.data("\(noun) falls on no day within a year of today (\(today)) (\(bill.when)); give --on DATE")
            }
            return (first, "its first occurrence")
        }
        return (current, current <= today ? "its occurrence due most recently" : "its next occurrence, reminded since \(current.adding(days: -lead))")
    }
}
