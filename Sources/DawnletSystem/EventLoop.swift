import CLinux
import CSystemd
import Glibc

/// The one owner of an `sd_event` loop (libsystemd): timers, signals and file descriptors as
/// event sources, so the runner waits for the proper event and never polls.
public final class EventLoop {
    let event: OpaquePointer

    public init() throws(SystemError) {
        var event: OpaquePointer?
        try SystemError.check(sd_event_new(&event), "sd_event_new")
        guard let event else { throw SystemError("sd_event_new", errno: ENOMEM) }
        self.event = event
    }

    deinit {
        sd_event_unref(event)
    }

    /// Runs until `exit(_:)`; returns its code.
    public func run() throws(SystemError) -> Int32 {
        try SystemError.check(sd_event_loop(event), "sd_event_loop")
    }

    public func exit(_ code: Int32) {
        sd_event_exit(event, code)
    }

    /// Sends WATCHDOG=1 by itself when systemd set WATCHDOG_USEC (no-op otherwise).
    public func enableWatchdog() {
        sd_event_set_watchdog(event, 1)
    }

    /// A one-shot CLOCK_REALTIME timer with 1 ms accuracy, disarmed until `arm(at:)`.
    public func timer(_ handler: @escaping () -> Void) throws(SystemError) -> Timer {
        let box = Unmanaged.passRetained(Handler(handler))
        var source: OpaquePointer?
        let rc = sd_event_add_time(event, &source, CLOCK_REALTIME, UInt64.max, 1000, { _, _, userdata in
            Unmanaged<Handler>.fromOpaque(userdata!).takeUnretainedValue().call()
            return 0
        }, box.toOpaque())
        guard rc >= 0, let source else {
            box.release()
            throw SystemError("sd_event_add_time", errno: -rc)
        }
        EventLoop.own(source, box)
        return Timer(source)
    }

    /// Calls `handler` when `signal` arrives. The signal must already be blocked in every thread
    /// (block it first thing in main).
    public func onSignal(_ signal: Int32, _ handler: @escaping () -> Void) throws(SystemError) {
        let box = Unmanaged.passRetained(Handler(handler))
        var source: OpaquePointer?
        let rc = sd_event_add_signal(event, &source, signal, { _, _, userdata in
            Unmanaged<Handler>.fromOpaque(userdata!).takeUnretainedValue().call()
            return 0
        }, box.toOpaque())
        guard rc >= 0, let source else {
            box.release()
            throw SystemError("sd_event_add_signal(\(signal))", errno: -rc)
        }
        EventLoop.own(source, box)
    }

    /// Calls `handler` when `fd` is readable. The caller keeps the descriptor open.
    public func onReadable(_ fd: Int32, _ handler: @escaping () -> Void) throws(SystemError) {
        let box = Unmanaged.passRetained(Handler(handler))
        var source: OpaquePointer?
        let rc = sd_event_add_io(event, &source, fd, UInt32(EPOLLIN.rawValue), { _, _, _, userdata in
            Unmanaged<Handler>.fromOpaque(userdata!).takeUnretainedValue().call()
            return 0
        }, box.toOpaque())
        guard rc >= 0, let source else {
            box.release()
            throw SystemError("sd_event_add_io", errno: -rc)
        }
        EventLoop.own(source, box)
    }

    /// The loop keeps the source ("floating"); the handler box is released when it is destroyed.
    private static func own(_ source: OpaquePointer, _ box: Unmanaged<Handler>) {
        sd_event_source_set_destroy_callback(source) { userdata in
            Unmanaged<Handler>.fromOpaque(userdata!).release()
        }
        sd_event_source_set_floating(source, 1)
    }

    private final class Handler {
        let call: () -> Void
        init(_ call: @escaping () -> Void) { self.call = call }
    }

    /// A re-armable one-shot timer.
    public final class Timer {
        private let source: OpaquePointer

        init(_ source: OpaquePointer) {
            self.source = source
            sd_event_source_set_enabled(source, Int32(SD_EVENT_OFF))
        }

        /// Fires once at `microseconds` since the epoch (CLOCK_REALTIME), within 1 ms.
        public func arm(atMicroseconds microseconds: UInt64) {
            sd_event_source_set_time(source, microseconds)
            sd_event_source_set_enabled(source, Int32(SD_EVENT_ONESHOT))
        }

        public func disarm() {
            sd_event_source_set_enabled(source, Int32(SD_EVENT_OFF))
        }
    }
}

/// sd_notify(3): tells systemd (Type=notify) how the service is doing. A no-op outside systemd.
public enum ServiceNotify {
    public static func send(_ state: String) {
        _ = sd_notify(0, state)
    }
}
