import DawnletCore
import DawnletSystem

/// The runner's inputs beyond its plan and deliveries, decided here as the rest is: a watch's
/// write waits on its settle timer, and what each settle timer does when it fires; SIGHUP; a
/// notification's response; the state `next` reads, until when it holds, and the month closed
/// before it. The shell watches, reads and writes; it decides none of this.
extension RunnerCore {
    /// A watch saw a write: its settle timer (re-)armed, so a burst is acted on once; the first
    /// write of a burst arms its ceiling too, which the rest leave alone, so a burst that never
    /// goes quiet is acted on by then. A calendar or the zone changing makes the published state
    /// untrue at once: withdrawn until the plan.
    mutating func written(_ watched: Watched) -> [RunnerEffect] {
        guard !stopping else { return [] }
        let (timer, quiet) = watched.settle
        let withdraw: [RunnerEffect] = watched == .calendars || watched == .zone ? [.withdraw, .cancel(.stateExpiry)] : []
        let ceiling: [RunnerEffect] = bursts.insert(watched).inserted ? [.armAfter(watched.ceiling.timer, watched.ceiling.span)] : []
        return withdraw + [.armAfter(timer, quiet)] + ceiling
    }

    /// A timer fired: a settle timer's burst is over, the state for `next` ran out, the shutdown
    /// bound ran out.
    mutating func timerFired(_ timer: TimerName, now: Instant) -> [RunnerEffect] {
        if timer == .shutdownBound { return handle(.shutdownBoundExpired, now: now) }
        if timer == .wake || timer == .wakeRetry { return [] }
        guard !stopping else { return [] }
        // A burst is over, quiet or at its ceiling: whichever fired first, the other is disarmed.
        if let watched = Watched.allCases.first(where: { $0.settle.timer == timer || $0.ceiling.timer == timer }) {
            bursts.remove(watched)
            let other = timer == watched.settle.timer ? watched.ceiling.timer : watched.settle.timer
            return [.cancel(other)] + settled(watched, now: now)
        }
        switch timer {
        case .exportRetry: return [.syncExport]
        case .clockWatchRetry: return [.rearmClockWatch]
        // Midnight (or a timed todo's time): the counts change; a new month's first look closes
        // the one before.
        case .stateExpiry: return publish(now: now, recount: true)
        default: return []
        }
    }

    /// What a watch's burst of writes comes to once it is over.
    mutating func settled(_ watched: Watched, now: Instant) -> [RunnerEffect] {
        switch watched {
        // Another process wrote: what it answered is closed on screen first, then the database is
        // checked (still the file opened?) and what changed is read.
        case .database: return [.closeAnsweredElsewhere, .checkDatabase]
        // A calendar's files changed: what another device answered there is recorded and closed
        // on screen, then a plan.
        case .calendars: return [.readCalendarAnswers, .closeAnsweredElsewhere] + replan(.calendarFilesChanged, now: now)
        case .export: return [.syncExport]
        case .zone: return [.readZone]
        }
    }

    /// The clock watch could not be armed again: said, and tried again in a second (until it is,
    /// a clock set meanwhile is seen at the next wake).
    func clockWatchRearmed(failure: String?) -> [RunnerEffect] {
        guard let failure, !stopping else { return [] }
        return [
            .log(LogEntry("cannot watch the clock again: \(failure); trying again in 1 s", priority: 3)), .armAfter(.clockWatchRetry, .seconds(1)),
        ]
    }

    /// SIGHUP: systemd is told it reloads, the config is read again, then a plan; ready again
    /// once that plan's round is done.
    mutating func reload() -> [RunnerEffect] {
        stopping ? [] : [.notify("RELOADING=1"), .reloadConfig]
    }

    mutating func configReloaded(now: Instant) -> [RunnerEffect] {
        stopping ? [.notify("READY=1")] : replan(.sighup, now: now) + [.notify("READY=1")]
    }

    /// What another device wrote changed the store: its answers closed on screen, and a plan.
    /// A file that failed is tried again without waiting for a change: after 1 s, then twice as
    /// long each time it fails again, up to 5 minutes (never a busy loop); a pass with none
    /// failing starts over from 1 s.
    mutating func exportSynced(storeChanged: Bool, failed: Bool = false, now: Instant) -> [RunnerEffect] {
        guard !stopping else { return [] }
        var retry: [RunnerEffect] = []
        if failed {
            let delay = exportRetryDelay ?? .seconds(1)
            exportRetryDelay = min(delay * 2, .seconds(300))
            retry = [.armAfter(.exportRetry, delay)]
        } else {
            exportRetryDelay = nil
        }
        guard storeChanged else { return retry }
        return retry + [.closeAnsweredElsewhere] + replan(.calendarFilesChanged, now: now)
    }

    /// After a decision: the month before closed once a month has begun, the state published,
    /// our changed items exported.
    func publish(now: Instant, recount: Bool = false) -> [RunnerEffect] {
        let today = ISO8601.localDate(of: now, in: settings.zone).date
        let close: [RunnerEffect] = closedMonth == YearMonth(containing: today) ? [] : [.closeMonth(before: today, now: now)]
        return close + [.publish(now: now, recount: recount), .exportChanges]
    }

    /// The month before is kept: not asked again this month. A failure is said, and asked again
    /// at the next decision.
    mutating func monthClosed(_ month: YearMonth, failure: String?) -> [RunnerEffect] {
        guard let failure else {
            closedMonth = month
            return []
        }
        return [.log(LogEntry("cannot keep the figures of the month before \(month): \(failure)", priority: 4))]
    }

    /// The state is published until `validUntil`: the state timer wakes the runner then, unless
    /// it wakes before anyway (and publishes again). Nothing published: nothing to wake for.
    func published(validUntil: Instant?) -> [RunnerEffect] {
        guard let validUntil, nextWake.map({ $0 > validUntil }) ?? true else { return [.cancel(.stateExpiry)] }
        return [.arm(.stateExpiry, at: validUntil)]
    }
}
