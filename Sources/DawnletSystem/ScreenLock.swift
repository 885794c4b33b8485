internal import CSystemd
import DawnletCCall
import Glibc

/// Whether the screen is locked, as the session's screen savers say on the session bus:
/// org.gnome.ScreenSaver (GNOME Shell) and org.freedesktop.ScreenSaver (KDE, Xfce and others);
/// and logind's LockedHint of the user's graphical session, on the system bus
/// (`ScreenLock+Logind.swift`). Each is asked once as the watch begins (one that is not there is
/// not locked), then followed by its signal, never polled. The screen is locked while any of them
/// says so. Connections of their own, attached to the runner's loop: `changed` runs on the loop's
/// thread.
public final class ScreenLock {
    /// The screen savers asked, by their bus names, with their object paths.
    static let savers = [("org.gnome.ScreenSaver", "/org/gnome/ScreenSaver"), ("org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver")]

    private let bus: OpaquePointer
    /// The system bus, while logind is followed on it.
    var system: OpaquePointer?
    /// What each screen saver (and logind, as `org.freedesktop.login1`) last said; absent: not
    /// heard from.
    public internal(set) var active: [String: Bool] = [:]
    private let changed: (Bool) -> Void
    /// Whether any screen saver says the screen is locked.
    public private(set) var isLocked = false
    /// The matches, each with the saver it is for: dropped before the bus.
    var slots: [OpaquePointer] = []
    var boxes: [Box] = []

    public init(on loop: EventLoop, changed: @escaping (Bool) -> Void) throws(SystemError) {
        try Systemd.require("sd_bus_open_user")
        bus = try Systemd.make("sd_bus_open_user") { $0.sd_bus_open_user(&$1) }
        self.changed = changed
        try Systemd.call("sd_bus_attach_event") { $0.sd_bus_attach_event(bus, loop.event, 0) }
        for (name, path) in Self.savers {
            let box = Box(self, name)
            boxes.append(box)
            let userdata = Unmanaged.passUnretained(box).toOpaque()
            slots.append(
                try Systemd.make("sd_bus_match_signal") {
                    $0.sd_bus_match_signal(
                        bus, &$1, nil, nil, name, "ActiveChanged",
                        { m, userdata, _ in
                            guard let m, let userdata, let locked = try? NotificationBus.readBoolean(m) else { return 0 }
                            let box = Unmanaged<Box>.fromOpaque(userdata).takeUnretainedValue()
                            box.lock?.heard(box.name, locked)
                            return 0
                        }, userdata)
                })
            // Asked at once, before anything is planned: a serve starting on a locked screen shows nothing.
            if let locked = Self.active(bus, name, path) { active[name] = locked }
        }
        // A screen saver gone (or replaced: a shell restarted) no longer holds the screen locked;
        // one that locks again says so. A rule naming each saver: the bus sends only those, and
        // serve does not wake as other programs come and go.
        for (name, _) in Self.savers {
            let box = Box(self, name)
            boxes.append(box)
            let rule =
                "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(name)'"
            slots.append(
                try Systemd.make("sd_bus_add_match") {
                    $0.sd_bus_add_match(
                        bus, &$1, rule,
                        { m, userdata, _ in
                            guard m != nil, let userdata else { return 0 }
                            let box = Unmanaged<Box>.fromOpaque(userdata).takeUnretainedValue()
                            box.lock?.heard(box.name, false)
                            return 0
                        }, Unmanaged.passUnretained(box).toOpaque())
                })
        }
        followLogind(loop)
        isLocked = active.values.contains(true)
    }

    /// GetActive of one screen saver, waited for (a second at most); nil: not there, or no answer.
    private static func active(_ bus: OpaquePointer, _ name: String, _ path: String) -> Bool? {
        guard let m = try? Systemd.make("sd_bus_message_new_method_call", { $0.sd_bus_message_new_method_call(bus, &$1, name, path, name, "GetActive") })
        else { return nil }
        return ask(bus, m) { reply throws(SystemError) in try NotificationBus.readBoolean(reply) }
    }

    /// Sends `m` (consumed) and waits a second at most for the answer, read by `read`; nil: an
    /// error, or no answer.
    static func ask<T>(_ bus: OpaquePointer, _ m: OpaquePointer, _ read: (OpaquePointer) throws(SystemError) -> T) -> T? {
        var busError = sd_bus_error()
        var reply: OpaquePointer?
        defer {
            _ = Systemd.unchecked { $0.sd_bus_message_unref(m) }
            Systemd.unchecked { $0.sd_bus_error_free(&busError) }
            if let reply { _ = Systemd.unchecked { $0.sd_bus_message_unref(reply) } }
        }
        guard (try? Systemd.call("sd_bus_call") { $0.sd_bus_call(bus, m, 1_000_000, &busError, &reply) }) != nil, let reply else { return nil }
        return try? read(reply)
    }

    deinit {
        for box in boxes { box.lock = nil }
        for slot in slots { _ = Systemd.unchecked { $0.sd_bus_slot_unref(slot) } }
        _ = Systemd.unchecked { $0.sd_bus_flush_close_unref(bus) }
        if let system { _ = Systemd.unchecked { $0.sd_bus_flush_close_unref(system) } }
    }

    func heard(_ name: String, _ locked: Bool) {
        active[name] = locked
        let now = active.values.contains(true)
        guard now != isLocked else { return }
        isLocked = now
        changed(now)
    }

    /// A screen saver's name, and the watch it reports to (nil once the watch is gone).
    final class Box {
        weak var lock: ScreenLock?
        let name: String
        init(_ lock: ScreenLock, _ name: String) {
            self.lock = lock
            self.name = name
        }
    }
}
