import DawnletCore
import DawnletStore
import DawnletSystem
import FoundationEssentials
import Glibc

/// One thing the runner has to say: a line for people, and fields for the journal.
public struct LogEntry: Sendable {
    public let message: String
    /// 3 error, 4 warning, 6 info (syslog levels).
    public let priority: Int
    /// DAWNLET_KEY, DAWNLET_KIND, DAWNLET_CHANNEL, DAWNLET_OUTCOME, … when it is about a delivery.
    public let fields: [(String, String)]

    init(_ message: String, priority: Int = 6, fields: [(String, String)] = []) {
        self.message = message
        self.priority = priority
        self.fields = fields
    }
}

/// A problem that stops the runner from starting, with what to do about it.
public struct RunnerError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// `dawnlet-remind serve`: plans, sleeps on one CLOCK_REALTIME timer until the next
/// reminder, delivers what is due exactly once through the delivery log, and re-plans when the
/// database changes, on SIGHUP, when the clock or the zone changes, and when the horizon runs out.
/// SIGTERM/SIGINT end it with 0.
///
/// A thin loop: what to send, record as missed or retry, and when to wake is decided by
/// `Dispatcher.decide` (Core); the runner carries it out. Everything happens on the event loop's
/// thread with one database connection; the channels run on the same loop (`LoopChannels`).
public final class Runner {
    public struct Settings: Sendable {
        public var databasePath: String
        public var config: Config
        public var zone: Zone
        /// Where zones are read (and read again when their files change).
        public var zones: ZoneDatabase = .system
        /// The zone is the system's (no config or --tz): follow /etc/localtime when it changes.
        public var followsSystemZone = false
        /// What the system zone is read from (`TZ`).
        public var environment: [String: String] = ProcessInfo.processInfo.environment
        /// How long SIGTERM waits for deliveries in flight (s).
        public var shutdownBound: Int = 15
        /// The reminders (and digest lines) past which a plan ends, once it reaches a day ahead
        /// (see `replan`): 5,000 daily items never make a year's plan.
        public var planBudget: Int64 = 20_000
        /// Reads the config again (SIGHUP): the new config, the zone it makes and whether that is
        /// the system's, or an error that says why it cannot be used. Nil: SIGHUP only re-plans.
        public var reload: (@Sendable () throws -> (config: Config, zone: Zone, followsSystemZone: Bool))?
        /// The config file this runner read (nil: none), whose stamp the published state carries.
        public var configPath: String?
        /// Publishes what `next` shows (`RunnerState`) after each decision, or withdraws it (nil);
        /// returns what failed. Nil: nothing is published.
        public var publish: (@Sendable (RunnerState?) -> String?)?

        public init(
            databasePath: String, config: Config, zone: Zone, reload: (@Sendable () throws -> (config: Config, zone: Zone, followsSystemZone: Bool))? = nil
        ) {
            self.reload = reload
            self.databasePath = databasePath
            self.config = config
            self.zone = zone
        }

        public var policy: DeliveryPolicy { DeliveryPolicy(graceWindow: Int64(config.graceWindow)) }
    }

    var settings: Settings
    let log: (LogEntry) -> Void
    let store: Store
    let loop: EventLoop
    /// "Now", read once per event: the wall clock, or a test's.
    let clock: () -> Instant
    var channels: DeliveryChannels?
    private var wake: EventLoop.Timer?
    private var debounce: EventLoop.Timer?
    private var calendarDebounce: EventLoop.Timer?
    private var lock: FileLock?
    /// The database file this runner opened: when the path names another file, or none, it stops.
    private var databaseIdentity: FileIdentity?
    /// When the database began: nothing due before it is recorded missed.
    private var databaseBegan: Instant?
    /// What `run` returns: 0, or 1 when the database went away under it.
    private var exitCode: Int32 = 0
    private var watches: [AnyObject] = []
    /// The calendars' folder watches and their loop sources: replaced when a reload changes them.
    private var calendarWatches: [FolderWatch] = []
    private var calendarSources: [EventLoop.Source] = []
    /// The zone's files (/etc/localtime, the zone's own), watched; replaced when the zone changes.
    private var zoneWatches: [FolderWatch] = []
    private var zoneSources: [EventLoop.Source] = []
    private var zoneDebounce: EventLoop.Timer?

    /// The last plan, its window's end, and the database version it read.
    var plan = Plan(reminders: [])
    var planEnds = Instant(secondsSinceEpoch: 0)
    var planVersion: Int64 = -1
    /// The `now` of the last plan made: the next looks back to its grace window, no further.
    private var lastPlanNow: Instant?
    /// Where the change feed stood when the plan read the database: a write after it re-plans
    /// only what it changed (`PlanSource.splice`).
    private var changePosition: Int64?
    /// Deliveries handed to a channel and not yet ended; and those ended since the last plan
    /// (which still shows them unsettled).
    public private(set) var inFlight: Set<DeliveryID> = []
    var settledSincePlan: Set<DeliveryID> = []
    /// Temporary failures waiting for their next try.
    public private(set) var retries: [DeliveryID: Retry] = [:]
    /// The instant the wake timer is armed for (what `Dispatcher.decide` returned).
    public private(set) var nextWake: Instant?
    private var lastStatus = ""
    /// What the last plan said about unusable calendar files: logged again only when it changes.
    private var lastCalendarProblems: [CalendarProblem] = []
    var stopping = false
    /// What was last published for `next` (nil: nothing, or withdrawn), whether a file may be
    /// there (one left by a runner before this one, at first), the overdue count of a day (read
    /// again after each plan), and the timer that publishes again when the state runs out.
    var published: RunnerState?
    var publishedFile = true
    var publishFailure: String?
    /// The stamps of the config and the calendars as they stood before they were last read
    /// (`FileStamp.text(of:)`, by path from the root): a write after shows in `next`'s compare.
    var readStamps: [String: String] = [:]
    var overdueCount: (date: CivilDate, count: Int)?
    var stateTimer: EventLoop.Timer?
    private var shutdownBound: EventLoop.RelativeTimer?
    /// `decide` is running: a delivery that ends inside it (a channel that answers at once) asks
    /// for another round instead of deciding inside the decision.
    private var deciding = false
    private var decideAgain = false

    /// - Parameters:
    ///   - clock: "now" (default: the wall clock).
    ///   - channels: where messages go (default: the real channels on this runner's loop).
    public init(
        _ settings: Settings, clock: @escaping () -> Instant = { Instant(Date()) }, channels: DeliveryChannels? = nil,
        log: @escaping (LogEntry) -> Void
    ) throws {
        self.settings = settings
        self.log = log
        self.clock = clock
        if let path = settings.configPath { readStamps[ConfigPath.absolute(path)] = FileStamp.text(of: ConfigPath.absolute(path)) }
        store = try Store(path: settings.databasePath)
        databaseIdentity = FileIdentity(path: settings.databasePath)
        databaseBegan = try store.log.createdAt()
        loop = try EventLoop()
        wake = try loop.timer { [unowned self] in self.timerFired() }
        if let channels {
            self.channels = channels
        } else {
            let real = LoopChannels(loop: loop, settings: { [unowned self] in self.settings }, log: log)
            real.onAction = { [unowned self] id, action in self.act(on: id, action) }
            real.onClosed = { [unowned self] id, reason in self.closed(id, reason: reason) }
            self.channels = real
        }
    }

    /// Runs until SIGTERM or SIGINT; returns the exit code.
    public func run() throws -> Int32 {
        lock = try FileLock(path: settings.databasePath + ".lock")
        guard lock != nil else {
            throw RunnerError(message: "another dawnlet-remind serve is already running on \(settings.databasePath)")
        }
        debounce = try loop.timer { [unowned self] in self.databaseChanged() }
        calendarDebounce = try loop.timer { [unowned self] in self.replan(reason: "calendar files changed") }
        zoneDebounce = try loop.timer { [unowned self] in self.zoneFilesChanged() }
        stateTimer = try loop.timer { [unowned self] in
            self.overdueCount = nil
            self.publishState(now: self.clock())
        }
        try loop.onSignal(SIGHUP) { [unowned self] in
            ServiceNotify.send("RELOADING=1")
            self.reloadConfig()
            self.replan(reason: "SIGHUP")
            ServiceNotify.send("READY=1")
        }
        for (signal, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")] {
            try loop.onSignal(signal) { [unowned self] in self.stop(because: "\(name) received") }
        }
        try watchDatabaseFolder()
        watchCalendars()
        try watchClock()
        watchZone()
        loop.enableWatchdog()
        do { try store.log.noteRunnerStart(clock()) } catch { log(LogEntry("cannot note the start in the database: \(error)", priority: 4)) }
        start()
        ServiceNotify.send("READY=1")
        let code = try loop.run()
        log(LogEntry("stopped (exit \(code))", priority: code == 0 ? 6 : 3))
        return code
    }

    /// The first plan, and what it makes due.
    public func start() {
        replan(reason: "start")
    }

    /// inotify on the database's folder: a write by the CLI (to the database or its WAL) wakes the
    /// loop; changes are gathered for 100 ms, then checked against `PRAGMA data_version`.
    private func watchDatabaseFolder() throws {
        let watch = try FolderWatch(FolderWatch.parts(of: settings.databasePath).folder)
        watches.append(watch)
        try loop.onReadable(watch.fd) { [unowned self] in
            _ = watch.changedNames()
            self.arm(self.debounce, afterMicroseconds: 100_000)
        }
    }

    /// SIGHUP (`systemctl --user reload`): the config read again. A config that cannot be used is
    /// logged with its error and the one in use is kept; a good one replaces it, calendars and
    /// zone included.
    private func reloadConfig() {
        guard let reload = settings.reload else { return }
        let configStamp = settings.configPath.map { FileStamp.text(of: ConfigPath.absolute($0)) }
        do {
            let (config, zone, follows) = try reload()
            if let path = settings.configPath { readStamps[ConfigPath.absolute(path)] = configStamp }
            let calendarsChanged = config.calendars != settings.config.calendars
            settings.config = config
            settings.followsSystemZone = follows
            if zone.identifier != settings.zone.identifier {
                log(LogEntry("time zone changed from \(settings.zone.identifier) to \(zone.identifier)"))
            }
            settings.zone = zone
            watchZone()
            if calendarsChanged {
                for source in calendarSources { source.cancel() }
                calendarSources = []
                calendarWatches = []
                watchCalendars()
            }
            log(LogEntry("config read again"))
        } catch {
            log(LogEntry("config not read again: \(error); keeping the one in use", priority: 3))
        }
    }

    /// inotify on each calendar's folder (a vdir, or the folder of one file): a sync tool's
    /// write re-plans after 200 ms of quiet. A calendar whose folder is missing is not watched
    /// (each plan reports it).
    private func watchCalendars() {
        for source in settings.config.calendars {
            let path = ConfigPath.expand(source.path)
            var isFolder = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            let folder = isFolder ? path : FolderWatch.parts(of: path).folder
            let file = isFolder ? nil : FolderWatch.parts(of: path).name
            do {
                let watch = try FolderWatch(folder)
                calendarWatches.append(watch)
                calendarSources.append(
                    try loop.watch(watch.fd, events: EventLoop.readable) { [unowned self] _ in
                        let names = watch.changedNames()
                        guard file.map({ names.contains($0) }) ?? names.contains(where: { $0.lowercased().hasSuffix(".ics") }) else { return }
                        // `next` cannot stamp every file of a folder: the state goes until the plan is made again.
                        self.withdrawState()
                        self.arm(self.calendarDebounce, afterMicroseconds: 200_000)
                    })
            } catch {
                log(LogEntry("calendar \(source.name): cannot watch \(folder): \(error); changes are seen at the next plan", priority: 4))
            }
        }
    }

    /// The clock being set re-plans at once (the timer's instant may now be past, or far off).
    private func watchClock() throws {
        let watch = try ClockChangeWatch()
        watches.append(watch)
        let retry = EventLoop.RelativeTimer(loop: loop)
        watches.append(retry)
        func rearm() {
            do {
                try watch.arm()
            } catch {
                log(LogEntry("cannot watch the clock again: \(error); trying again in 1 s", priority: 3))
                do { try retry.arm(afterMicroseconds: 1_000_000) } catch { log(LogEntry("cannot watch the clock again: \(error)", priority: 3)) }
            }
        }
        retry.handler = rearm
        try loop.onReadable(watch.fd) { [unowned self] in
            guard watch.clockWasSet() else { return }
            rearm()
            self.replan(reason: "the clock was set")
        }
    }

    /// The files the zone's rules come from: /etc/localtime (and /etc/timezone) when the zone is
    /// the system's, and the zone's own file (`apt upgrade` of tzdata replaces it). Either changed:
    /// `zoneFilesChanged`, after 200 ms (a package writes several files).
    private func watchZone() {
        for source in zoneSources { source.cancel() }
        zoneSources = []
        zoneWatches = []
        var wanted: [String: Set<String>] = [:]
        if settings.followsSystemZone { wanted["/etc", default: []].formUnion(["localtime", "timezone"]) }
        let file = FolderWatch.parts(of: settings.zones.file(of: settings.zone.identifier))
        wanted[file.folder, default: []].insert(file.name)
        for (folder, names) in wanted.sorted(by: { $0.key < $1.key }) {
            do {
                let watch = try FolderWatch(folder)
                zoneWatches.append(watch)
                zoneSources.append(
                    try loop.watch(watch.fd, events: EventLoop.readable) { [unowned self] _ in
                        guard !watch.changedNames().isDisjoint(with: names) else { return }
                        self.withdrawState()
                        self.arm(self.zoneDebounce, afterMicroseconds: 200_000)
                    })
            } catch {
                log(LogEntry("cannot watch \(folder) for time zone changes: \(error)", priority: 4))
            }
        }
    }

    /// The zone's files changed: read the zone again (the system's, or the one named) and re-plan
    /// when its name or rules differ. A file that cannot be read keeps the rules in use.
    private func zoneFilesChanged() {
        settings.zones.forget()
        let zone: Zone
        do {
            zone =
                settings.followsSystemZone
                ? try settings.zones.systemZone(environment: settings.environment)
                : try settings.zones.zone(named: settings.zone.identifier)
        } catch {
            log(LogEntry("time zone \(settings.zone.identifier) cannot be read again: \(error); keeping the rules in use", priority: 4))
            return
        }
        guard zone != settings.zone else { return }
        log(
            LogEntry(
                zone.identifier == settings.zone.identifier
                    ? "time zone \(zone.identifier): its rules changed on disk"
                    : "time zone changed from \(settings.zone.identifier) to \(zone.identifier)"))
        zoneChanged(to: zone)
    }

    /// Arms a timer; a failure is logged (the next event re-arms it).
    func arm(_ timer: EventLoop.Timer?, afterMicroseconds microseconds: UInt64) {
        do { try timer?.arm(afterMicroseconds: microseconds) } catch { log(LogEntry("cannot arm a timer: \(error)", priority: 3)) }
    }

    /// The configured zone changed (/etc/localtime, or a test): wall times move, so plan again.
    public func zoneChanged(to zone: Zone) {
        let moved = zone.identifier != settings.zone.identifier
        settings.zone = zone
        if moved && zoneDebounce != nil { watchZone() }
        replan(reason: "the time zone changed")
    }

    private func databaseChanged() {
        if let lost = databaseLost() {
            log(
                LogEntry(
                    "database \(DisplayText.escaped(settings.databasePath)) \(lost) while serve ran; stopping, so that it starts again on the file now there",
                    priority: 3))
            exitCode = 1
            return stop(because: "the database \(lost)")
        }
        let version = (try? store.dataVersion()) ?? -1
        guard version != planVersion else { return }
        update(reason: "database changed")
    }

    /// After another process wrote: the plan made again for what the change feed says it wrote,
    /// spliced into the plan there is; a whole plan when the feed cannot say (a setting, a
    /// stretch it dropped, more than a few hundred rows) or a read fails.
    private func update(reason: String) {
        let now = clock()
        guard let position = changePosition, now < planEnds else { return replan(reason: reason, now: now) }
        let started = ContinuousClock.now
        let changes: PlanChanges
        do {
            let version = try store.dataVersion()
            changes = try store.changes(after: position)
            if changes.wholePlan { return replan(reason: reason, now: now) }
            let window = planStart(now: now)...planEnds
            let source = PlanSource(store: store, config: settings.config, zone: settings.zone, zones: settings.zones)
            guard try changes.sources.isEmpty || source.splice(&plan, changes: changes.sources, now: now, window: window) else {
                return replan(reason: reason, now: now)
            }
            planVersion = version
        } catch {
            return replan(reason: reason, now: now)
        }
        // Splices that added more than the budget again: a whole plan, which ends where it fits.
        if Int64(plan.reminders.count) > 2 * settings.planBudget { return replan(reason: reason, now: now) }
        changePosition = changes.position
        lastPlanNow = now
        overdueCount = nil
        let took = ContinuousClock.now - started
        decide(now: now, announce: false)
        ServiceNotify.send("STATUS=" + lastStatus)
        let what = changes.sources.count == 1 ? "1 item" : "\(changes.sources.count) items"
        log(LogEntry("planned (\(reason), \(what) changed): \(lastStatus) (\(Runner.cost(plan, took)))"))
    }

    /// Where a plan made at `now` starts: the last plan's grace window back (what came due before
    /// was decided then), or a week past it for the first, so what was missed is recorded.
    private func planStart(now: Instant) -> Instant {
        min(lastPlanNow ?? now.adding(seconds: -Runner.missedLookback), now).adding(seconds: -Int64(settings.config.graceWindow))
    }

    /// "1234 reminders in 3.2 ms": what a plan holds and what making it cost.
    static func cost(_ plan: Plan, _ took: Duration) -> String {
        let milliseconds = Double(took.components.seconds) * 1000 + Double(took.components.attoseconds) / 1e15
        return "\(plan.reminders.count) reminder\(plan.reminders.count == 1 ? "" : "s") in \((milliseconds * 10).rounded() / 10) ms"
    }

    /// Why the database (or the lock that keeps a second runner off it) is no longer this
    /// runner's, or nil: deleted, or replaced by another file (a restore, a move).
    private func databaseLost() -> String? {
        guard let opened = databaseIdentity else { return nil }
        switch FileIdentity(path: settings.databasePath) {
        case nil: return "was deleted or moved away"
        case opened?: break
        default: return "was replaced by another file"
        }
        if let lock, !lock.isStillAtPath { return "lost its lock file \(DisplayText.escaped(lock.path))" }
        return nil
    }

    /// The wake timer: decide again on the plan as it is, unless the database changed since it
    /// was made or its window ran out (then plan first).
    public func timerFired() {
        let now = clock()
        if now >= planEnds {
            replan(reason: "timer", now: now)
        } else if (try? store.dataVersion()) != planVersion {
            update(reason: "database changed")
        } else {
            decide(now: now)
        }
    }

    /// Plans from now and does what the plan makes due.
    public func replan(reason: String) {
        replan(reason: reason, now: clock())
    }

    private func replan(reason: String, now: Instant) {
        let config = settings.config
        // Looking a week past the grace window back finds what was missed while the machine was
        // off, so it is recorded (and listed by `missed`) instead of silently dropped.
        // After the first plan, back only to the last plan's grace window: what came due before
        // it was decided then (a clock that jumped ahead is covered, as the last plan's now is kept).
        let back = planStart(now: now)
        // The horizon, streamed in time order, kept until it holds `planBudget` reminders (a digest
        // counts what it lists) and at least a day ahead; then the plan ends just before the first
        // reminder it leaves out, and the timer re-plans there. One pass, whatever the database:
        // a few items are known however far off, 5,000 daily items never make a year's plan.
        let window = back...now.adding(seconds: Int64(config.horizon))
        let started = ContinuousClock.now
        var took = Duration.zero
        do {
            planVersion = try store.dataVersion()
            changePosition = try store.changePosition()
            let source = PlanSource(store: store, config: config, zone: settings.zone, zones: settings.zones)
            // The calendars are read by this plan (and not by a splice): stamped first.
            for path in RunnerState.calendarFiles(config.calendars) {
                readStamps[path] = FileStamp.text(of: path)
            }
            var reminders: [PlannedReminder] = []
            // Room for the budget at once: an array that grows by doubling holds two copies at
            // each step (pages never written are never resident).
            reminders.reserveCapacity(Int(min(settings.planBudget, 1 << 20)) + 1)
            var size: Int64 = 0
            var ends = window.upperBound
            let dayAhead = now.adding(seconds: Runner.planAhead)
            let problems = try source.forEachReminder(now: now, window: window) { reminder in
                if size >= settings.planBudget, reminder.fireAt > dayAhead, let last = reminders.last, reminder.fireAt > last.fireAt {
                    ends = reminder.fireAt.adding(seconds: -1)
                    return false
                }
                reminders.append(reminder)
                size += 1 + Int64(reminder.items.count)
                return true
            }
            plan = Plan(reminders: reminders, calendarProblems: problems)
            overdueCount = nil
            planEnds = ends
            took = ContinuousClock.now - started
            lastPlanNow = now
            settledSincePlan = []
        } catch {
            // The database may be locked by a long write: try again shortly rather than give up.
            log(LogEntry("plan failed (\(reason)): \(error); retrying in 5 s", priority: 3))
            armWake(at: now.adding(seconds: 5))
            return
        }
        if plan.calendarProblems != lastCalendarProblems {
            for problem in plan.calendarProblems { log(LogEntry("calendar \(problem)", priority: 4)) }
            lastCalendarProblems = plan.calendarProblems
        }
        let before = lastStatus
        decide(now: now, announce: false)
        // Every plan says where it stands, changed or not (once): systemd shows it, and a watcher
        // can tell the plan was made.
        ServiceNotify.send("STATUS=" + lastStatus)
        if reason != "timer" {
            // What the plan holds and what making it cost: where a slow re-plan shows.
            log(LogEntry("planned (\(reason)): \(lastStatus) (\(Runner.cost(plan, took)))"))
        } else if lastStatus != before {
            log(LogEntry(lastStatus))
        }
    }

    /// Asks `Dispatcher.decide` what to do now, does it, and arms the timer where it says. With
    /// `announce`, a new next reminder is told to systemd and logged (a plan tells its own).
    private func decide(now: Instant, announce: Bool = true) {
        guard !stopping else { return }
        if deciding { return decideAgain = true }
        deciding = true
        defer { deciding = false }
        var decision: Decision
        var wake: Instant
        repeat {
            decideAgain = false
            decision = Dispatcher.decide(
                plan.reminders, inFlight: inFlight, settled: settledSincePlan, retries: retries, now: now,
                policy: settings.policy, planEnds: planEnds)
            for missed in decision.missed { recordMissed(missed, now: now) }
            // Claims that could not be written are tried again in a second.
            wake = start(decision.sends, now: now) ? decision.nextWake : min(decision.nextWake, now.adding(seconds: 1))
        } while decideAgain && !stopping
        armWake(at: wake)
        let when = ISO8601.format(decision.nextWake, in: settings.zone)
        let next = plan.reminders.first { $0.fireAt == decision.nextWake && $0.fireAt > now }
        let status = next.map { "next: \($0.title) (\($0.key)) at \(when)" } ?? "nothing due before \(when)"
        if status != lastStatus {
            lastStatus = status
            if announce {
                ServiceNotify.send("STATUS=" + status)
                log(LogEntry(status))
            }
        }
        publishState(now: now)
    }

    private func armWake(at instant: Instant) {
        nextWake = instant
        do {
            try wake?.arm(atMicroseconds: UInt64(max(0, instant.secondsSinceEpoch)) * 1_000_000)
        } catch {
            // Without its timer the runner would sleep for ever: say so, and try again in a second.
            log(LogEntry("cannot arm the wake timer: \(error); trying again in 1 s", priority: 3))
            arm(wake, afterMicroseconds: 1_000_000)
        }
    }

    private func recordMissed(_ missed: Decision.Missed, now: Instant) {
        let reminder = missed.reminder
        let id = DeliveryID(reminder.key, missed.channel)
        // Due before the database began (a series added with a start in the past): never
        // anyone's to miss. Left out until the next plan, which leaves it out again.
        if let began = databaseBegan, reminder.fireAt < began {
            settledSincePlan.insert(id)
            return
        }
        do {
            try store.log.recordMissed(id, kind: reminder.kind, title: reminder.title, fireAt: reminder.fireAt, now: now)
            settledSincePlan.insert(id)
            retries[id] = nil
            log(
                LogEntry(
                    "missed \(id) \(Runner.about(reminder, in: settings.zone))",
                    priority: 4, fields: Runner.fields(reminder.key, reminder.kind, missed.channel, "missed")))
        } catch {
            log(LogEntry("cannot record \(id) as missed: \(error)", priority: 3))
        }
    }

    /// Claims every reminder of the sends on its channel, all in one transaction, then hands
    /// each message over.
    private func start(_ sends: [Decision.Send], now: Instant) -> Bool {
        guard !sends.isEmpty else { return true }
        var claims: [Store.Log.Claim] = []
        for send in sends {
            for reminder in send.reminders {
                let id = DeliveryID(reminder.key, send.channel)
                guard !inFlight.contains(id) && !settledSincePlan.contains(id) else { continue }
                claims.append(Store.Log.Claim(id, kind: reminder.kind, title: reminder.title, fireAt: reminder.fireAt, late: send.late))
            }
        }
        let owned: [Bool]
        do {
            owned = try store.log.claim(claims, now: now)
        } catch {
            // Nothing was claimed: the next decision tries again (a locked database lets go soon).
            log(LogEntry("cannot claim \(claims.count) deliveries: \(error); trying again in 1 s", priority: 3))
            return false
        }
        var mine = Set<DeliveryID>()
        for (claim, owns) in zip(claims, owned) {
            if owns { mine.insert(claim.id) } else { settledSincePlan.insert(claim.id) }
        }
        for send in sends {
            hand(send, send.reminders.filter { mine.contains(DeliveryID($0.key, send.channel)) }, now: now)
        }
        return true
    }

    /// Hands one send's claimed reminders to its channel: one message, or one summary.
    private func hand(_ send: Decision.Send, _ claimed: [PlannedReminder], now: Instant) {
        guard !claimed.isEmpty, let channels else { return }
        let message: ReminderMessage
        if claimed.count > 1 {
            message = ReminderMessage.summary(of: claimed, when: ISO8601.format(now, in: settings.zone))
        } else {
            message = ReminderMessage(claimed[0], late: send.late)
        }
        let ids = claimed.map { DeliveryID($0.key, send.channel) }
        inFlight.formUnion(ids)
        let replacing = claimed.count == 1 && send.channel == .desktop ? (try? store.log.notificationID(ids[0])) ?? nil : nil
        channels.deliver(message, through: send.channel, replacing: replacing) { [unowned self] outcome in
            self.finished(ids, claimed, send, message, outcome)
        }
    }

    /// A channel said how a delivery ended: tried again later, or recorded; then decide again.
    private func finished(
        _ ids: [DeliveryID], _ reminders: [PlannedReminder], _ send: Decision.Send, _ message: ReminderMessage,
        _ outcome: DeliveryOutcome
    ) {
        let now = clock()
        inFlight.subtract(ids)
        let failures = send.failures + 1
        if outcome.state == .failed, outcome.retry, stopping {
            // Stopping: it stays claimed, and the next start tries it again.
            log(
                LogEntry(
                    "\(message.key)@\(send.channel) \(Runner.about(reminders, in: settings.zone)) failed (\(outcome.detail ?? "")); left claimed for the next start",
                    priority: 4))
        } else if outcome.state == .failed, outcome.retry, let at = settings.policy.retry(after: failures, deadline: send.deadline, now: now) {
            for id in ids { retries[id] = Retry(failures: failures, at: at) }
            log(
                LogEntry(
                    "\(message.key)@\(send.channel) \(Runner.about(reminders, in: settings.zone)) failed (\(outcome.detail ?? "")); trying again at \(ISO8601.format(at, in: settings.zone))",
                    priority: 4, fields: ids.flatMap { Runner.fields($0.key, message.kind, send.channel, "retry") }))
        } else {
            var detail = outcome.detail
            // A temporary failure with no try left (the backoff spent, or the grace window over):
            // the reminder was missed, and is recorded, listed and shown so.
            let state: Delivery.State = outcome.state == .failed && outcome.retry ? .missed : outcome.state
            if state == .missed {
                detail = [detail, "gave up after \(failures) attempt\(failures == 1 ? "" : "s")"].compactMap { $0 }.joined(separator: "; ")
            } else if send.failures > 0 {
                detail = [detail, "after \(failures) attempts"].compactMap { $0 }.joined(separator: "; ")
            }
            if reminders.count > 1 { detail = [detail, "in one summary of \(reminders.count)"].compactMap { $0 }.joined(separator: "; ") }
            for (id, reminder) in zip(ids, reminders) {
                retries[id] = nil
                settledSincePlan.insert(id)
                do {
                    try store.log.finish(id, state: state, detail: detail, notificationID: outcome.notificationID, now: now)
                } catch {
                    log(LogEntry("cannot record \(id): \(error)", priority: 3))
                }
                log(
                    LogEntry(
                        "\(state.rawValue) \(id) \(Runner.about(reminder, in: settings.zone))\(message.late ? " (late)" : "")\(detail.map { ": \($0)" } ?? "")",
                        priority: state == .delivered ? 6 : 4,
                        fields: Runner.fields(reminder.key, reminder.kind, send.channel, state.rawValue)
                            + [("DAWNLET_LATE", message.late ? "1" : "0")]))
            }
        }
        if stopping {
            if inFlight.isEmpty { loop.exit(exitCode) }
            return
        }
        decide(now: now)
    }

    /// SIGTERM/SIGINT: says STOPPING, starts nothing new, gives deliveries in flight a bounded
    /// time, exits 0. A delivery abandoned here stays claimed and is retried on the next start.
    private func stop(because reason: String) {
        log(LogEntry("stopping: \(reason)" + (inFlight.isEmpty ? "" : "; \(inFlight.count) deliveries in flight")))
        ServiceNotify.send("STOPPING=1")
        stopping = true
        withdrawState()
        try? wake?.disarm()
        if inFlight.isEmpty { return loop.exit(exitCode) }
        do {
            let bound = EventLoop.RelativeTimer(loop: loop) { [unowned self] in
                self.log(LogEntry("stopping with deliveries in flight: they stay claimed and are retried at the next start", priority: 4))
                CommandRunner.killAll()
                self.loop.exit(self.exitCode)
            }
            shutdownBound = bound
            try bound.arm(afterMicroseconds: UInt64(settings.shutdownBound) * 1_000_000)
        } catch {
            log(LogEntry("cannot bound the shutdown: \(error)", priority: 3))
            loop.exit(exitCode)
        }
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

    static func fields(_ key: ReminderKey, _ kind: String, _ channel: Channel, _ outcome: String) -> [(String, String)] {
        [("DAWNLET_KEY", key.description), ("DAWNLET_KIND", kind), ("DAWNLET_CHANNEL", channel.rawValue), ("DAWNLET_OUTCOME", outcome)]
    }

    /// How far before the grace window a start looks for missed reminders: a week.
    static let missedLookback: Int64 = 7 * 86_400

    /// How far ahead a plan always reaches, however much it holds: a day.
    static let planAhead: Int64 = 86_400
}
