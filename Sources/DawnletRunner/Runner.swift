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
    /// When it was said, by the runner's clock (stamped as it is written).
    public internal(set) var at: Instant?

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

/// `dawnlet-remind serve`: plans, sleeps on one wall-clock timer until the next reminder,
/// delivers what is due exactly once through the delivery log, and re-plans when the database
/// changes, on SIGHUP, when the clock or the zone changes, and when the horizon runs out.
/// SIGTERM/SIGINT end it with 0.
///
/// A thin shell around `RunnerCore`, which decides everything: every timer, watch, signal and
/// channel answer becomes a `RunnerEvent`, and the shell carries out the `RunnerEffect`s the core
/// returns, in order, answering each request at once. Everything happens on the event loop's
/// thread with one database connection; the channels run on the same loop (`LoopChannels`), and
/// time comes from one `Scheduler` (the loop's, or a test's).
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
        /// How long SIGTERM waits for deliveries in flight.
        public var shutdownBound: Duration = .seconds(15)
        /// The reminders (and digest lines) past which a plan ends, once it reaches a day ahead:
        /// 5,000 daily items never make a year's plan.
        public var planBudget: Int64 = 20_000
        /// Reads the config again (SIGHUP): the new config, the zone it makes and whether that is
        /// the system's, or an error that says why it cannot be used. Nil: SIGHUP only re-plans.
        public var reload: (@Sendable () throws -> (config: Config, zone: Zone, followsSystemZone: Bool))?
        /// The config file this runner read (nil: none), whose stamp the published state carries.
        public var configPath: String?
        /// How a terminal reaches this runner's database: the program's name, with the `--db` and
        /// `--config` it was given. An email's answer commands start with it.
        public var commandLine = "dawnlet-remind"
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

        public var policy: DeliveryPolicy { DeliveryPolicy(config: config) }
    }

    /// The decisions, and everything they are made from.
    var core: RunnerCore
    private let sink: (LogEntry) -> Void
    let store: Store
    let loop: EventLoop
    let scheduler: Scheduler
    var channels: DeliveryChannels?
    var lock: FileLock?
    /// The database file this runner opened: when the path names another file, or none, it stops.
    var databaseIdentity: FileIdentity?
    var watches: [AnyObject] = []
    /// Tells when the wall clock is set (its watch is armed again after each time).
    var clockWatch: ClockChangeWatch?
    /// The calendars' folder watches and their loop sources: replaced when a reload changes them.
    var calendarWatches: [FolderWatch] = []
    var calendarSources: [EventLoop.Source] = []
    /// The zone's files (/etc/localtime, the zone's own), watched; replaced when the zone changes.
    var zoneWatches: [FolderWatch] = []
    var zoneSources: [EventLoop.Source] = []
    var running = false
    /// The fire path has been gone through once (`rehearseFire`), after the first plan.
    var rehearsed = false

    /// What was last published for `next` (nil: nothing, or withdrawn), whether a file may be
    /// there (one left by a runner before this one, at first), the last failure to publish, the
    /// stamps of the files read before they were read, and the overdue count of a day.
    var published: RunnerState?
    var publishedFile = true
    var publishFailure: String?
    var readStamps: [String: String] = [:]
    /// The calendar files kept parsed between plans: a re-plan reads only those changed.
    let calendarCache = CalendarReader.Cache()
    var overdueCount: (count: Int, until: Instant)?
    /// When the last plan or splice began reading, and when the core had made it and decided on
    /// it: what the "planned" line says it cost.
    var planMeasured: (started: Duration?, handled: Duration?) = (nil, nil)
    /// Our notifications the server has not yet said are closed: closed here when their reminder
    /// is answered elsewhere.
    var onScreen: Set<UInt32> = []
    /// The screen savers' word on whether the screen is locked (`Runner+ScreenLock`).
    var screenLock: ScreenLock?
    /// What each digest on screen shows: shown again when a line of it is answered elsewhere.
    var digestsShown: [UInt32: ReminderMessage] = [:]
    /// This process as the delivery log names the poster of a notification (`PID:START`).
    let process = ProcessIdentity.current.map { "\($0.pid):\($0.started)" } ?? "\(getpid())"
    /// The export folder's watch; the store's change position last looked at for it; the items
    /// to write again (nil: every one); the namespace of the file names that are ours.
    var exportWatch: FolderWatch?
    var exportSource: EventLoop.Source?
    var exportPosition: Int64 = 0
    var exportPending: Set<PlanChanges.Item>? = []
    var exportNamespace: String?
    /// The export folder was made anew (not there at start, or there again): the next pass writes
    /// every file, none taken as deleted elsewhere.
    var exportFresh = false
    /// The export folder's paths where something not ours stands, and what was said of each.
    var exportLeftAlone: [String: String] = [:]

    public var settings: Settings { core.settings }
    public var nextWake: Instant? { core.nextWake }
    public var inFlight: Set<DeliveryID> { core.inFlight }
    public var retries: [DeliveryID: Retry] { core.retries }

    /// - Parameters:
    ///   - scheduler: the clock and the timers (default: the event loop's).
    ///   - channels: where messages go (default: the real channels on this runner's loop).
    public init(_ settings: Settings, scheduler: Scheduler? = nil, channels: DeliveryChannels? = nil, log: @escaping (LogEntry) -> Void) throws {
        sink = log
        if let path = settings.configPath { readStamps[ConfigPath.absolute(path)] = FileStamp.text(of: ConfigPath.absolute(path)) }
        store = try Store(path: settings.databasePath)
        databaseIdentity = FileIdentity(path: settings.databasePath)
        core = RunnerCore(settings: settings, databaseBegan: try store.log.createdAt())
        loop = try EventLoop()
        self.scheduler = scheduler ?? LoopScheduler(loop: loop)
        self.scheduler.fired = { [unowned self] timer in self.fired(timer) }
        if let channels {
            self.channels = channels
        } else {
            let real = LoopChannels(
                loop: loop, clock: { [unowned self] in self.scheduler.now }, settings: { [unowned self] in self.settings },
                log: { [unowned self] in self.log($0) })
            real.onResponse = { [unowned self] id, response in self.send(.notificationResponse(id, response)) }
            // Held only where the config holds them: else they go through the fallback.
            real.onPaused = { [unowned self] paused in self.send(.desktopPaused(paused && self.settings.config.desktop.whilePaused == .hold)) }
            real.onDoNotDisturb = { [unowned self] on in self.send(.desktopDoNotDisturb(on && self.settings.config.desktop.whilePaused == .hold)) }
            self.channels = real
        }
    }

    /// Runs until SIGTERM or SIGINT; returns the exit code.
    public func run() throws -> Int32 {
        lock = try FileLock(path: settings.databasePath + ".lock")
        guard lock != nil else {
            throw RunnerError(message: "another dawnlet-remind serve is already running on \(settings.databasePath)")
        }
        running = true
        try loop.onSignal(SIGHUP) { [unowned self] in self.send(.reload) }
        for (signal, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")] {
            try loop.onSignal(signal) { [unowned self] in self.send(.stop(reason: "\(name) received", exitCode: 0)) }
        }
        try watchDatabaseFolder()
        watchCalendars()
        beginExport()
        takeOverNotifications()
        watchScreenLock()
        try watchClock()
        watchZone()
        do {
            try loop.enableWatchdog()
        } catch {
            // systemd restarts the service when WatchdogSec runs out with no word from it: said why.
            log(LogEntry("cannot keep systemd's watchdog: \(error); systemd will restart serve when WatchdogSec runs out", priority: 3))
        }
        rehearse()
        do { try store.log.noteRunnerStart(scheduler.now) } catch { log(LogEntry("cannot note the start in the database: \(error)", priority: 4)) }
        start()
        ServiceNotify.send("READY=1")
        let code = try loop.run()
        log(LogEntry("stopped (exit \(code))", priority: code == 0 ? 6 : 3))
        return code
    }

    /// What the first reminders due would otherwise pay for when they fire, paid as it starts:
    /// the spawn attributes and /dev/null (`CommandRunner.prepare`), the claim's statement
    /// compiled, and a command's argv expanded once from a message's values. Nothing is written
    /// or started. A claim that cannot be compiled now is compiled, or reported, when it is needed.
    private func rehearse() {
        CommandRunner.prepare()
        try? store.log.prepareClaim()
        let message = ReminderMessage(title: "", body: "", key: .test(scheduler.now), when: "", late: false)
        _ = CommandTemplate.expand(settings.config.command.argv, message.templateValues)
    }

    /// The decisions the next reminders will be met with when they fire, taken once on a copy of
    /// the core (a value: nothing is claimed, written or started, and the runner's own core is
    /// untouched), and their commands' argv expanded: the Swift runtime resolves at this first run
    /// the types and conformances the fire path uses, instead of at the first reminder due.
    private func rehearseFire() {
        guard let next = core.plan.reminders.first(where: { $0.fireAt > scheduler.now }) else { return }
        var copy = core
        let effects = copy.handle(.wake(dataVersion: copy.planVersion), now: next.fireAt)
        for case .claim(let claims, let now) in effects {
            for case .deliver(let ticket) in copy.handle(.claimed(.success(claims.map { _ in true })), now: now) where ticket.send.channel == .command {
                _ = CommandTemplate.expand(settings.config.command.argv, ticket.message.templateValues)
            }
        }
    }

    /// The first plan, and what it makes due.
    public func start() { send(.start) }

    /// Plans from now and does what the plan makes due.
    public func replan(reason: PlanReason) { send(.replan(reason: reason)) }

    /// The wake timer: decide again on the plan as it is, unless the database changed since it
    /// was made or its window ran out (then plan first).
    public func timerFired() {
        // A reminder is due: where Do Not Disturb is learned only by asking (mako), it is asked now.
        (channels as? LoopChannels)?.askDoNotDisturbAgain()
        send(.wake(dataVersion: try? store.dataVersion()))
    }

    /// Hands the core an event at the scheduler's now, and carries out what it says.
    func send(_ event: RunnerEvent) {
        let effects = core.handle(event, now: scheduler.now)
        switch event {
        case .planned, .changesRead: planMeasured.handled = scheduler.elapsed
        default: break
        }
        for effect in effects { perform(effect) }
        if !rehearsed, case .planned = event {
            rehearsed = true
            rehearseFire()
        }
    }

    func log(_ entry: LogEntry) {
        var stamped = entry
        stamped.at = scheduler.now
        sink(stamped)
    }

    /// A timer the scheduler fired.
    private func fired(_ timer: TimerName) {
        switch timer {
        case .wake, .wakeRetry: timerFired()
        default: send(.timerFired(timer))
        }
    }

    /// Changes the settings through the core (a config read again, a zone that changed).
    func change(_ body: (inout Settings) -> Void) {
        var new = core.settings
        body(&new)
        send(.settingsChanged(new))
    }

    /// The configured zone changed (/etc/localtime, or a test): wall times move, so plan again.
    public func zoneChanged(to zone: Zone) {
        let moved = zone.identifier != settings.zone.identifier
        change { $0.zone = zone }
        if moved && running { watchZone() }
        send(.replan(reason: .zoneChanged))
    }
}
