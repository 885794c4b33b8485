internal import CSystemd
import DawnletCCall
import Glibc

/// logind's word on the lock: the LockedHint of the user's graphical session (the User's
/// `Display`, so that a serve run as a user service, in no session of its own, finds it), on the
/// system bus (DBUS_SYSTEM_BUS_ADDRESS, else the system's); asked once, then followed by the
/// session's PropertiesChanged. No system bus, no logind, no graphical session: nothing from it.
extension ScreenLock {
    static let logind = "org.freedesktop.login1"

    func followLogind(_ loop: EventLoop) {
        guard let bus = try? Systemd.make("sd_bus_open_system", { $0.sd_bus_open_system(&$1) }) else { return }
        guard let session = Self.graphicalSession(bus), (try? Systemd.call("sd_bus_attach_event") { $0.sd_bus_attach_event(bus, loop.event, 0) }) != nil
        else {
            _ = Systemd.unchecked { $0.sd_bus_flush_close_unref(bus) }
            return
        }
        system = bus
        let box = Box(self, Self.logind)
        boxes.append(box)
        let matched = try? Systemd.make("sd_bus_match_signal") {
            $0.sd_bus_match_signal(
                bus, &$1, nil, session, "org.freedesktop.DBus.Properties", "PropertiesChanged",
                { m, userdata, _ in
                    guard let m, let userdata, (try? NotificationBus.readString(m)) == "org.freedesktop.login1.Session",
                        let locked = NotificationBus.readBoolean(named: "LockedHint", in: m)
                    else { return 0 }
                    let box = Unmanaged<Box>.fromOpaque(userdata).takeUnretainedValue()
                    box.lock?.heard(box.name, locked)
                    return 0
                }, Unmanaged.passUnretained(box).toOpaque())
        }
        guard let matched else { return }
        slots.append(matched)
        if let locked = Self.property(
            bus, session, "org.freedesktop.login1.Session", "LockedHint",
            { m throws(SystemError) in
                guard try NotificationBus.enter(m, "v", "b") else { throw SystemError("malformed reply", errno: EBADMSG) }
                return try NotificationBus.readBoolean(m)
            })
        {
            active[Self.logind] = locked
        }
    }

    /// The object path of the user's graphical session: GetUser(uid), then that user's `Display`.
    static func graphicalSession(_ bus: OpaquePointer) -> String? {
        guard
            let m = try? Systemd.make(
                "sd_bus_message_new_method_call",
                { $0.sd_bus_message_new_method_call(bus, &$1, logind, "/org/freedesktop/login1", "\(logind).Manager", "GetUser") })
        else { return nil }
        var uid = getuid()
        guard
            (try? Systemd.call("sd_bus_message_append_basic") { f in
                withUnsafePointer(to: &uid) { f.sd_bus_message_append_basic(m, CChar(UInt8(ascii: "u")), $0) }
            }) != nil
        else {
            _ = Systemd.unchecked { $0.sd_bus_message_unref(m) }
            return nil
        }
        guard let user = ask(bus, m, { reply throws(SystemError) in try objectPath(reply) }) else { return nil }
        let session = property(bus, user, "\(logind).User", "Display") { reply throws(SystemError) -> String in
            guard try NotificationBus.enter(reply, "v", "(so)"), try NotificationBus.enter(reply, "r", "so") else {
                throw SystemError("malformed reply", errno: EBADMSG)
            }
            _ = try NotificationBus.readString(reply)
            return try objectPath(reply)
        }
        // No graphical session: "/".
        return session == "/" ? nil : session
    }

    /// Properties.Get of `name` on `path`, read by `read` (which enters the variant).
    static func property<T>(_ bus: OpaquePointer, _ path: String, _ interface: String, _ name: String, _ read: (OpaquePointer) throws(SystemError) -> T) -> T? {
        guard
            let m = try? Systemd.make(
                "sd_bus_message_new_method_call", { $0.sd_bus_message_new_method_call(bus, &$1, logind, path, "org.freedesktop.DBus.Properties", "Get") })
        else { return nil }
        for text in [interface, name] {
            guard
                (try? Systemd.call("sd_bus_message_append_basic") { f in text.withCString { f.sd_bus_message_append_basic(m, CChar(UInt8(ascii: "s")), $0) } })
                    != nil
            else {
                _ = Systemd.unchecked { $0.sd_bus_message_unref(m) }
                return nil
            }
        }
        return ask(bus, m, read)
    }

    static func objectPath(_ m: OpaquePointer) throws(SystemError) -> String {
        var text: UnsafePointer<CChar>?
        guard try NotificationBus.read(m, "o", &text), let text else { throw SystemError("malformed reply", errno: EBADMSG, detail: "expected an object path") }
        return String(cString: text)
    }
}
