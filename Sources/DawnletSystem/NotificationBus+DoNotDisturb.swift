internal import CSystemd
import DawnletCore
import Glibc

/// Do Not Disturb as each server keeps it (`DoNotDisturb.Source`): asked once, then followed by the
/// server's own signal; mako's asked each time (it has none). A server that cannot be asked counts
/// as not in Do Not Disturb: nothing is held on a guess.
extension NotificationBus {
    static let swaync = (service: "org.erikreider.swaync.cc", path: "/org/erikreider/swaync/cc")
    static let xfconf = (service: "org.xfce.Xfconf", path: "/org/xfce/Xfconf", channel: "xfce4-notifyd", property: "/do-not-disturb")
    static let mako = (path: "/fr/emersion/Mako", interface: "fr.emersion.Mako")

    /// Whether Do Not Disturb is on now, asked the way `source` keeps it; false where it has none
    /// we read, or when the asking fails. `done` runs on the loop's thread.
    public func doNotDisturb(_ source: DoNotDisturb.Source, _ done: @escaping (Bool) -> Void) {
        let make: () throws(SystemError) -> OpaquePointer
        let read: (OpaquePointer) throws(SystemError) -> Bool
        switch source {
        case .swaync:
            make = { () throws(SystemError) in
                try self.method(NotificationBus.swaync.service, NotificationBus.swaync.path, NotificationBus.swaync.service, "GetDnd")
            }
            read = NotificationBus.readBoolean
        case .xfconf:
            make = { () throws(SystemError) in
                try self.method(
                    NotificationBus.xfconf.service, NotificationBus.xfconf.path, NotificationBus.xfconf.service, "GetProperty",
                    [NotificationBus.xfconf.channel, NotificationBus.xfconf.property])
            }
            read = NotificationBus.readVariantBoolean
        case .makoModes:
            make = { () throws(SystemError) in try self.method(NotificationBus.service, NotificationBus.mako.path, NotificationBus.mako.interface, "ListModes")
            }
            read = { m throws(SystemError) in DoNotDisturb.on(makoModes: Array(try NotificationBus.readStrings(m))) }
        case .gnomeShowBanners:
            // A file, not a call: dconf's readers read its database themselves.
            return done(DconfUser.read().map(DoNotDisturb.on(dconfUser:)) ?? false)
        case .dunstPaused, .inhibited:
            return done(false)
        }
        // An xfconf without the property (never set) answers an error: not on.
        callAsync(make, read) { result in done((try? result.get()) ?? false) }
    }

    /// Do Not Disturb as `source` signals it: swaync's OnDndToggle (from the server), xfconf's
    /// PropertyChanged and PropertyRemoved of xfce4-notifyd's `/do-not-disturb`. Nothing for a
    /// source without a signal. `changed` runs on the loop's thread.
    public func onDoNotDisturbChanges(_ source: DoNotDisturb.Source, _ changed: @escaping (Bool) -> Void) throws(SystemError) {
        switch source {
        case .swaync:
            try match("OnDndToggle") { [unowned self] m in
                guard self.fromServer(m), let on = try? NotificationBus.readBoolean(m) else { return }
                changed(on)
            }
        case .xfconf:
            let x = NotificationBus.xfconf
            try match(path: x.path, interface: x.service, "PropertyChanged") { m in
                guard (try? NotificationBus.readString(m)) == x.channel, (try? NotificationBus.readString(m)) == x.property else { return }
                changed((try? NotificationBus.readVariantBoolean(m)) ?? false)
            }
            try match(path: x.path, interface: x.service, "PropertyRemoved") { m in
                guard (try? NotificationBus.readString(m)) == x.channel, (try? NotificationBus.readString(m)) == x.property else { return }
                changed(false)
            }
        case .gnomeShowBanners:
            // dconf-service says which keys it wrote; the value is read from its file again.
            try match(path: DconfUser.writerPath, interface: DconfUser.writer, "Notify") { m in
                guard let prefix = try? NotificationBus.readString(m), let changes = try? NotificationBus.readStrings(m),
                    DoNotDisturb.touchesShowBanners(prefix: prefix, changes: Array(changes))
                else { return }
                changed(DconfUser.read().map(DoNotDisturb.on(dconfUser:)) ?? false)
            }
        case .makoModes, .dunstPaused, .inhibited:
            break
        }
    }

    /// A method call with string arguments.
    private func method(_ destination: String, _ path: String, _ interface: String, _ member: String, _ strings: [String] = []) throws(SystemError)
        -> OpaquePointer
    {
        let m = try Systemd.make("sd_bus_message_new_method_call") { $0.sd_bus_message_new_method_call(bus, &$1, destination, path, interface, member) }
        var builder = MessageBuilder(m)
        do throws(SystemError) {
            for s in strings { try builder.string(s) }
        } catch {
            _ = Systemd.unchecked { $0.sd_bus_message_unref(m) }
            throw error
        }
        return m
    }

    /// A variant holding a boolean; a variant of another type is not true.
    static func readVariantBoolean(_ m: OpaquePointer) throws(SystemError) -> Bool {
        guard try enter(m, "v", "b") else { return false }
        return try readBoolean(m)
    }
}
