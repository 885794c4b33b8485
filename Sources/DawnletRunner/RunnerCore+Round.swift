import DawnletCore
import DawnletStore
import DawnletSystem

/// One decision: `Dispatcher.decide` on the plan, what it finds missed recorded, what is due
/// claimed in one transaction and handed to the channels; then the wake timer armed where it says,
/// the status told and the state published. A channel may end a delivery while it is handed over:
/// that only marks the round to decide again (with the same `now`) once every hand-over is done,
/// so a round arms, tells and publishes once.
extension RunnerCore {
    struct Round: Sendable {
        /// What made the round, and what it says once done: a plan's or a splice's "planned" line.
        enum Origin: Sendable {
            case plan(reason: PlanReason, statusBefore: String)
            case splice(reason: PlanReason, what: String)
        }

        let now: Instant
        /// A new next reminder is told to systemd and logged (a plan says its own).
        let announce: Bool
        let origin: Origin?
        var decision: Decision
        var wake: Instant
        var missed: [Decision.Missed] = []
        var claims: [Store.Log.Claim] = []
        var again = false
    }

    mutating func beginRound(now: Instant, announce: Bool, origin: Round.Origin?) -> [RunnerEffect] {
        guard !stopping else { return [] }
        // Outcomes whose write failed: written again first (each answer comes back before the
        // decision goes on).
        var effects = rewrites()
        var decision = Dispatcher.decide(
            plan.reminders, inFlight: inFlight, settled: settledSincePlan, retries: retries, now: now, policy: settings.policy, planEnds: planEnds,
            paused: Set(paused.keys).union(locked == nil ? [] : [.desktop]), doNotDisturb: doNotDisturb == nil ? [] : [.desktop],
            passes: passesDoNotDisturb(now: now))
        held = decision.held
        heldForScreenLock(&decision)
        var round = Round(now: now, announce: announce, origin: origin, decision: decision, wake: decision.nextWake)
        for missed in decision.missed {
            // Due before the database began (a series added with a start in the past): never
            // anyone's to miss. Left out until the next plan, which leaves it out again.
            if let began = databaseBegan, missed.reminder.fireAt < began {
                settledSincePlan.insert(DeliveryID(missed.reminder.key, missed.channel))
            } else {
                round.missed.append(missed)
            }
        }
        self.round = round
        if !round.missed.isEmpty { return effects + [.recordMissed(round.missed, now: now)] }
        effects += claim()
        return effects
    }

    mutating func missedRecorded(_ failures: [DeliveryID: String], now: Instant) -> [RunnerEffect] {
        guard let round else { return [] }
        var effects: [RunnerEffect] = []
        for missed in round.missed {
            let reminder = missed.reminder
            let id = DeliveryID(reminder.key, missed.channel)
            if let failure = failures[id] {
                effects.append(.log(LogEntry("cannot record \(id) as missed: \(failure)", priority: 3)))
                continue
            }
            settledSincePlan.insert(id)
            retries[id] = nil
            effects.append(
                .log(
                    LogEntry(
                        "missed \(id) \(Self.about(reminder, in: settings.zone)): \(missed.reason.words)", priority: 4,
                        fields: Self.fields(reminder.key, missed.channel, "missed"))))
        }
        return effects + claim()
    }

    /// Claims every reminder the decision sends, on its channel, in one transaction.
    mutating func claim() -> [RunnerEffect] {
        guard var round else { return [] }
        for send in round.decision.sends {
            for reminder in send.reminders {
                let id = DeliveryID(reminder.key, send.channel)
                guard !inFlight.contains(id) && !settledSincePlan.contains(id) else { continue }
                round.claims.append(
                    Store.Log.Claim(
                        id, title: reminder.title, fireAt: reminder.heldFrom ?? reminder.fireAt, late: send.late,
                        isRepeat: reminder.repetition > 0))
            }
        }
        self.round = round
        return round.claims.isEmpty ? endRound() : [.claim(round.claims, now: round.now)]
    }

    /// The claims written: each send's claimed reminders handed over as one message (or one
    /// summary). Not written: nothing is handed over, and the next decision, a second away, tries
    /// again (a locked database lets go soon).
    mutating func claimed(_ result: Result<[Bool], RunnerFailure>, now: Instant) -> [RunnerEffect] {
        guard var round else { return [] }
        switch result {
        case .failure(let error):
            round.wake = min(round.wake, round.now.adding(Self.claimRetry))
            self.round = round
            return [.log(LogEntry("cannot claim \(round.claims.count) deliveries: \(error); trying again in 1 s", priority: 3))] + endRound()
        case .success(let owned):
            var mine = Set<DeliveryID>()
            for (claim, owns) in zip(round.claims, owned) {
                if owns { mine.insert(claim.id) } else { settledSincePlan.insert(claim.id) }
            }
            var effects: [RunnerEffect] = []
            for send in round.decision.sends {
                let claimed = send.reminders.filter { mine.contains(DeliveryID($0.key, send.channel)) }
                guard !claimed.isEmpty else { continue }
                var message =
                    claimed.count > 1
                    ? ReminderMessage.summary(of: claimed, when: ISO8601.format(round.now, in: settings.zone), zone: settings.zone)
                    : ReminderMessage(
                        claimed[0], late: send.late, at: round.now, zone: settings.zone, style: settings.config.style(of: claimed[0].item))
                if send.away, claimed.count > 1 { message = .awaySummary(of: claimed, when: message.when, zone: settings.zone) }
                let ids = claimed.map { DeliveryID($0.key, send.channel) }
                // In flight before it is handed over: a channel may end it at once.
                inFlight.formUnion(ids)
                effects.append(.deliver(Ticket(ids: ids, reminders: claimed, send: send, message: message)))
            }
            return effects + [.resume]
        }
    }

    /// Every hand-over is done: decide again if a delivery ended meanwhile, else end the round.
    /// Outside a round: a delivery's outcome has been written (or not), so decide. A reminder
    /// that went out to come back until answered is planned again first (its next time back).
    mutating func resumed() -> [RunnerEffect] {
        if let owed = repeatsOwed, !stopping, round == nil || round?.again == true {
            repeatsOwed = nil
            let now = round?.now ?? decisionAfterWrites ?? lastPlanNow ?? planEnds
            round = nil
            decisionAfterWrites = nil
            return owed.whole ? replan(.nag, now: now) : update(.nag, now: now, also: owed.items)
        }
        guard let round else {
            guard let now = decisionAfterWrites else { return [] }
            decisionAfterWrites = nil
            return beginRound(now: now, announce: true, origin: nil)
        }
        guard round.again, !stopping else { return endRound() }
        self.round = nil
        return beginRound(now: round.now, announce: round.announce, origin: round.origin)
    }

    /// Arms the wake timer where the decision says, tells a new next reminder, publishes what
    /// `next` shows, and says what the plan or splice that made the round came to.
    mutating func endRound() -> [RunnerEffect] {
        guard let round else { return [] }
        self.round = nil
        var wake = round.wake
        // A plan still owed, or outcomes still unwritten, are tried again soon whatever is next.
        if let owed = planOwed { wake = min(wake, max(owed.at, round.now)) }
        if unwritten.values.contains(where: { $0.failedWrites > 0 }) { wake = min(wake, round.now.adding(Self.claimRetry)) }
        nextWake = wake
        var effects: [RunnerEffect] = [.arm(.wake, at: wake)]
        let when = ISO8601.format(round.decision.nextWake, in: settings.zone)
        let next = plan.reminders.first { $0.fireAt == round.decision.nextWake && $0.fireAt > round.now }
        let new = next.map { "next: \($0.title) (\($0.key)) at \(when)" } ?? "nothing due before \(when)"
        if new != status {
            status = new
            if round.announce { effects += [.notify("STATUS=" + status), .log(LogEntry(status))] }
        }
        effects += publish(now: round.now)
        switch round.origin {
        case .plan(let reason, let before)?:
            // Every plan says where it stands, changed or not: systemd shows it, and a watcher can
            // tell the plan was made. What it holds and cost is logged (a timer's: when it changed).
            effects.append(.notify("STATUS=" + status))
            if reason != .timer {
                effects.append(.planned("planned (\(reason)): \(status)", reminders: plan.reminders.count))
            } else if status != before {
                effects.append(.log(LogEntry(status)))
            }
        case .splice(let reason, let what)?:
            effects += [.notify("STATUS=" + status), .planned("planned (\(reason), \(what) changed): \(status)", reminders: plan.reminders.count)]
        case nil:
            break
        }
        if inFlight.isEmpty { effects.append(.returnFreedMemory) }
        return effects
    }

    /// A channel said how a delivery ended: tried again later, or recorded; then decide again.
    mutating func finished(_ ticket: Ticket, _ outcome: DeliveryOutcome, now: Instant) -> [RunnerEffect] {
        inFlight.subtract(ticket.ids)
        let send = ticket.send, message = ticket.message, zone = settings.zone
        let failures = send.failures + 1
        var effects: [RunnerEffect] = []
        // A nag's return: it went out before, and stays delivered whatever this try did (the
        // next return tries again); its row is never left claimed.
        let again = ticket.reminders.count == 1 && ticket.reminders[0].repetition > 0
        if outcome.serverPaused, !outcome.doNotDisturb, paused[send.channel] == nil {
            paused[send.channel] = now
            effects.append(.log(Self.pausedLine))
        }
        if outcome.serverPaused && !again {
            // Not shown: held (claimed, not settled) until the server resumes.
        } else if outcome.state == .failed, outcome.retry, stopping, !again {
            // Stopping: it stays claimed, and the next start tries it again.
            effects.append(
                .log(
                    LogEntry(
                        "\(message.key)@\(send.channel) \(Self.about(ticket.reminders, in: zone)) failed (\(outcome.detail ?? "")); left claimed for the next start",
                        priority: 4)))
        } else if outcome.state == .failed, outcome.retry, !again, let at = settings.policy.retry(after: failures, deadline: send.deadline, now: now) {
            for id in ticket.ids { retries[id] = Retry(failures: failures, at: at) }
            effects.append(
                .log(
                    LogEntry(
                        "\(message.key)@\(send.channel) \(Self.about(ticket.reminders, in: zone)) failed (\(outcome.detail ?? "")); trying again at \(ISO8601.format(at, in: zone))",
                        priority: 4, fields: ticket.ids.flatMap { Self.fields($0.key, send.channel, "retry") })))
        } else {
            var detail = outcome.detail
            // A temporary failure with no try left (the backoff spent, or the grace window over):
            // the reminder was missed, and is recorded, listed and shown so. A nag's return that
            // fails leaves it as it was (delivered, waiting): the next return tries again.
            var state: Delivery.State = outcome.state == .failed && outcome.retry ? .missed : outcome.state
            if again && state != .delivered {
                detail = "return \(ticket.reminders[0].repetition) not shown" + (detail.map { ": \($0)" } ?? "")
                state = .delivered
            }
            if state == .missed {
                detail = [detail, "gave up after \(failures) attempt\(failures == 1 ? "" : "s")"].compactMap { $0 }.joined(separator: "; ")
            } else if send.failures > 0 {
                detail = [detail, "after \(failures) attempts"].compactMap { $0 }.joined(separator: "; ")
            }
            if ticket.reminders.count > 1 {
                detail = [detail, "in one summary of \(ticket.reminders.count)"].compactMap { $0 }.joined(separator: "; ")
            }
            for (id, reminder) in zip(ticket.ids, ticket.reminders) {
                retries[id] = nil
                settledSincePlan.insert(id)
                // It may come back (a nag), or go on to another channel, unanswered: planned again.
                if state == .delivered, let item = reminder.item,
                    settings.config.style(of: item).nag != nil || !settings.config.escalation(of: item).isEmpty
                {
                    var owed = repeatsOwed ?? (items: [], whole: false)
                    if item.isCalendar { owed.whole = true } else { owed.items.insert(PlanChanges.Item(kind: item.kind, id: item.definitionID)) }
                    repeatsOwed = owed
                }
                // Kept until written: settled here even if the write fails, so never claimed again.
                let missed: ReminderLife.MissedReason? = state == .missed ? .gaveUp : nil
                unwritten[id] = Unwritten(state: state, detail: detail, missed: missed, notificationID: outcome.notificationID, at: now)
                effects += [
                    .finish(id, state, detail: detail, missed: missed, notificationID: outcome.notificationID, now: now),
                    .log(
                        LogEntry(
                            "\(state.rawValue) \(id) \(Self.about(reminder, in: zone))\(message.late ? " (late)" : "")\(detail.map { ": \($0)" } ?? "")",
                            priority: state == .delivered ? 6 : 4,
                            fields: Self.fields(reminder.key, send.channel, state.rawValue) + [("DAWNLET_LATE", message.late ? "1" : "0")])),
                ]
            }
        }
        if stopping { return inFlight.isEmpty ? effects + rewrites() + [.exit(exitCode)] : effects }
        if round != nil {
            round?.again = true
            return effects
        }
        // Decided once the writes are answered: one that failed brings the next wake close.
        decisionAfterWrites = now
        return effects + [.resume]
    }

    /// The outcomes whose write failed, written again (oldest key first). One whose first write
    /// is still to be carried out is left to it.
    func rewrites() -> [RunnerEffect] {
        unwritten.filter { $0.value.failedWrites > 0 }.sorted { $0.key.description < $1.key.description }.map { id, outcome in
            .finish(id, outcome.state, detail: outcome.detail, missed: outcome.missed, notificationID: outcome.notificationID, now: outcome.at)
        }
    }

    /// An outcome written, or not: one that could not be is kept (and settled) and written again
    /// at the next decision; its first failure is logged.
    mutating func finishWritten(_ id: DeliveryID, _ failure: String?) -> [RunnerEffect] {
        guard var outcome = unwritten[id] else { return [] }
        guard let failure else {
            unwritten[id] = nil
            return []
        }
        outcome.failedWrites += 1
        unwritten[id] = outcome
        guard outcome.failedWrites == 1 else { return [] }
        return [.log(LogEntry("cannot record \(id): \(failure); kept, and written again at the next decision", priority: 3))]
    }

    /// What a reminder is about, for a log line beside its key: `[todo "Call mum" at
    /// 2026-12-01T09:00:00+01:00]`; the title bounded (the line is escaped as it is written).
    static func about(_ reminder: PlannedReminder, in zone: Zone) -> String {
        "[\(reminder.kind) \"\(DisplayText.bounded(reminder.title, to: 80))\" at \(ISO8601.format(reminder.fireAt, in: zone))]"
    }

    /// The same for what went out together: one reminder, or "[a summary of 5 reminders]".
    static func about(_ reminders: [PlannedReminder], in zone: Zone) -> String {
        reminders.count == 1 ? about(reminders[0], in: zone) : "[a summary of \(reminders.count) reminders]"
    }

    /// The journal's fields of a delivery: its key (a reminder's, or a message's), kind, channel and outcome.
    static func fields(_ key: ReminderKey, _ channel: Channel, _ outcome: String) -> [(String, String)] {
        fields(key, key.deliveryKind.rawValue, channel, outcome)
    }

    /// The same for a message's key, and its kind (a summary's, a notice's).
    static func fields(_ key: some CustomStringConvertible, _ kind: String, _ channel: Channel, _ outcome: String) -> [(String, String)] {
        [("DAWNLET_KEY", key.description), ("DAWNLET_KIND", kind), ("DAWNLET_CHANNEL", channel.rawValue), ("DAWNLET_OUTCOME", outcome)]
    }
}
