import DawnletCore
import DawnletStore
import DawnletSystem

/// The runner's decisions, as a pure state machine: `handle(event, now)` changes its state and
/// says what to do (`RunnerEffect`), and does none of it. It reads no clock, no file and no
/// database: what it needs from them comes in events, and what it asks of them (a plan, a claim)
/// is answered by the next event it is handed. The shell (`Runner`) owns the loop, the watches,
/// the store and the channels, and carries the effects out in order.
public struct RunnerCore: Sendable {
    public internal(set) var settings: Runner.Settings
    /// When the database began: nothing due before it is recorded missed.
    let databaseBegan: Instant?

    /// The last plan, where its window ends, and the database version and change feed position
    /// it read.
    public internal(set) var plan = Plan(reminders: [])
    public internal(set) var planEnds = Instant(secondsSinceEpoch: 0)
    public internal(set) var planVersion: Int64 = -1
    var changePosition: Int64?
    /// The `now` of the last plan made: the next looks back to its grace window, no further.
    var lastPlanNow: Instant?
    /// Why the last plan could not be made, and when it is tried again: the wake comes no later,
    /// and a write meanwhile plans whole instead of splicing into the old plan.
    var planOwed: (reason: PlanReason, at: Instant)?
    /// Deliveries handed to a channel and not yet ended; and those ended (or claimed elsewhere)
    /// since the last whole plan, which still shows them unsettled.
    public internal(set) var inFlight: Set<DeliveryID> = []
    public internal(set) var settledSincePlan: Set<DeliveryID> = []
    /// Channels whose server holds what it is given unseen (a paused notification server), and
    /// since when the runner knew: nothing is handed to them until they resume.
    public internal(set) var paused: [Channel: Instant] = [:]
    /// Since when the desktop server's Do Not Disturb has been on (`RunnerCore+DoNotDisturb.swift`).
    public internal(set) var doNotDisturb: Instant?
    /// What the last decision held back (due on a paused channel): published for `next` and
    /// `preview`.
    public internal(set) var held: [Hold] = []
    /// Since when the screen has been locked (desktop reminders wait meanwhile); and, once it
    /// unlocked, what waited, to go out together (`RunnerCore+ScreenLock`).
    public internal(set) var locked: Instant?
    var awayHeld: Set<DeliveryID> = []
    /// Temporary failures waiting for their next try.
    public internal(set) var retries: [DeliveryID: Retry] = [:]
    /// Outcomes that could not be written: settled here, and written again at the next decision,
    /// so a reminder that went out is never claimed (and sent) again.
    public internal(set) var unwritten: [DeliveryID: Unwritten] = [:]
    /// The instant the wake timer is armed for.
    public internal(set) var nextWake: Instant?
    public internal(set) var status = ""
    var lastCalendarProblems: [CalendarProblem] = []
    public internal(set) var stopping = false
    var exitCode: Int32 = 0
    /// The decision under way: open from its first effect until its end (see `RunnerCore+Round`).
    var round: Round?
    /// A delivery ended outside a round: decide at this instant once its outcome is written.
    var decisionAfterWrites: Instant?
    /// Reminders that went out and come back until answered: their items are planned again
    /// (their next time back) once the outcomes are written; a calendar's, by a whole plan.
    var repeatsOwed: (items: Set<PlanChanges.Item>, whole: Bool)?
    /// The month in which the month before was closed (its figures kept).
    var closedMonth: YearMonth?
    /// How long the export waits before trying a failed file again; nil while none fails.
    var exportRetryDelay: Duration?
    /// The watches whose burst of writes waits to be acted on: its ceiling is armed.
    public internal(set) var bursts: Set<Watched> = []

    public struct Unwritten: Sendable, Equatable {
        let state: Delivery.State
        let detail: String?
        /// Why, for a delivery given up as missed.
        var missed: ReminderLife.MissedReason? = nil
        let notificationID: UInt32?
        let at: Instant
        var failedWrites = 0
    }

    public init(settings: Runner.Settings, databaseBegan: Instant?) {
        self.settings = settings
        self.databaseBegan = databaseBegan
    }

    /// How far before the grace window a start looks for missed reminders: a week.
    static let missedLookback: Duration = .seconds(7 * 86_400)
    /// How far ahead a plan always reaches, however much it holds: a day.
    static let planAhead: Duration = .seconds(86_400)
    /// How soon a failed plan, and a failed claim or write, is tried again.
    static let planRetry: Duration = .seconds(5)
    static let claimRetry: Duration = .seconds(1)

    public mutating func handle(_ event: RunnerEvent, now: Instant) -> [RunnerEffect] {
        switch event {
        case .start: return replan(.start, now: now)
        case .replan(let reason): return stopping ? [] : replan(reason, now: now)
        case .wake(let version):
            if stopping { return [] }
            if let owed = planOwed { return replan(owed.reason, now: now) }
            if now >= planEnds { return replan(.timer, now: now) }
            if version != planVersion { return update(.databaseChanged, now: now) }
            return beginRound(now: now, announce: true, origin: nil)
        case .databaseSettled(let lost, let version):
            if stopping { return [] }
            if let lost {
                let entry = LogEntry(
                    "database \(DisplayText.escaped(settings.databasePath)) \(lost) while serve ran; stopping, so that it starts again on the file now there",
                    priority: 3)
                return [.log(entry)] + stop(because: "the database \(lost)", exitCode: 1)
            }
            return version == planVersion ? [] : update(.databaseChanged, now: now)
        case .settingsChanged(let new):
            settings = new
            return []
        case .stop(let reason, let code): return stopping ? [] : stop(because: reason, exitCode: code)
        case .shutdownBoundExpired:
            return [
                .log(LogEntry("stopping with deliveries in flight: they stay claimed and are retried at the next start", priority: 4)),
                .killChildren,
            ] + rewrites() + [.exit(exitCode)]
        case .deliveryFinished(let ticket, let outcome): return finished(ticket, outcome, now: now)
        case .desktopPaused(let isPaused): return desktopPaused(isPaused, now: now)
        case .screenLocked(let isLocked): return screenLocked(isLocked, now: now)
        case .desktopDoNotDisturb(let isOn): return desktopDoNotDisturb(isOn, now: now)
        case .armFailed(let timer, let error): return armFailed(timer, error, now: now)
        case .planned(let result): return planned(result)
        case .planFailed(let request, let error):
            let retry = request.now.adding(Self.planRetry)
            planOwed = (request.reason, retry)
            nextWake = retry
            return [.log(LogEntry("plan failed (\(request.reason)): \(error); retrying in 5 s", priority: 3)), .arm(.wake, at: retry)]
        case .changesRead(let request, let result): return changesRead(request, result)
        case .missedRecorded(let failures): return missedRecorded(failures, now: now)
        case .claimed(let result): return claimed(result, now: now)
        case .finishWritten(let id, let failure): return finishWritten(id, failure)
        case .resumed: return resumed()
        case .written(let watched): return written(watched)
        case .timerFired(let timer): return timerFired(timer, now: now)
        case .reload: return reload()
        case .clockSet(let failure): return clockWatchRearmed(failure: failure) + (stopping ? [] : replan(.clockSet, now: now))
        case .clockWatchRearmed(let failure): return clockWatchRearmed(failure: failure)
        case .configReloaded: return configReloaded(now: now)
        case .notificationResponse(let id, let response): return [.respond(id, response)]
        case .exportSynced(let changed, let failed): return exportSynced(storeChanged: changed, failed: failed, now: now)
        case .monthClosed(let month, let failure): return monthClosed(month, failure: failure)
        case .published(let validUntil): return published(validUntil: validUntil)
        }
    }

    /// Where a plan made at `now` starts: the last plan's grace window back (what came due before
    /// was decided then), or a week past it for the first, so what was missed is recorded.
    func planStart(now: Instant) -> Instant {
        min(lastPlanNow ?? now.adding(.zero - Self.missedLookback), now).adding(.zero - settings.config.graceWindow)
    }

    /// A whole plan from the last one's grace window back (a week back at the start: what was
    /// missed while the machine was off is recorded, not dropped) to the horizon, ended where the
    /// budget is spent and a day is covered; the wake timer plans again there.
    mutating func replan(_ reason: PlanReason, now: Instant) -> [RunnerEffect] {
        let window = planStart(now: now)...now.adding(settings.config.horizon)
        return [
            .plan(
                PlanRequest(
                    reason: reason, now: now, window: window, budget: settings.planBudget, dayAhead: now.adding(Self.planAhead)))
        ]
    }

    mutating func planned(_ result: PlanResult) -> [RunnerEffect] {
        plan = result.plan
        planEnds = result.ends
        planVersion = result.version
        changePosition = result.position
        lastPlanNow = result.request.now
        settledSincePlan = Set(unwritten.keys)
        planOwed = nil
        var effects: [RunnerEffect] = []
        if plan.calendarProblems != lastCalendarProblems {
            effects += plan.calendarProblems.map { .log(LogEntry("calendar \($0)", priority: 4)) }
            lastCalendarProblems = plan.calendarProblems
        }
        let origin = Round.Origin.plan(reason: result.request.reason, statusBefore: status)
        return effects + beginRound(now: result.request.now, announce: false, origin: origin)
    }

    /// After another process wrote: the change feed read and spliced in, with `also` (a whole
    /// plan when it cannot say what changed, or the plan ran out).
    mutating func update(_ reason: PlanReason, now: Instant, also: Set<PlanChanges.Item> = []) -> [RunnerEffect] {
        if let owed = planOwed { return replan(owed.reason, now: now) }
        guard let position = changePosition, now < planEnds else { return replan(reason, now: now) }
        return [.readChanges(ChangeRequest(reason: reason, now: now, position: position, window: planStart(now: now)...planEnds, also: also))]
    }

    mutating func changesRead(_ request: ChangeRequest, _ result: ChangeResult) -> [RunnerEffect] {
        guard case .spliced(let input, let version, let position, let changed) = result else {
            return replan(request.reason, now: request.now)
        }
        input?.splice(
            into: &plan.reminders, rules: PlanRules(config: settings.config, databaseBegan: databaseBegan), now: request.now, window: request.window,
            zone: settings.zone)
        // Splices that added more than the budget again: a whole plan, which ends where it fits.
        if Int64(plan.reminders.count) > 2 * settings.planBudget { return replan(request.reason, now: request.now) }
        // What the log says of the items planned again (and of a snooze set since, from a
        // terminal) is in their reminders now: a reminder that went out is to go out again only
        // at a snooze's or a nag's new instant.
        if let input {
            settledSincePlan = settledSincePlan.filter { id in
                unwritten[id] != nil || (input.snoozed[id] == nil && !(id.key.item.map { input.ids[$0.kind]?.contains($0.id) == true } ?? false))
            }
        }
        planVersion = version
        changePosition = position
        lastPlanNow = request.now
        let what = changed == 1 ? "1 item" : "\(changed) items"
        return beginRound(
            now: request.now, announce: false, origin: .splice(reason: request.reason, what: what))
    }

    /// SIGTERM/SIGINT (or the database lost): says STOPPING, starts nothing new, gives deliveries
    /// in flight a bounded time. A delivery abandoned here stays claimed and is tried again at the
    /// next start.
    mutating func stop(because reason: String, exitCode code: Int32) -> [RunnerEffect] {
        stopping = true
        exitCode = code
        nextWake = nil
        let effects: [RunnerEffect] = [
            .log(LogEntry("stopping: \(reason)" + (inFlight.isEmpty ? "" : "; \(inFlight.count) deliveries in flight"))),
            .notify("STOPPING=1"), .withdraw, .cancel(.stateExpiry), .cancel(.wake),
        ]
        if inFlight.isEmpty { return effects + rewrites() + [.exit(exitCode)] }
        return effects + [.armAfter(.shutdownBound, settings.shutdownBound)]
    }

    /// The notification server paused: desktop reminders wait. Resumed: what waited goes out.
    mutating func desktopPaused(_ isPaused: Bool, now: Instant) -> [RunnerEffect] {
        guard !stopping, isPaused != (paused[.desktop] != nil) else { return [] }
        if isPaused {
            paused[.desktop] = now
            return holdBegan(Self.pausedLine, now: now)
        }
        paused[.desktop] = nil
        return holdEnded("the notification server resumed: desktop reminders held meanwhile go out", now: now)
    }

    /// A hold on desktop reminders began (a paused server, Do Not Disturb, a locked screen): said at
    /// once, as `next` and `preview` read it (a round ending says it anyway).
    func holdBegan(_ line: LogEntry, now: Instant) -> [RunnerEffect] {
        [.log(line)] + (round == nil ? publish(now: now) : [])
    }

    /// A hold on desktop reminders ended: said, and what waited goes out, in a round now or again
    /// after the one under way.
    mutating func holdEnded(_ line: String, now: Instant) -> [RunnerEffect] {
        let said: [RunnerEffect] = [.log(LogEntry(line, priority: 5))]
        if round != nil {
            round?.again = true
            return said
        }
        return said + beginRound(now: now, announce: true, origin: nil)
    }

    static let pausedLine = LogEntry("the notification server is paused: desktop reminders are held until it resumes", priority: 5)

    mutating func armFailed(_ timer: TimerName, _ error: String, now: Instant) -> [RunnerEffect] {
        switch timer {
        case .wake:
            // Without its timer the runner would sleep for ever: say so, and wake in a second on
            // a timer of another kind, which decides (and arms the wake timer) again.
            return [.log(LogEntry("cannot arm the wake timer: \(error); trying again in 1 s", priority: 3)), .armAfter(.wakeRetry, .seconds(1))]
        case .shutdownBound:
            return [.log(LogEntry("cannot bound the shutdown: \(error)", priority: 3))] + rewrites() + [.exit(exitCode)]
        case .wakeRetry:
            // Neither kind of timer can be armed: nothing would wake the runner. Ending lets
            // systemd start it again (Restart=on-failure), and the new start plans what is due.
            guard !stopping else { return [.log(LogEntry("cannot arm the \(timer) timer: \(error)", priority: 3))] }
            return [.log(LogEntry("cannot arm the \(timer) timer: \(error)", priority: 3))]
                + stop(because: "no timer can be armed to wake it", exitCode: 1)
        default:
            return [.log(LogEntry("cannot arm the \(timer) timer: \(error)", priority: 3))]
        }
    }

    /// `planned (…): … (1234 reminders in 3.2 ms)`: a `.planned` effect's line, with what the plan
    /// holds and what making it cost.
    public static func plannedLine(_ line: String, reminders: Int, took: Duration) -> String {
        let milliseconds = Double(took.components.seconds) * 1000 + Double(took.components.attoseconds) / 1e15
        return "\(line) (\(reminders) reminder\(reminders == 1 ? "" : "s") in \((milliseconds * 10).rounded() / 10) ms)"
    }
}
