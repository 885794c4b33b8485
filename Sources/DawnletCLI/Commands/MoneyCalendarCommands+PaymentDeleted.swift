import DawnletCore

extension MoneyCalendarCommands {
    /// What `payment delete` did, said as it stands after: a goal's saving taken back; a period
    /// unlogged when its one payment is gone; and for a debt's month that took an extra payment,
    /// which of its payments was deleted (the month's, or an extra one) and which still log it.
    /// `period`: the payments left of the deleted one's period, oldest first.
    static func deleted(_ payment: Payment, leaving period: [Payment]) -> String {
        let head = "payment #\(payment.id) deleted: \(payment.kind.rawValue) \(payment.sourceID)"
        let span = payment.kind == .debt ? "the month \(YearMonth(containing: payment.periodStart))" : "the period from \(payment.periodStart)"
        if payment.kind == .goal { return "\(head) has \(payment.amount.magnitude) less saved" }
        guard let first = period.first else { return "\(head) is unlogged for \(span)" }
        // The month's first payment logs it; those after it are extra.
        let which = first.id < payment.id ? "extra payment" : "payment"
        let left = period.map { "#\($0.id) (\($0.amount.paidOut))" }
        let by = left.count == 1 ? "payment \(left[0])" : "payments \(left.dropLast().joined(separator: ", ")) and \(left[left.count - 1])"
        return "\(head)'s \(which) of \(payment.amount.paidOut) for \(span); the \(payment.kind == .debt ? "month" : "period") stays logged by \(by)"
    }
}
