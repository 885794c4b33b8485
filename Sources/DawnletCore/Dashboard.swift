/// One glance at the day and the month (`dashboard`): decisions made from values the caller
/// reads — which way a figure went since last month, and what is worth flagging.
public enum Dashboard {
    /// `↑`, `↓` or `→`: how `now` compares with `before`; empty without a figure from before.
    public static func trend(_ now: Int128, _ before: Int128?) -> String {
        guard let before else { return "" }
        return now > before ? "↑" : now < before ? "↓" : "→"
    }

    /// Something worth a look, in a word (`overdue`, `missed`, `bill`, `goal`, `debt`) and a line.
    public struct Flag: Hashable, Sendable {
        public let kind: String
        public let text: String
    }

    /// What is worth flagging on `today`:
    /// - todos overdue and reminders missed, when there are any;
    /// - a bill of this month larger than it was in any of the three months before;
    /// - a goal behind its pace: less saved than an even share of its target for the time gone
    ///   since it was added, with its date still ahead;
    /// - a debt whose payment of this month is not logged by its day (none is due before the debt
    ///   was added: `Debt.dueDate(in:)`).
    public static func flags(
        today: CivilDate, overdue: Int, missed: Int, month: MoneyMonth, earlierBills: [Transaction], goals: [Goal], payments: [Payment],
        debts: [Debt]
    ) -> [Flag] {
        var flags: [Flag] = []
        if overdue > 0 { flags.append(Flag(kind: "overdue", text: "\(overdue) todo\(overdue == 1 ? "" : "s") overdue")) }
        if missed > 0 { flags.append(Flag(kind: "missed", text: "\(missed) reminder\(missed == 1 ? "" : "s") missed")) }
        var largest: [Int64: Amount] = [:]
        for row in earlierBills where row.status != .skipped {
            guard let id = row.definitionID else { continue }
            largest[id] = max(largest[id] ?? .zero, row.amount.magnitude)
        }
        for line in month.lines where line.kind == "bill" && line.counts && line.amount < .zero {
            guard let id = line.sourceID, let usual = largest[id], line.amount.magnitude > usual else { continue }
            flags.append(Flag(kind: "bill", text: "\(line.name) on \(line.date): \(line.amount), more than its usual \(usual.paidOut)"))
        }
        for goal in goals {
            guard let by = goal.targetDate, let pace = MonthHealth.pace(goal, payments: payments, on: today), pace.saved.minorUnits < pace.due.minorUnits
            else { continue }
            flags.append(Flag(kind: "goal", text: "\(goal.name): \(pace.saved) saved, \(pace.due) by now to reach \(goal.target) by \(by)"))
        }
        let current = YearMonth(containing: today)
        for debt in debts where debt.balance > .zero {
            guard let due = debt.dueDate(in: current), due < today,
                !payments.contains(where: { $0.kind == .debt && $0.sourceID == debt.id && $0.periodStart == current.firstDay })
            else { continue }
            flags.append(Flag(kind: "debt", text: "\(debt.name): the payment due \(due) is not logged"))
        }
        return flags
    }
}
