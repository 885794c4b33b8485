import DawnletApp
import DawnletCore
import DawnletStore
import FoundationEssentials

/// `dashboard [--json]`: one glance — today's open and overdue, the next seven days' bills and
/// renewals, this month's money against last month's, debts against last month's balances,
/// goals, habits, the month's one rating (`MonthHealth`) and what is worth a look. Last month's
/// figures, its rating among them, are its snapshot (`MonthClose`), written now if the month closed
/// without one.
enum DashboardCommand {
    static let command = Command(
        path: ["dashboard"], usage: "dashboard [--json]",
        summary:
            "One glance: today, the week's bills, this month's money and debts against last month's, goals, habits, the month's health rating and its parts, flags.",
        options: [.flag("json")], run: run)

    static func run(_ invocation: inout Invocation) throws {
        let (zone, now) = (try invocation.timeZone(), try invocation.now())
        let today = ISO8601.localDate(of: now, in: zone).date
        let store = try invocation.openStore()
        let previous = try MonthClose.previous(before: today, store: store, now: now, clock: ISO8601.localDate(of: Instant(Date()), in: zone).date, zone: zone)
        let (days, problems) = try TodayCommand.days(today...today, &invocation)
        invocation.output.warn(problems)
        let entries = days.first?.entries ?? []
        let open = entries.filter { $0.status == "open" }.count
        let overdue = entries.filter { $0.overdueSince != nil }.count
        // This month's money, and the next seven days' bills, renewals and debt payments (the
        // month after too, when the week runs into it).
        let current = YearMonth(containing: today)
        let month = try MonthClose.cashflow(of: current, store: store)
        let week = today...today.adding(days: 6)
        var upcoming = month.lines
        if !current.days.contains(week.upperBound) { upcoming += try MonthClose.cashflow(of: YearMonth(containing: week.upperBound), store: store).lines }
        upcoming = upcoming.filter { week.contains($0.date) && $0.kind != "income" && $0.status != "skipped" && $0.status != "extra" }
        let debts = try store.sources.debts()
        let goals = try store.sources.goals()
        let payments = try store.sources.payments()
        let habits = try store.items.definitions([.habit])
        let earliest = habits.compactMap { $0.schedule?.anchor }.min() ?? today
        // Each habit's own entries (looked for among all of them, a thousand habits' would cost a
        // thousand times the entries).
        let entriesOfHabits = Dictionary(grouping: try store.items.storedOccurrences([.habit], in: min(earliest, today)...today), by: \.definitionID)
        // The three months before this one.
        var before = current
        for _ in 0..<3 { before = YearMonth(containing: before.firstDay.adding(days: -1)) }
        let flags = Dashboard.flags(
            today: today, overdue: overdue, missed: try store.log.unacknowledgedMissedCount(), month: month,
            earlierBills: try store.money.transactions(in: before.firstDay...current.firstDay.adding(days: -1)), goals: goals, payments: payments,
            debts: debts)

        let trend = Dashboard.trend(month.net.minorUnits, previous?.net.minorUnits)
        let health = try MonthClose.health(
            of: month, through: today, dayOpen: true, store: store, debts: debts, payments: payments, habits: habits, goals: goals)
        let healthTrend = health.score.map { Dashboard.trend(Int128($0), previous?.health.map { Int128($0) }) } ?? ""
        if invocation.json {
            var members: [(String, JSON)] = [
                ("date", .string(today.description)),
                ("today", .object([("open", .int(open)), ("overdue", .int(overdue))])),
                (
                    "next_7_days",
                    .array(
                        upcoming.map {
                            .object([
                                ("date", .string($0.date.description)), ("kind", .string($0.kind)), ("name", .string($0.name)),
                                ("amount", .string($0.amount.description)), ("status", .string($0.status)),
                            ])
                        })
                ),
            ]
            var money: [(String, JSON)] = [
                ("month", .string(current.description)), ("in", .string(month.incoming.description)), ("out", .string(month.outgoing.description)),
                ("net", .string(month.net.description)), ("trend", .string(trend)),
            ]
            if let previous {
                money.append(
                    (
                        "last_month",
                        .object([
                            ("month", .string(previous.month.description)), ("in", .string(previous.incoming.description)),
                            ("out", .string(previous.outgoing.description)), ("net", .string(previous.net.description)),
                        ])
                    ))
            }
            members.append(("money", .object(money)))
            members.append(
                (
                    "debts",
                    .array(
                        debts.map { d in
                            let last = previous?.debts[d.id]
                            return .object([
                                ("id", .int(Int(d.id))), ("name", .string(d.name)), ("balance", .string(d.balance.description)),
                                ("last_month", last.map { .string($0.description) } ?? .null),
                                ("trend", .string(Dashboard.trend(Int128(d.balance.minorUnits), last.map { Int128($0.minorUnits) }))),
                            ])
                        })
                ))
            members.append(
                (
                    "goals",
                    .array(
                        goals.map { g in
                            let p = GoalProgress(g, payments: payments, on: today)
                            return .object([
                                ("id", .int(Int(g.id))), ("name", .string(g.name)), ("saved", .string(p.saved.description)),
                                ("target", .string(g.target.description)), ("percent", .int(p.percent)),
                            ])
                        })
                ))
            members.append(
                (
                    "habits",
                    .array(
                        habits.map { h in
                            let s = HabitStreak(h, stored: entriesOfHabits[h.id] ?? [], today: today)
                            return .object([
                                ("id", .int(Int(h.id))), ("name", .string(h.title)), ("current", .int(s.current)), ("longest", .int(s.longest)),
                                ("week_done", .int(s.doneThisWeek)), ("week_planned", .int(s.plannedThisWeek)),
                            ])
                        })
                ))
            members.append(
                (
                    "health",
                    .object([
                        ("score", health.score.map { .int($0) } ?? .null), ("trend", .string(healthTrend)),
                        ("last_month", previous?.health.map { .int($0) } ?? .null),
                        (
                            "parts",
                            .array(health.parts.map { .object([("name", .string($0.name)), ("score", .int($0.score)), ("detail", .string($0.detail))]) })
                        ),
                    ])
                ))
            members.append(("flags", .array(flags.map { .object([("kind", .string($0.kind)), ("text", .string($0.text))]) })))
            invocation.output.line(JSON.object(members))
            return
        }
        let output = invocation.output
        var lines = [output.paint("\(today.weekday.fullName) \(today)", .bold), "today: \(open) open, \(overdue) overdue"]
        lines.append("next 7 days:" + (upcoming.isEmpty ? " nothing to pay" : ""))
        for line in upcoming {
            lines.append(
                "  \(line.date)  \(line.kind.rightPadded(12)) \(DisplayText.shown(line.name))  \(line.amount)\(line.status == "due" || line.status == "posted" ? "" : "  (\(line.status))")"
            )
        }
        lines.append(
            "\(current): in \(month.incoming), out \(month.outgoing), net \(month.net)"
                + (previous.map { " \(trend) (\($0.month): net \($0.net))" } ?? ""))
        if !debts.isEmpty { lines.append("debts:") }
        for d in debts {
            let last = previous?.debts[d.id]
            let arrow = Dashboard.trend(Int128(d.balance.minorUnits), last.map { Int128($0.minorUnits) })
            lines.append("  \(DisplayText.shown(d.name))  balance \(d.balance)" + (last.map { " \(arrow) (end of \(previous!.month): \($0))" } ?? ""))
        }
        if !goals.isEmpty { lines.append("goals:") }
        for g in goals { lines.append("  \(DisplayText.shown(g.name))  \(GoalProgress(g, payments: payments, on: today))") }
        if !habits.isEmpty { lines.append("habits:") }
        for h in habits {
            let s = HabitStreak(h, stored: entriesOfHabits[h.id] ?? [], today: today)
            lines.append("  \(DisplayText.shown(h.title))  streak \(s.current), longest \(s.longest); this week \(s.weekText)")
        }
        if let score = health.score {
            let last = previous.flatMap { p in p.health.map { " \(healthTrend) (\(p.month): \($0))" } } ?? ""
            lines.append("health: \(score)\(last): " + health.parts.map { "\($0.name) \($0.score) (\($0.detail))" }.joined(separator: ", "))
        } else {
            lines.append("health: none yet (no bill, debt, goal, habit or todo to judge this month)")
        }
        lines.append("flags:" + (flags.isEmpty ? " none" : ""))
        for flag in flags { lines.append("  " + output.paint("! \(DisplayText.shown(flag.text))", .red)) }
        for line in lines { invocation.output.line(line) }
    }
}
