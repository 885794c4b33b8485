import DawnletApp
import DawnletCore
import DawnletStore
import DawnletSystem

/// What happens to the runner, as `RunnerCore.handle` takes it: what the world did (a timer, a
/// write, a signal, a channel's answer), or the answer to a request the core made (`RunnerEffect`
/// marks which effects are requests; the shell answers each at once, before the next effect).
public enum RunnerEvent: Sendable {
    /// The first plan.
    case start
    /// Plan again from now: a notification action, SIGHUP, calendar files changed, the clock set,
    /// the zone changed.
    case replan(reason: PlanReason)
    /// The wake timer fired; `dataVersion` is the database's as the shell read it (nil: unreadable).
    case wake(dataVersion: Int64?)
    /// The database folder was written and went quiet: whether the database is still ours (nil)
    /// or why not, and its data version now.
    case databaseSettled(lost: String?, dataVersion: Int64?)
    /// The settings changed (the config read again, the zone changed); a `.replan` follows.
    case settingsChanged(Runner.Settings)
    /// SIGTERM, SIGINT, or the database lost: stop, with this exit code once nothing is in flight.
    case stop(reason: String, exitCode: Int32)
    /// The shutdown bound ran out with deliveries still in flight.
    case shutdownBoundExpired
    /// A channel ended a delivery (possibly at once, while the shell carries out `.deliver`).
    case deliveryFinished(Ticket, DeliveryOutcome)
    /// A timer could not be armed.
    case armFailed(TimerName, String)
    /// The desktop notification server paused (its reminders are held) or resumed.
    case desktopPaused(Bool)
    /// The screen locked (desktop reminders are held) or unlocked.
    case screenLocked(Bool)
    /// The desktop server's Do Not Disturb came on (its reminders are held) or ended.
    case desktopDoNotDisturb(Bool)
    /// A watch saw a write (`Watched`): the core waits for the burst to go quiet on its settle timer.
    case written(Watched)
    /// A timer the core armed fired (the wake timer's own event is `.wake`, with the data version).
    case timerFired(TimerName)
    /// SIGHUP: read the config again, and plan.
    case reload
    /// The wall clock was set; its watch armed again, or why it could not be.
    case clockSet(rearmFailure: String?)
    /// What the person (or the server) did with one of our notifications.
    case notificationResponse(UInt32, NotificationResponse)

    // Answers to requests.
    case planned(PlanResult)
    case planFailed(PlanRequest, String)
    case changesRead(ChangeRequest, ChangeResult)
    /// `.recordMissed`: the ones that could not be written, with why.
    case missedRecorded(failures: [DeliveryID: String])
    /// `.claim`: which claims are this runner's, or why none could be written.
    case claimed(Result<[Bool], RunnerFailure>)
    /// `.finish`: why the outcome could not be written (nil: written).
    case finishWritten(DeliveryID, failure: String?)
    /// `.resume`: every effect before it has been carried out.
    case resumed
    /// `.reloadConfig`: the config was read again (and used, or the one in use kept, as the shell
    /// said in the log).
    case configReloaded
    /// `.syncExport`: whether what another device wrote into the export folder changed the store,
    /// and whether a file failed (to be tried again after a while).
    case exportSynced(storeChanged: Bool, failed: Bool = false)
    /// `.closeMonth`: why the month before could not be kept (nil: kept, or nothing to keep).
    case monthClosed(YearMonth, failure: String?)
    /// `.rearmClockWatch`: why the clock watch could not be armed again (nil: it is).
    case clockWatchRearmed(failure: String?)
    /// `.publish`: until when the state published holds (nil: none is published).
    case published(validUntil: Instant?)
}

/// What the shell watches for writes. Each has a settle timer: a burst of writes is acted on
/// once, when it has been quiet that long, or when its ceiling runs out, whichever comes first.
/// The shell sends only writes to files that are ours (the database's, our exported ones, the
/// calendars', the zone's): another program's file in the same folder is nothing to the runner.
public enum Watched: Sendable, Hashable, CaseIterable {
    /// The database's folder (another process's commit).
    case database
    /// A calendar's file or folder.
    case calendars
    /// The zone's files (/etc/localtime, the TZif files).
    case zone
    /// The export folder, or our exported items changed here.
    case export

    /// The timer that waits for quiet, and how long.
    public var settle: (timer: TimerName, quiet: Duration) {
        switch self {
        case .database: (.databaseSettle, .milliseconds(100))
        case .calendars: (.calendarSettle, .milliseconds(200))
        case .zone: (.zoneSettle, .milliseconds(200))
        case .export: (.exportSettle, .milliseconds(100))
        }
    }

    /// How long a burst may hold its action back at most, from its first write: the timer is
    /// armed by the first write and left alone by the rest (real time, whatever the clock does),
    /// so writes that never pause are acted on at least this often, never postponed for ever.
    public var ceiling: (timer: TimerName, span: Duration) {
        switch self {
        case .database: (.databaseCeiling, .seconds(1))
        case .calendars: (.calendarCeiling, .seconds(2))
        case .zone: (.zoneCeiling, .seconds(2))
        case .export: (.exportCeiling, .seconds(1))
        }
    }
}

/// What the core asks the shell to do, in order. A request (marked so) is answered by exactly one
/// event, fed back before the shell goes on to the next effect.
public enum RunnerEffect: Sendable {
    /// Request → `.planned` or `.planFailed`.
    case plan(PlanRequest)
    /// Request → `.changesRead`.
    case readChanges(ChangeRequest)
    /// Request → `.missedRecorded`.
    case recordMissed([Decision.Missed], now: Instant)
    /// Request → `.claimed`.
    case claim([Store.Log.Claim], now: Instant)
    /// Request → `.finishWritten`. A delivery given up is recorded missed, with why (`missed`).
    case finish(DeliveryID, Delivery.State, detail: String?, missed: ReminderLife.MissedReason?, notificationID: UInt32?, now: Instant)
    /// Request → `.resumed`: a point after the deliveries just handed over (a channel may end one
    /// at once) from which the decision goes on.
    case resume
    /// Hands a message to its channel; its end comes later as `.deliveryFinished`.
    case deliver(Ticket)
    case arm(TimerName, at: Instant)
    case armAfter(TimerName, Duration)
    case cancel(TimerName)
    /// A line for systemd (`STATUS=…`, `STOPPING=1`).
    case notify(String)
    /// Request → `.published`: publish what `next` shows (the shell reads the counts it needs;
    /// `recount`: the overdue count read again, whatever it said it held until). Or withdraw it.
    case publish(now: Instant, recount: Bool)
    case withdraw
    /// Request → `.databaseSettled`: whether the database is still the file opened, and its
    /// data version.
    case checkDatabase
    /// Request → `.configReloaded`: the config read again; settings that changed come back as
    /// `.settingsChanged` first.
    case reloadConfig
    /// Request → `.exportSynced`: the export folder's pending items read back and written.
    case syncExport
    /// Request → `.monthClosed`: the figures of the month before `today` kept as they stand.
    case closeMonth(before: CivilDate, now: Instant)
    /// Request → `.clockWatchRearmed`: the clock watch armed again.
    case rearmClockWatch
    /// The zone's files read again; a zone that changed comes back as `.settingsChanged` and a
    /// `.replan`.
    case readZone
    /// Our items changed here since the last look are to be exported (their settle follows as
    /// `.written(.export)`).
    case exportChanges
    /// A notification's response carried out as the reminder's life says (`Runner+Actions`).
    case respond(UInt32, NotificationResponse)
    /// Calendar reminders waiting here whose files now say they were answered on another device
    /// (completed, cancelled, acknowledged): recorded so, before their notifications are closed.
    case readCalendarAnswers
    /// Notifications on screen whose reminders were answered elsewhere: closed, or shown again
    /// with what still waits.
    case closeAnsweredElsewhere
    case log(LogEntry)
    /// Says what a plan or splice came to (`planned (start): next: …`), with how many reminders
    /// it holds and what making it cost (reading, splicing, deciding), which the shell measures.
    case planned(String, reminders: Int)
    /// The work of a round is over and nothing is in flight: heap pages freed by a plan or a burst
    /// of deliveries go back to the kernel (the allocator keeps them otherwise), and the pages of
    /// code the round ran are let go (clean copies of files the kernel keeps cached, mapped again
    /// at their next use), so the idle runner holds what it uses and no more. (SQLite's page cache
    /// is kept: letting it go made the next splice read its pages again.)
    case returnFreedMemory
    /// Kill every command still running (the shutdown bound ran out).
    case killChildren
    case exit(Int32)
}

/// A request's failure, in words.
public struct RunnerFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The timers the runner arms.
extension TimerName {
    /// The next reminder (or plan, or retry) is due.
    public static let wake = TimerName("wake")
    /// The wake timer could not be armed: a second's real time, then the runner wakes as it would have.
    public static let wakeRetry = TimerName("wake retry", monotonic: true)
    /// The database folder has been quiet for 100 ms after a write.
    public static let databaseSettle = TimerName("database settle")
    /// A calendar's folder has been quiet for 200 ms.
    public static let calendarSettle = TimerName("calendar settle")
    /// Our exported items changed here or in their folder, and have been quiet for 100 ms.
    public static let exportSettle = TimerName("export settle")
    /// A file of the export failed: the pass tried again (after 1 s, doubling to 5 min while it fails).
    public static let exportRetry = TimerName("export retry", monotonic: true)
    /// The zone's files have been quiet for 200 ms.
    public static let zoneSettle = TimerName("zone settle")
    /// A burst's ceiling (`Watched.ceiling`): its first write was this long ago, quiet or not.
    public static let databaseCeiling = TimerName("database settle ceiling", monotonic: true)
    public static let calendarCeiling = TimerName("calendar settle ceiling", monotonic: true)
    public static let exportCeiling = TimerName("export settle ceiling", monotonic: true)
    public static let zoneCeiling = TimerName("zone settle ceiling", monotonic: true)
    /// What `next` shows runs out (midnight): publish it again.
    public static let stateExpiry = TimerName("state expiry")
    /// The clock watch could not be armed again: a second's real time, then it is tried again.
    public static let clockWatchRetry = TimerName("clock watch retry", monotonic: true)
    /// How long SIGTERM waits for deliveries in flight: real time, whatever the clock does.
    public static let shutdownBound = TimerName("shutdown bound", monotonic: true)
}

/// One message handed to a channel, and what its end is recorded against.
public struct Ticket: Sendable {
    public let ids: [DeliveryID]
    public let reminders: [PlannedReminder]
    public let send: Decision.Send
    public let message: ReminderMessage
}

/// Why a plan is made: said in the log's "planned (…)" line.
public enum PlanReason: Sendable, Equatable, CustomStringConvertible {
    case start
    /// The wake timer found the plan's window run out.
    case timer
    case databaseChanged
    case sighup
    case calendarFilesChanged
    case clockSet
    case zoneChanged
    case notificationAction
    /// A reminder went out that comes back until answered.
    case nag
    /// A test's, or another program's.
    case other(String)

    public var description: String {
        switch self {
        case .start: "start"
        case .timer: "timer"
        case .databaseChanged: "database changed"
        case .sighup: "SIGHUP"
        case .calendarFilesChanged: "calendar files changed"
        case .clockSet: "the clock was set"
        case .zoneChanged: "the time zone changed"
        case .notificationAction: "notification action"
        case .nag: "a reminder comes back until answered"
        case .other(let words): words
        }
    }
}

/// A whole plan to make: from `window`'s start to its end, streamed in time order and kept until
/// it holds `budget` reminders and reaches `dayAhead`.
public struct PlanRequest: Sendable {
    public let reason: PlanReason
    public let now: Instant
    public let window: ClosedRange<Instant>
    public let budget: Int64
    public let dayAhead: Instant
}

public struct PlanResult: Sendable {
    public let request: PlanRequest
    public var plan: Plan
    /// Where the plan ends: the window's end, or just before the first reminder the budget left out.
    public let ends: Instant
    /// The database's data version and change feed position the plan read.
    public let version: Int64
    public let position: Int64
}

/// What another process wrote, to splice in after `position`.
public struct ChangeRequest: Sendable {
    public let reason: PlanReason
    public let now: Instant
    public let position: Int64
    public let window: ClosedRange<Instant>
    /// Items to plan again whatever the feed says (this runner's own writes are not in it).
    public var also: Set<PlanChanges.Item> = []
}

public enum ChangeResult: Sendable {
    /// The feed cannot say (a setting, a stretch it dropped, many rows, a calendar) or a read failed.
    case wholePlan
    /// What the changed items plan to now (nil: nothing the plan reads changed), with the
    /// version and position read, and how many items changed.
    case spliced(PlanReader.SpliceInput?, version: Int64, position: Int64, changed: Int)
}
