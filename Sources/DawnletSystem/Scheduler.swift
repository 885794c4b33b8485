import DawnletCore
import Glibc

/// A timer a scheduler keeps, by name. A wall-clock timer fires at an instant of the wall clock
/// (and follows it when the clock is set); a monotonic one fires a span of real time after it
/// was armed, whatever the wall clock does.
public struct TimerName: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    public let monotonic: Bool

    public init(_ name: String, monotonic: Bool = false) {
        self.name = name
        self.monotonic = monotonic
    }

    public var description: String { name }
}

/// The one clock of a long-running process and the timers it arms: what the event loop gives
/// `serve`, and what a test gives it instead, moving time through every pending timer in
/// deadline order. Nothing that uses one reads the clock any other way.
public protocol Scheduler: AnyObject {
    /// The wall clock now.
    var now: Instant { get }
    /// Monotonic time since the scheduler began: for what an operation cost, never for a decision.
    var elapsed: Duration { get }
    /// Arms (or re-arms) a wall-clock timer for `instant`; one already past fires at once.
    func arm(_ timer: TimerName, at instant: Instant) throws(SystemError)
    /// Arms (or re-arms) a timer to fire `span` from now, on the clock the timer names.
    func arm(_ timer: TimerName, after span: Duration) throws(SystemError)
    /// Disarms a timer; nothing happens for one that is not armed.
    func cancel(_ timer: TimerName)
    /// Called with each timer that fires, on the thread the scheduler runs on.
    var fired: (TimerName) -> Void { get set }
}

/// The scheduler of an `EventLoop`: a wall-clock timer is an sd-event CLOCK_REALTIME timer (which
/// libfaketime moves as it moves the clock), a monotonic one a relative timerfd.
public final class LoopScheduler: Scheduler {
    private let loop: EventLoop
    private var wallTimers: [TimerName: EventLoop.Timer] = [:]
    private var monotonicTimers: [TimerName: EventLoop.RelativeTimer] = [:]
    private let began = ContinuousClock.now
    public var fired: (TimerName) -> Void = { _ in }

    public init(loop: EventLoop) {
        self.loop = loop
    }

    public var now: Instant {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Instant(secondsSinceEpoch: Int64(ts.tv_sec))
    }

    public var elapsed: Duration { ContinuousClock.now - began }

    public func arm(_ timer: TimerName, at instant: Instant) throws(SystemError) {
        precondition(!timer.monotonic, "\(timer) is a monotonic timer: it is armed for a span, not an instant")
        try wallTimer(timer).arm(at: instant)
    }

    public func arm(_ timer: TimerName, after span: Duration) throws(SystemError) {
        if timer.monotonic {
            let relative = monotonicTimers[timer] ?? EventLoop.RelativeTimer(loop: loop) { [unowned self] in self.fired(timer) }
            monotonicTimers[timer] = relative
            try relative.arm(after: span)
        } else {
            try wallTimer(timer).arm(after: span)
        }
    }

    public func cancel(_ timer: TimerName) {
        // Disarming an existing source cannot fail for a reason the caller could act on.
        if timer.monotonic { monotonicTimers[timer]?.stop() } else { try? wallTimers[timer]?.disarm() }
    }

    private func wallTimer(_ name: TimerName) throws(SystemError) -> EventLoop.Timer {
        if let timer = wallTimers[name] { return timer }
        let timer = try loop.timer { [unowned self] in self.fired(name) }
        wallTimers[name] = timer
        return timer
    }
}
