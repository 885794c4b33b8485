import DawnletCore
import DawnletSystem
import Glibc

/// Time as a test moves it: a wall clock and a monotonic one, and the timers armed on them. Moving
/// time fires every timer due on the way, earliest first (armed first among equals), each with its
/// own clock reading its deadline; a timer a handler arms is fired too if it falls due on the way.
/// Nothing happens by itself.
public final class TestScheduler: Scheduler {
    /// Microseconds since the epoch on the wall clock, and since the start on the monotonic one.
    public private(set) var wallMicroseconds: Int64
    public private(set) var monotonicMicroseconds: Int64 = 0
    private var pending: [TimerName: (due: Int64, order: Int)] = [:]
    private var armed = 0
    public var fired: (TimerName) -> Void = { _ in }
    /// Timers that could not be armed: each name armed while in here throws, as a loop out of
    /// resources would.
    public var refusing: Set<TimerName> = []

    public init(now: Instant) {
        wallMicroseconds = now.secondsSinceEpoch * 1_000_000
    }

    public var now: Instant { Instant(secondsSinceEpoch: wallMicroseconds.floorDivided(by: 1_000_000)) }
    public var elapsed: Duration { .microseconds(monotonicMicroseconds) }

    /// When an armed timer fires, as an instant of the wall clock (a monotonic one: the wall
    /// clock's reading when its span runs out, if the clock is not set before).
    public func deadline(of timer: TimerName) -> Instant? {
        pending[timer].map { Instant(secondsSinceEpoch: (wallMicroseconds + remaining($0.due, timer)).floorDivided(by: 1_000_000)) }
    }

    public var armedTimers: Set<TimerName> { Set(pending.keys) }

    public func arm(_ timer: TimerName, at instant: Instant) throws(SystemError) {
        precondition(!timer.monotonic, "\(timer) is monotonic")
        try record(timer, due: instant.secondsSinceEpoch * 1_000_000)
    }

    public func arm(_ timer: TimerName, after span: Duration) throws(SystemError) {
        try record(timer, due: (timer.monotonic ? monotonicMicroseconds : wallMicroseconds) + Int64(span.microseconds))
    }

    public func cancel(_ timer: TimerName) { pending[timer] = nil }

    private func record(_ timer: TimerName, due: Int64) throws(SystemError) {
        if refusing.contains(timer) { throw SystemError("arming \(timer)", errno: ENOMEM) }
        armed += 1
        pending[timer] = (due, armed)
    }

    /// How long until `due` on the timer's own clock.
    private func remaining(_ due: Int64, _ timer: TimerName) -> Int64 {
        due - (timer.monotonic ? monotonicMicroseconds : wallMicroseconds)
    }

    /// The next timer to fire and how far away it is.
    private func next() -> (TimerName, Int64)? {
        pending.map { ($0.key, remaining($0.value.due, $0.key), $0.value.order) }
            .min { ($0.1, $0.2) < ($1.1, $1.2) }
            .map { ($0.0, $0.1) }
    }

    /// Moves both clocks by `span`, firing every timer due on the way.
    public func advance(by span: Duration) {
        var left = Int64(span.microseconds)
        var fires = 0
        while let (timer, wait) = next(), wait <= left {
            let step = max(wait, 0)
            move(step)
            left -= step
            pending[timer] = nil
            fires += 1
            precondition(fires < 10_000, "more than 10,000 timers fired while advancing: a timer re-arms itself without moving")
            fired(timer)
        }
        move(left)
    }

    /// Moves the wall clock to `instant` (and the monotonic clock with it), firing what falls due.
    public func advance(to instant: Instant) {
        advance(by: .microseconds(max(0, instant.secondsSinceEpoch * 1_000_000 - wallMicroseconds)))
    }

    /// Moves to the next timer and fires it; nil when none is armed.
    @discardableResult
    public func runNext() -> TimerName? {
        guard let (timer, wait) = next() else { return nil }
        move(max(wait, 0))
        pending[timer] = nil
        fired(timer)
        return timer
    }

    /// The clock set, as `date -s` would: only the wall clock moves. Wall-clock timers now past
    /// are due at once; monotonic ones keep the time they had left. Nothing fires until time moves.
    public func setWallClock(to instant: Instant) {
        wallMicroseconds = instant.secondsSinceEpoch * 1_000_000
    }

    /// Fires a timer now, whether armed or not (a spurious wake-up).
    public func fire(_ timer: TimerName) {
        pending[timer] = nil
        fired(timer)
    }

    private func move(_ micro: Int64) {
        wallMicroseconds += micro
        monotonicMicroseconds += micro
    }
}

extension Int64 {
    /// Division rounding toward negative infinity (seconds of an instant before 1970 too).
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let q = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? q - 1 : q
    }
}
