import DawnletApp
import DawnletCore
import DawnletStore
import DawnletSystem

/// What `next` shows, as the runner knows it: the next reminder it will send and the counts of
/// what needs looking at. The runner publishes it after each decision, so a status bar that runs
/// `next` every few seconds reads one small file instead of planning.
///
/// It is the answer `next` would plan for any instant from `since` until `validUntil`, as long as
/// every file in `files` keeps its stamp: the next reminder goes out at `validUntil` at the
/// latest, and the overdue count changes only at midnight or with a write.
public struct RunnerState: Sendable, Equatable {
    /// How far ahead `next` looks for the next reminder.
    public static let lookaheadDays = 366

    public struct File: Sendable, Equatable {
        public let path: String
        /// `FileStamp.text(of:)`: "-" when there was no file.
        public let stamp: String

        public init(path: String, stamp: String) {
            self.path = path
            self.stamp = stamp
        }
    }

    public var next: PlannedReminder?
    /// What the runner holds back (a paused notification server, since when; the deliveries it
    /// holds, and why): `next` says its next reminder is held, and `preview` which are.
    public var holds = Holds()
    public var overdue: Int
    public var missed: Int
    public var failed: Int
    /// The zone it was planned in.
    public var zone: String
    /// The database, its WAL, the config and the calendars, stamped before anything was read.
    public var files: [File]
    public var since: Instant
    public var validUntil: Instant

    /// The files a state follows from, from the root: the database and its WAL (a commit writes
    /// one or the other), the config, each calendar (a folder's stamp moves when a sync renames a
    /// file into it). The runner stamps them; `next` compares.
    public static func files(database: String, config: String?, calendars: [Config.CalendarSource]) -> [String] {
        let database = ConfigPath.absolute(database)
        return [database, database + "-wal"] + (config.map { [ConfigPath.absolute($0)] } ?? []) + calendarFiles(calendars)
    }

    /// The calendars' files and folders, from the root.
    public static func calendarFiles(_ calendars: [Config.CalendarSource]) -> [String] {
        calendars.map { ConfigPath.absolute(ConfigPath.expand($0.path)) }
    }
}

extension Runner {
    /// The files the state follows from: the database and its WAL (a commit writes one or the
    /// other), the config, each calendar (a folder's stamp moves when a sync renames a file into it).
    var stateFiles: [String] {
        RunnerState.files(database: settings.databasePath, config: settings.configPath, calendars: settings.config.calendars)
    }

    /// Publishes the state at `now`, when it changed; withdraws it when the runner cannot say
    /// (a write it has not planned yet, a delivery in flight or being tried again, a plan that
    /// ends before it could know the next reminder). Until when the state published holds (nil:
    /// none is).
    func publishState(now: Instant) -> Instant? {
        guard let publish = settings.publish, !core.stopping else { return nil }
        // The database stamped before anything is read: a write after shows in its stamp, one
        // before in data_version (which the runner's own writes leave alone). The config and the
        // calendars as they stood when they were read.
        let files = stateFiles.map { RunnerState.File(path: $0, stamp: readStamps[$0] ?? FileStamp.text(of: $0)) }
        guard let state = try? state(now: now, files: files) else {
            withdrawState()
            return nil
        }
        // The same answer is left as it was published, from its first `since`.
        if var last = published {
            last.since = now
            if last == state { return state.validUntil }
        }
        published = state
        publishedFile = true
        noteFailure(publish(state))
        return state.validUntil
    }

    /// The month before `today`'s figures kept as they stand (`MonthClose`), as the core asks at
    /// a month's first decision; why not, if they could not be. Written on the runner's own
    /// connection, which leaves its plan's data version as it was.
    func closeMonth(before today: CivilDate, now: Instant) -> String? {
        do {
            _ = try MonthClose.previous(before: today, store: store, now: now, clock: today, zone: settings.zone)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// Withdraws the published state (a calendar or zone file changed, the runner stops).
    func withdrawState() {
        guard let publish = settings.publish, publishedFile else { return }
        published = nil
        publishedFile = false
        noteFailure(publish(nil))
    }

    /// A failure to publish is logged once, until it changes: `next` plans meanwhile.
    private func noteFailure(_ failure: String?) {
        if let failure, failure != publishFailure { log(LogEntry("cannot publish the next reminder for `next`: \(failure)", priority: 4)) }
        publishFailure = failure
    }

    /// The state at `now`, or nil when the plan cannot tell it.
    private func state(now: Instant, files: [RunnerState.File]) throws -> RunnerState? {
        let plan = core.plan, settled = core.settledSincePlan, inFlight = core.inFlight
        guard try store.dataVersion() == core.planVersion else { return nil }
        func open(_ reminder: PlannedReminder) -> [DeliveryID] {
            reminder.channels.filter { reminder.settled[$0] == nil }.map { DeliveryID(reminder.key, $0) }
                .filter { !settled.contains($0) && !inFlight.contains($0) }
        }
        let next = plan.reminders.first { $0.isToGoOut && !open($0).isEmpty }
        let holds = Holds(paused: core.pausedOrLocked, held: Dictionary(core.held.map { ($0.id, $0.reason) }, uniquingKeysWith: { first, _ in first }))
        let zone = settings.zone
        let today = ISO8601.localDate(of: now, in: zone).date
        var validUntil = zone.resolve(.midnight, on: today.adding(days: 1)).instant
        let lookahead = Int64(RunnerState.lookaheadDays) * 86_400
        if let next, open(next).allSatisfy({ holds.held[$0] != nil }) {
            // Held (its server paused): so until it resumes, which is published then, or the
            // runner wakes for what comes next.
            guard let wake = core.nextWake, wake > now else { return nil }
            validUntil = min(validUntil, wake)
        } else if let next {
            guard next.fireAt > now, next.fireAt <= now.adding(seconds: lookahead) else { return nil }
            validUntil = min(validUntil, next.fireAt)
        } else {
            // Nothing in the plan: that says nothing for a year only if the plan reaches a year on.
            guard core.planEnds.adding(seconds: -lookahead) > now else { return nil }
            validUntil = min(validUntil, core.planEnds.adding(seconds: -lookahead))
        }
        if overdueCount.map({ $0.until <= now }) ?? true {
            let source = PlanReader(store: store, config: settings.config, zone: zone, zones: settings.zones)
            overdueCount = try source.overdue(at: now)
        }
        // A timed todo due later today becomes overdue at its time: the count changes then.
        if let until = overdueCount?.until { validUntil = min(validUntil, until) }
        return RunnerState(
            next: next, holds: holds, overdue: overdueCount?.count ?? 0, missed: try store.log.unacknowledgedMissedCount(),
            failed: try store.log.count(.failed),
            zone: zone.identifier, files: files, since: now, validUntil: validUntil)
    }
}
