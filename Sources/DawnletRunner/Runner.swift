import DawnletCore
import DawnletStore
import DawnletSystem
import Dispatch
import Foundation
import Synchronization

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

/// `dawnlet-remind serve` (DESIGN §6): plans, sleeps on one CLOCK_REALTIME timer until the next
/// reminder, delivers what is due exactly once through the delivery log, and re-plans when the
/// database changes, on SIGHUP, and when the horizon runs out. SIGTERM/SIGINT end it with 0.
///
/// All planning and claiming happens on the event loop's thread with one connection; each
/// delivery runs on a worker thread with a connection of its own, so a hanging command delays
/// nothing else.
public final class Runner {
    public struct Settings: Sendable {
        public var databasePath: String
        public var config: Config
        public var zone: TimeZone
        /// The zone is the system's (no config or --tz): follow /etc/localtime when it changes.
        public var followsSystemZone = false
        /// How long a late-starting delivery may still be marked on time (s).
        public var lateAfter: Int64 = 60
        /// How long SIGTERM waits for deliveries in flight (s).
        public var shutdownBound: Int = 15

        public init(databasePath: String, config: Config, zone: TimeZone) {
            self.databasePath = databasePath
            self.config = config
            self.zone = zone
        }
    }

    var settings: Settings
    let log: @Sendable (LogEntry) -> Void
    let store: Store
    let loop: EventLoop
    private var wake: EventLoop.Timer?
    private var debounce: EventLoop.Timer?
    private var calendarDebounce: EventLoop.Timer?
    private var lastDataVersion: Int64 = -1
    /// The reminders the timer is armed for: delivered the moment it fires.
    private var armedFor: [PlannedReminder] = []
    /// What the last plan said about unusable calendar files: logged again only when it changes.
    private var lastCalendarProblems: [CalendarProblem] = []
    let inFlight = InFlight()
    let deliveries = DispatchGroup()
    private var lock: FileLock?
    private var watches: [AnyObject] = []
    /// The session bus connection of the desktop channel, opened at the first desktop reminder.
    var notifications: NotificationBus?

    public init(_ settings: Settings, log: @escaping @Sendable (LogEntry) -> Void) throws {
        self.settings = settings
        self.log = log
        store = try Store(path: settings.databasePath)
        loop = try EventLoop()
    }

    /// Runs until SIGTERM or SIGINT; returns the exit code.
    public func run() throws -> Int32 {
        lock = try FileLock(path: settings.databasePath + ".lock")
        guard lock != nil else {
            throw RunnerError(message: "another dawnlet-remind serve is already running on \(settings.databasePath)")
        }
        wake = try loop.timer { [unowned self] in self.wakeUp() }
        debounce = try loop.timer { [unowned self] in self.databaseChanged() }
        calendarDebounce = try loop.timer { [unowned self] in self.replan(reason: "calendar files changed") }
        try loop.onSignal(SIGHUP) { [unowned self] in
            ServiceNotify.send("RELOADING=1")
            self.replan(reason: "SIGHUP")
            ServiceNotify.send("READY=1")
        }
        for signal in [SIGTERM, SIGINT] { try loop.onSignal(signal) { [unowned self] in self.stop() } }
        try watchDatabaseFolder()
        watchCalendars()
        try watchClock()
        if settings.followsSystemZone { try watchSystemZone() }
        loop.enableWatchdog()
        replan(reason: "start")
        ServiceNotify.send("READY=1")
        return try loop.run()
    }

    /// inotify on the database's folder: a write by the CLI (to the database or its WAL) wakes the
    /// loop; changes are gathered for 100 ms, then checked against `PRAGMA data_version`.
    private func watchDatabaseFolder() throws {
        let folder = (settings.databasePath as NSString).deletingLastPathComponent
        let watch = try FolderWatch(folder.isEmpty ? "." : folder)
        watches.append(watch)
        try loop.onReadable(watch.fd) { [unowned self] in
            _ = watch.changedNames()
            self.arm(self.debounce, afterMicroseconds: 100_000)
        }
    }

    /// inotify on each calendar's folder (a vdir, or the folder of one file): a sync tool's
    /// write re-plans after 200 ms of quiet. A calendar whose folder is missing is not watched
    /// (each plan reports it).
    private func watchCalendars() {
        for source in settings.config.calendars {
            let path = ConfigPath.expand(source.path)
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            let folder = isFolder.boolValue ? path : (path as NSString).deletingLastPathComponent
            let file = isFolder.boolValue ? nil : (path as NSString).lastPathComponent
            do {
                let watch = try FolderWatch(folder.isEmpty ? "." : folder)
                watches.append(watch)
                try loop.onReadable(watch.fd) { [unowned self] in
                    let names = watch.changedNames()
                    guard file.map({ names.contains($0) }) ?? names.contains(where: { $0.lowercased().hasSuffix(".ics") }) else { return }
                    self.arm(self.calendarDebounce, afterMicroseconds: 200_000)
                }
            } catch {
                log(LogEntry("calendar \(source.name): cannot watch \(folder): \(error); changes are seen at the next plan", priority: 4))
            }
        }
    }

    /// The clock being set re-plans at once (the timer's instant may now be past, or far off).
    private func watchClock() throws {
        let watch = try ClockChangeWatch()
        watches.append(watch)
        try loop.onReadable(watch.fd) { [unowned self] in
            if watch.clockWasSet() { self.replan(reason: "the clock was set") }
        }
    }

    /// /etc/localtime replaced: Foundation caches the system zone, so reset it, take the new one,
    /// and re-plan.
    private func watchSystemZone() throws {
        let watch = try FolderWatch("/etc")
        watches.append(watch)
        try loop.onReadable(watch.fd) { [unowned self] in
            guard watch.changedNames().contains("localtime") else { return }
            NSTimeZone.resetSystemTimeZone()
            let zone = TimeZone.current
            guard zone.identifier != self.settings.zone.identifier else { return }
            self.log(LogEntry("time zone changed from \(self.settings.zone.identifier) to \(zone.identifier)"))
            self.settings.zone = zone
            self.replan(reason: "the time zone changed")
        }
    }

    /// Arms a timer; a failure is logged (the next event re-arms it).
    func arm(_ timer: EventLoop.Timer?, afterMicroseconds microseconds: UInt64) {
        do { try timer?.arm(afterMicroseconds: microseconds) } catch { log(LogEntry("cannot arm a timer: \(error)", priority: 3)) }
    }

    private func databaseChanged() {
        let version = (try? store.dataVersion()) ?? -1
        guard version != lastDataVersion else { return }
        replan(reason: "database changed")
    }

    /// The timer: what it was armed for goes out first, unless the database changed since that plan
    /// (then the new plan decides); then a new plan from now.
    private func wakeUp() {
        let now = Instant(Date())
        let due = armedFor.filter { $0.fireAt <= now }
        if !due.isEmpty, (try? store.dataVersion()) == lastDataVersion { deliver(due, now: now) }
        armedFor = []
        replan(reason: "timer")
    }

    /// Plans from now, delivers what is due, records what was missed, arms the timer for the next.
    func replan(reason: String) {
        let now = Instant(Date())
        let config = settings.config
        // Looking a week past the grace window back finds what was missed while the machine was
        // off, so it is recorded (and listed by `missed`) instead of silently dropped.
        let window = now.adding(seconds: -Int64(config.graceWindow) - Runner.missedLookback)...now.adding(seconds: Int64(config.horizon))
        do {
            lastDataVersion = try store.dataVersion()
            let settled = try store.settledDeliveries(since: window.lowerBound)
            let plan = try PlanSource(store: store, config: config, zone: settings.zone).plan(now: now, window: window, delivered: settled)
            if plan.calendarProblems != lastCalendarProblems {
                for problem in plan.calendarProblems { log(LogEntry("calendar \(problem)", priority: 4)) }
                lastCalendarProblems = plan.calendarProblems
            }
            var next: PlannedReminder?
            deliver(plan.reminders.filter { $0.status == .late }, now: now)
            for reminder in plan.reminders {
                switch reminder.status {
                case .missed:
                    for channel in reminder.channels {
                        try store.recordMissed(key: reminder.key, channel: channel, kind: reminder.kind, title: reminder.title,
                                               fireAt: reminder.fireAt, now: now)
                        log(LogEntry("missed \(reminder.key)@\(channel) (due \(ISO8601.format(reminder.fireAt, in: settings.zone)))",
                                     priority: 4, fields: Runner.fields(reminder.key, reminder.kind, channel, "missed")))
                    }
                case .pending: if next == nil { next = reminder }
                default: break
                }
            }
            armedFor = next.map { first in plan.reminders.filter { $0.status == .pending && $0.fireAt == first.fireAt } } ?? []
            let wakeAt = next?.fireAt ?? window.upperBound
            try wake?.arm(atMicroseconds: UInt64(max(0, wakeAt.secondsSinceEpoch)) * 1_000_000)
            let when = ISO8601.format(wakeAt, in: settings.zone)
            let status = next.map { "next: \($0.title) (\($0.key)) at \(when)" } ?? "nothing due before \(when)"
            ServiceNotify.send("STATUS=" + status)
            if reason != "timer" { log(LogEntry("planned (\(reason)): \(status)")) }
        } catch {
            // The database may be locked by a long write: try again shortly rather than give up.
            log(LogEntry("plan failed (\(reason)): \(error); retrying in 5 s", priority: 3))
            arm(wake, afterMicroseconds: 5_000_000)
        }
    }

    /// SIGTERM/SIGINT: says STOPPING, gives deliveries in flight a bounded time, exits 0. A delivery
    /// abandoned here stays claimed and is retried on the next start.
    private func stop() {
        ServiceNotify.send("STOPPING=1")
        try? wake?.disarm()
        if deliveries.wait(timeout: .now() + .seconds(settings.shutdownBound)) == .timedOut {
            log(LogEntry("stopping with deliveries in flight: they stay claimed and are retried at the next start", priority: 4))
        }
        loop.exit(0)
    }

    /// The `key@channel` deliveries handed to workers and not yet recorded, shared with them.
    final class InFlight: Sendable {
        private let ids = Mutex<Set<String>>([])
        func insert(_ id: String) -> Bool { ids.withLock { $0.insert(id).inserted } }
        func remove(_ id: String) { _ = ids.withLock { $0.remove(id) } }
    }

    static func fields(_ key: String, _ kind: String, _ channel: String, _ outcome: String) -> [(String, String)] {
        [("DAWNLET_KEY", key), ("DAWNLET_KIND", kind), ("DAWNLET_CHANNEL", channel), ("DAWNLET_OUTCOME", outcome)]
    }

    /// How far before the grace window a start looks for missed reminders: a week.
    static let missedLookback: Int64 = 7 * 86_400

    static func nowMicroseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1_000
    }
}
