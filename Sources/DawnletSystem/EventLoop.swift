internal import CLinux
internal import CSystemd
import DawnletCCall
import DawnletCore
import Glibc

/// The one owner of an `sd_event` loop (libsystemd): timers, signals and file descriptors as
/// event sources, so the runner waits for the proper event and never polls.
public final class EventLoop {
    let event: OpaquePointer

    public init() throws(SystemError) {
        try Systemd.require("sd_event_new")
        event = try Systemd.make("sd_event_new") { $0.sd_event_new(&$1) }
    }

    deinit {
        // Its source leaves the loop before the loop is freed.
        madeDeadlines?.close()
        _ = Systemd.unchecked { $0.sd_event_unref(event) }
    }

    /// The loop's timeouts on one timer (`Deadlines`), made at first use.
    private var madeDeadlines: Deadlines?
    var deadlines: Deadlines {
        if let madeDeadlines { return madeDeadlines }
        let made = Deadlines(self)
        madeDeadlines = made
        return made
    }

    /// Runs until `exit(_:)`; returns its code.
    public func run() throws(SystemError) -> Int32 {
        try Systemd.call("sd_event_loop") { $0.sd_event_loop(event) }
    }

    public func exit(_ code: Int32) {
        // It fails only when the loop has already finished (ESTALE) or in a forked child: there
        // is nothing left to stop then.
        _ = Systemd.unchecked { $0.sd_event_exit(event, code) }
    }

    /// Sends WATCHDOG=1 by itself when systemd set WATCHDOG_USEC (no-op otherwise).
    public func enableWatchdog() throws(SystemError) {
        try Systemd.call("sd_event_set_watchdog") { $0.sd_event_set_watchdog(event, 1) }
    }

    /// A one-shot CLOCK_REALTIME timer (an instant of the wall clock), disarmed until `arm`. It
    /// fires within 1 µs of its instant as sd-event can (no coalescing slack: a reminder is due
    /// then). For a timeout, `RelativeTimer`.
    public func timer(_ handler: @escaping () -> Void) throws(SystemError) -> Timer {
        let box = Unmanaged.passRetained(Handler { _ in handler() })
        let source: OpaquePointer
        do {
            source = try Systemd.make("sd_event_add_time") {
                $0.sd_event_add_time(
                    event, &$1, CLOCK_REALTIME, UInt64.max, 1,
                    { _, _, userdata in
                        userdata.map { Unmanaged<Handler>.fromOpaque($0).takeUnretainedValue().call(0) }
                        return 0
                    }, box.toOpaque())
            }
        } catch {
            box.release()
            throw error
        }
        try EventLoop.own(source, box)
        let timer = Timer(source)
        try timer.disarm()
        return timer
    }

    /// Which of several ready sources the loop serves first: sd-event dispatches one source per
    /// turn, the most urgent pending one, so a source that is ready on every turn (a folder
    /// written without pause) holds back only what is less urgent than it.
    public enum Priority: Int64, Sendable {
        /// Signals: SIGTERM is acted on at the next turn, whatever else is ready.
        case first = -100
        /// Timers, channels, children: the default.
        case normal = 0
        /// Watches of folders other programs write: served when nothing more urgent is pending.
        case last = 100
    }

    /// Calls `handler` when `signal` arrives, before any other source that is ready (`.first`).
    /// The signal must already be blocked in every thread (block it first thing in main).
    public func onSignal(_ signal: Int32, _ handler: @escaping () -> Void) throws(SystemError) {
        let box = Unmanaged.passRetained(Handler { _ in handler() })
        let source: OpaquePointer
        do {
            source = try Systemd.make("sd_event_add_signal") {
                $0.sd_event_add_signal(
                    event, &$1, signal,
                    { _, _, userdata in
                        userdata.map { Unmanaged<Handler>.fromOpaque($0).takeUnretainedValue().call(0) }
                        return 0
                    }, box.toOpaque())
            }
        } catch {
            box.release()
            throw error
        }
        try EventLoop.own(source, box)
        try Source(source).setPriority(.first)
    }

    /// epoll's events, for `watch`.
    public static let readable = UInt32(EPOLLIN.rawValue)
    public static let writable = UInt32(EPOLLOUT.rawValue)
    public static let failed = UInt32(EPOLLERR.rawValue) | UInt32(EPOLLHUP.rawValue)

    /// Calls `handler` when `fd` is readable, for as long as the loop runs. The caller keeps the
    /// descriptor open.
    public func onReadable(_ fd: Int32, priority: Priority = .normal, _ handler: @escaping () -> Void) throws(SystemError) {
        _ = try watch(fd, events: EventLoop.readable, priority: priority) { _ in handler() }
    }

    /// Calls `handler` with the ready events (EPOLLIN, EPOLLOUT, EPOLLHUP, …) while `fd` is ready
    /// for `events`, until the source is cancelled. The caller keeps the descriptor open until then.
    public func watch(_ fd: Int32, events: UInt32, priority: Priority = .normal, _ handler: @escaping (UInt32) -> Void) throws(SystemError)
        -> Source
    {
        let box = Unmanaged.passRetained(Handler(handler))
        let source: OpaquePointer
        do {
            source = try Systemd.make("sd_event_add_io") {
                $0.sd_event_add_io(
                    event, &$1, fd, events,
                    { _, _, revents, userdata in
                        userdata.map { Unmanaged<Handler>.fromOpaque($0).takeUnretainedValue().call(revents) }
                        return 0
                    }, box.toOpaque())
            }
        } catch {
            box.release()
            throw error
        }
        try EventLoop.own(source, box)
        let watched = Source(source)
        if priority != .normal { try watched.setPriority(priority) }
        return watched
    }

    /// The loop keeps the source ("floating"); the handler box is released when it is destroyed.
    /// When either cannot be set the source is dropped, the box released with it, and the failure
    /// thrown.
    private static func own(_ source: OpaquePointer, _ box: Unmanaged<Handler>) throws(SystemError) {
        do {
            try Systemd.call("sd_event_source_set_destroy_callback") {
                $0.sd_event_source_set_destroy_callback(source) { userdata in userdata.map { Unmanaged<Handler>.fromOpaque($0).release() } }
            }
        } catch {
            _ = Systemd.unchecked { $0.sd_event_source_unref(source) }
            box.release()
            throw error
        }
        do {
            try Systemd.call("sd_event_source_set_floating") { $0.sd_event_source_set_floating(source, 1) }
        } catch {
            // Our reference is the only one: dropping it frees the source, and its destroy
            // callback releases the box.
            _ = Systemd.unchecked { $0.sd_event_source_unref(source) }
            throw error
        }
    }

    /// A handler and the events that woke it (0 for timers and signals).
    private final class Handler {
        let call: (UInt32) -> Void
        init(_ call: @escaping (UInt32) -> Void) { self.call = call }
    }

    /// An event source the loop keeps until `cancel()` (safe from inside its own handler).
    public class Source {
        let source: OpaquePointer
        private var cancelled = false

        init(_ source: OpaquePointer) { self.source = source }

        /// Where the source stands among ready ones (`Priority`).
        public func setPriority(_ priority: Priority) throws(SystemError) {
            try Systemd.call("sd_event_source_set_priority") { $0.sd_event_source_set_priority(source, priority.rawValue) }
        }

        /// Which events an io source waits for.
        public func setEvents(_ events: UInt32) throws(SystemError) {
            try Systemd.call("sd_event_source_set_io_events") { $0.sd_event_source_set_io_events(source, events) }
        }

        /// Removes the source from the loop; its handler is released and never called again.
        public func cancel() {
            guard !cancelled else { return }
            cancelled = true
            // The loop's reference becomes ours (floating off), and dropping it frees the source.
            // Teardown: these fail only for a source that is already gone from its loop.
            _ = Systemd.unchecked { $0.sd_event_source_set_enabled(source, Int32(SD_EVENT_OFF)) }
            _ = Systemd.unchecked { $0.sd_event_source_set_floating(source, 0) }
            _ = Systemd.unchecked { $0.sd_event_source_unref(source) }
        }
    }

    /// A re-armable one-shot timer on the wall clock.
    public final class Timer: Source {
        /// Fires once at `instant`, with 1 µs accuracy (see `timer`).
        public func arm(at instant: Instant) throws(SystemError) {
            try arm(atMicroseconds: UInt64(max(0, instant.secondsSinceEpoch)) * 1_000_000)
        }

        /// Fires once `span` from now by the wall clock.
        public func arm(after span: Duration) throws(SystemError) {
            try arm(atMicroseconds: EventLoop.now(CLOCK_REALTIME) + span.microseconds)
        }

        private func arm(atMicroseconds microseconds: UInt64) throws(SystemError) {
            try Systemd.call("sd_event_source_set_time") { $0.sd_event_source_set_time(source, microseconds) }
            try Systemd.call("sd_event_source_set_enabled") { $0.sd_event_source_set_enabled(source, Int32(SD_EVENT_ONESHOT)) }
        }

        public func disarm() throws(SystemError) {
            try Systemd.call("sd_event_source_set_enabled") { $0.sd_event_source_set_enabled(source, Int32(SD_EVENT_OFF)) }
        }
    }

    /// A one-shot CLOCK_MONOTONIC timer armed relative to now: a timerfd of its own, watched on the
    /// loop, opened when first armed and closed by `stop()`.
    ///
    /// Not `EventLoop.timer`: sd-event arms its timers at absolute instants, and libfaketime 0.9.10
    /// (which the runner's tests run under) shifts an absolute CLOCK_MONOTONIC timerfd by its fake
    /// offset, so such a timer never fires there, not even one armed at the loop's own "now". A
    /// relative arm reaches the kernel untouched.
    public final class RelativeTimer {
        private let loop: EventLoop
        public var handler: () -> Void = {}
        private var fd: Int32 = -1
        private var source: EventLoop.Source?

        public init(loop: EventLoop, _ handler: @escaping () -> Void = {}) {
            self.loop = loop
            self.handler = handler
        }

        deinit { stop() }

        /// Fires once, `span` from now (zero: on the loop's next turn).
        public func arm(after span: Duration) throws(SystemError) {
            if source == nil { try open() }
            // An all-zero value would disarm the timerfd: 1 ns is the soonest instant.
            let nanoseconds = max(span.microseconds * 1000, 1)
            var spec = itimerspec()
            spec.it_value.tv_sec = Int(nanoseconds / 1_000_000_000)
            spec.it_value.tv_nsec = Int(nanoseconds % 1_000_000_000)
            try SystemError.posix("timerfd_settime") { timerfd_settime(fd, 0, &spec, nil) }
        }

        public func disarm() throws(SystemError) {
            guard fd >= 0 else { return }
            var spec = itimerspec()
            try SystemError.posix("timerfd_settime") { timerfd_settime(fd, 0, &spec, nil) }
        }

        /// Whether its descriptor is open and watched (armed or not).
        public var isOnLoop: Bool { source != nil }

        /// Off the loop and closed; `arm` opens it again.
        public func stop() {
            source?.cancel()
            source = nil
            if fd >= 0 { close(fd) }
            fd = -1
        }

        private func open() throws(SystemError) {
            fd = try SystemError.posix("timerfd_create") { timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) }
            do throws(SystemError) {
                source = try loop.watch(fd, events: EventLoop.readable) { [weak self] _ in self?.expired() }
            } catch {
                close(fd)
                fd = -1
                throw error
            }
        }

        private func expired() {
            // Read the expiry count, or the descriptor stays readable.
            var count: UInt64 = 0
            guard CCall.posix("read", { read(fd, &count, MemoryLayout<UInt64>.size) }) == MemoryLayout<UInt64>.size else { return }
            handler()
        }
    }

    /// Microseconds on `clock` now (since the epoch for CLOCK_REALTIME).
    static func now(_ clock: clockid_t) -> UInt64 {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1_000
    }
}

/// sd_notify(3)'s protocol: tells systemd (Type=notify) how the service is doing, by a datagram
/// to `$NOTIFY_SOCKET` (a path, or an abstract name after `@`). A no-op without it. Sent without
/// waiting: a manager (or whatever listens there) that does not read would otherwise hold the
/// runner, and every reminder due, in `sendmsg` once its queue is full; a state it was too busy
/// to take is lost instead (STATUS is said again at the next plan, WATCHDOG=1 at the next ping).
public enum ServiceNotify {
    public static func send(_ state: String) {
        guard let variable = getenv("NOTIFY_SOCKET"), let fd = Journal.connect(String(cString: variable)) else { return }
        defer { close(fd) }
        _ = Journal.send(fd, Array(state.utf8))
    }
}
