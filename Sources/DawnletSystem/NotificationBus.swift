internal import CSystemd
import DawnletCCall
import DawnletCore
import Glibc

/// The desktop notification service (org.freedesktop.Notifications, Desktop Notifications
/// Specification 1.2) on the user's session bus, through sd-bus. One connection: the server sends
/// ActionInvoked and NotificationClosed to the connection that made the notification, so the
/// runner attaches this one to its event loop and makes every call on the loop's thread.
public final class NotificationBus {
    static let service = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"
    /// How long a call may wait for the server before it counts as an error.
    public static let callTimeout: Duration = .seconds(5)

    let bus: OpaquePointer
    /// The server's unique bus name, learned from its replies: signals from anyone else are ignored.
    private var server: String?

    /// Connects to the session bus (DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus).
    public init() throws(SystemError) {
        try Systemd.require("sd_bus_open_user")
        do {
            bus = try Systemd.make("sd_bus_open_user") { $0.sd_bus_open_user(&$1) }
        } catch {
            throw SystemError(
                "no session bus", errno: error.errno,
                detail: error.errno == ENOMEDIUM ? "DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are not set" : nil)
        }
    }

    deinit {
        _ = Systemd.unchecked { $0.sd_bus_flush_close_unref(bus) }
    }

    /// False once the connection broke (the bus went away), or when it cannot be asked: open a new one.
    public var isOpen: Bool { ((try? Systemd.call("sd_bus_is_open") { $0.sd_bus_is_open(bus) }) ?? 0) > 0 }

    /// Dispatches the bus from `loop`: asynchronous replies and signals arrive on the loop's thread.
    public func attach(to loop: EventLoop) throws(SystemError) {
        try Systemd.call("sd_bus_attach_event") { $0.sd_bus_attach_event(bus, loop.event, 0) }
    }

    // MARK: - Calls

    /// GetCapabilities, waiting for the answer (for the CLI).
    public func capabilities() throws(SystemError) -> Set<String> {
        try call(try message("GetCapabilities"), NotificationBus.readStrings)
    }

    /// GetServerInformation: name, vendor, version, specification version.
    public func serverInformation() throws(SystemError) -> [String] {
        try call(try message("GetServerInformation")) { reply throws(SystemError) in
            try (0..<4).map { _ throws(SystemError) in try NotificationBus.readString(reply) }
        }
    }

    /// Notify, waiting for the id (for the CLI).
    public func notify(_ notification: DesktopNotification, replacing id: UInt32 = 0) throws(SystemError) -> UInt32 {
        try call(try notifyMessage(notification, replacing: id), NotificationBus.readID)
    }

    /// GetCapabilities; `done` runs on the loop's thread.
    public func capabilities(_ done: @escaping (Result<Set<String>, SystemError>) -> Void) {
        callAsync({ () throws(SystemError) in try self.message("GetCapabilities") }, NotificationBus.readStrings, done)
    }

    /// GetServerInformation (name, vendor, version, specification version); `done` runs on the
    /// loop's thread.
    public func serverInformation(_ done: @escaping (Result<[String], SystemError>) -> Void) {
        callAsync(
            { () throws(SystemError) in try self.message("GetServerInformation") },
            { reply throws(SystemError) in try (0..<4).map { _ throws(SystemError) in try NotificationBus.readString(reply) } }, done)
    }

    /// Notify; `done` gets the server's id for the notification, on the loop's thread.
    public func notify(_ notification: DesktopNotification, replacing id: UInt32, _ done: @escaping (Result<UInt32, SystemError>) -> Void) {
        callAsync({ () throws(SystemError) in try self.notifyMessage(notification, replacing: id) }, NotificationBus.readID, done)
    }

    /// CloseNotification, answered or not: after an action the notification has done its work
    /// (some servers, dunst among them, leave that to the client).
    public func close(_ id: UInt32) {
        callAsync(
            { () throws(SystemError) in
                let m = try self.message("CloseNotification")
                var builder = MessageBuilder(m)
                do throws(SystemError) { try builder.basic("u", id) } catch {
                    _ = Systemd.unchecked { $0.sd_bus_message_unref(m) }
                    throw error
                }
                return m
            }, { _ throws(SystemError) in () }, { _ in })
    }

    /// What the person did, from the server only, read once into a value: ActionInvoked (id,
    /// action key) and NotificationClosed (id, reason).
    public func onResponses(_ respond: @escaping (UInt32, NotificationResponse) -> Void) throws(SystemError) {
        try match("ActionInvoked") { [unowned self] m in
            guard self.fromServer(m), let id = try? NotificationBus.readID(m), let key = try? NotificationBus.readString(m) else { return }
            respond(id, .invoked(InvokedAction(key: key)))
        }
        try match("NotificationClosed") { [unowned self] m in
            guard self.fromServer(m), let id = try? NotificationBus.readID(m), let reason = try? NotificationBus.readID(m) else { return }
            respond(id, .closed(CloseReason(code: reason)))
        }
    }

    /// Whether the server holds notifications back unseen, as it changes: dunst's `paused` (on
    /// org.dunstproject.cmd0), or `Inhibited` where a server has it, learned from
    /// PropertiesChanged signals, never polled (`paused(_:)` asks once). `changed` runs on the
    /// loop's thread.
    public func onPausedChanges(_ changed: @escaping (Bool) -> Void) throws(SystemError) {
        try match(interface: "org.freedesktop.DBus.Properties", "PropertiesChanged") { [unowned self] m in
            guard self.fromServer(m), let interface = try? NotificationBus.readString(m),
                let name = NotificationBus.pauseProperties.first(where: { $0.interface == interface })?.name,
                let paused = NotificationBus.readBoolean(named: name, in: m)
            else { return }
            changed(paused)
        }
    }

    /// The notification server went away or another took its name (a restart): what was learned
    /// of the old one (its name, its pause) no longer holds. `changed` runs on the loop's thread.
    public func onServerChanged(_ changed: @escaping () -> Void) throws(SystemError) {
        try match(path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", "NameOwnerChanged") { [unowned self] m in
            guard let name = try? NotificationBus.readString(m), name == NotificationBus.service, (try? NotificationBus.readString(m)) != nil,
                let owner = try? NotificationBus.readString(m)
            else { return }
            self.server = owner.isEmpty ? nil : owner
            changed()
        }
    }

    /// Whether the server is paused now (a server with neither property never is), and whether
    /// it is dunst (it has dunst's own interface).
    public func paused(_ done: @escaping (_ paused: Bool, _ dunst: Bool) -> Void) {
        askPaused(NotificationBus.pauseProperties[...]) { paused, interface in done(paused, interface == NotificationBus.pauseProperties[0].interface) }
    }

    /// Where servers say they are paused: dunst's own interface, then the proposed standard one.
    static let pauseProperties = [(interface: "org.dunstproject.cmd0", name: "paused"), (interface: service, name: "Inhibited")]

    /// Properties.Get of the first of `properties` the server has, and its interface; none: not
    /// paused.
    private func askPaused(_ properties: ArraySlice<(interface: String, name: String)>, _ changed: @escaping (Bool, String?) -> Void) {
        guard let property = properties.first else { return changed(false, nil) }
        callAsync(
            { () throws(SystemError) in
                let m = try Systemd.make("sd_bus_message_new_method_call") {
                    $0.sd_bus_message_new_method_call(bus, &$1, NotificationBus.service, NotificationBus.path, "org.freedesktop.DBus.Properties", "Get")
                }
                var builder = MessageBuilder(m)
                do throws(SystemError) {
                    try builder.string(property.interface)
                    try builder.string(property.name)
                } catch {
                    _ = Systemd.unchecked { $0.sd_bus_message_unref(m) }
                    throw error
                }
                return m
            },
            { reply throws(SystemError) in
                guard try NotificationBus.enter(reply, "v", "b") else { throw SystemError("malformed reply", errno: EBADMSG, detail: "expected a boolean") }
                return try NotificationBus.readBoolean(reply)
            },
            { [unowned self] result in
                switch result {
                case .success(let paused): changed(paused, property.interface)
                case .failure: properties.count > 1 ? self.askPaused(properties.dropFirst(), changed) : changed(false, nil)
                }
            })
    }

    // MARK: - Messages

    private func message(_ member: String) throws(SystemError) -> OpaquePointer {
        try Systemd.make("sd_bus_message_new_method_call") {
            $0.sd_bus_message_new_method_call(bus, &$1, NotificationBus.service, NotificationBus.path, NotificationBus.service, member)
        }
    }

    /// Notify(s app_name, u replaces_id, s app_icon, s summary, s body, as actions, a{sv} hints, i expire_timeout).
    private func notifyMessage(_ n: DesktopNotification, replacing id: UInt32) throws(SystemError) -> OpaquePointer {
        let m = try message("Notify")
        do {
            var builder = MessageBuilder(m)
            try builder.string(DesktopNotification.appName)
            try builder.basic("u", id)
            try builder.string("")
            try builder.string(n.summary)
            try builder.string(n.body)
            try builder.container("a", "s") { (b: inout MessageBuilder) throws(SystemError) in
                for action in n.actions {
                    try b.string(action.key)
                    try b.string(action.label)
                }
            }
            try builder.container("a", "{sv}") { (b: inout MessageBuilder) throws(SystemError) in
                try b.hint("urgency", "y") { (v: inout MessageBuilder) throws(SystemError) in try v.basic("y", n.urgency) }
                try b.hint("category", "s") { (v: inout MessageBuilder) throws(SystemError) in try v.string(n.category) }
                try b.hint("desktop-entry", "s") { (v: inout MessageBuilder) throws(SystemError) in try v.string(DesktopNotification.desktopEntry) }
                if let sound = n.sound { try b.hint("sound-name", "s") { (v: inout MessageBuilder) throws(SystemError) in try v.string(sound) } }
                if n.persistence != .default {
                    try b.hint(n.persistence.rawValue, "b") { (v: inout MessageBuilder) throws(SystemError) in try v.basic("b", Int32(1)) }
                }
            }
            try builder.basic("i", n.expireMilliseconds)
        } catch {
            _ = Systemd.unchecked { $0.sd_bus_message_unref(m) }
            throw error
        }
        return m
    }

    /// Appends to a message under construction; every failure becomes a SystemError.
    struct MessageBuilder {
        let m: OpaquePointer
        init(_ m: OpaquePointer) { self.m = m }

        mutating func string(_ text: String) throws(SystemError) {
            try Systemd.call("sd_bus_message_append_basic") { f in
                text.withCString { text in f.sd_bus_message_append_basic(m, CChar(UInt8(ascii: "s")), text) }
            }
        }

        mutating func basic<T>(_ type: Unicode.Scalar, _ value: T) throws(SystemError) {
            var value = value
            try Systemd.call("sd_bus_message_append_basic") { f in
                withUnsafePointer(to: &value) { value in f.sd_bus_message_append_basic(m, CChar(type.value), value) }
            }
        }

        mutating func container(_ type: Unicode.Scalar, _ contents: String, _ body: (inout MessageBuilder) throws(SystemError) -> Void) throws(SystemError) {
            try Systemd.call("sd_bus_message_open_container") { $0.sd_bus_message_open_container(m, CChar(type.value), contents) }
            try body(&self)
            try Systemd.call("sd_bus_message_close_container") { $0.sd_bus_message_close_container(m) }
        }

        /// One `{sv}` entry of the hints dictionary.
        mutating func hint(_ name: String, _ signature: String, _ value: (inout MessageBuilder) throws(SystemError) -> Void) throws(SystemError) {
            try container("e", "sv") { (entry: inout MessageBuilder) throws(SystemError) in
                try entry.string(name)
                try entry.container("v", signature, value)
            }
        }
    }

    // MARK: - The server

    func fromServer(_ m: OpaquePointer) -> Bool {
        guard let sender = Systemd.unchecked({ $0.sd_bus_message_get_sender(m) }) else { return false }
        return server == String(cString: sender)
    }

    private func noteServer(_ reply: OpaquePointer) {
        if let sender = Systemd.unchecked({ $0.sd_bus_message_get_sender(reply) }) { server = String(cString: sender) }
    }

    // MARK: - Plumbing

    /// Sends `m` (consumed) and waits for the reply.
    private func call<T>(_ m: OpaquePointer, _ read: (OpaquePointer) throws(SystemError) -> T) throws(SystemError) -> T {
        defer { _ = Systemd.unchecked { $0.sd_bus_message_unref(m) } }
        var busError = sd_bus_error()
        var reply: OpaquePointer?
        defer {
            Systemd.unchecked { $0.sd_bus_error_free(&busError) }
            if let reply { _ = Systemd.unchecked { $0.sd_bus_message_unref(reply) } }
        }
        do {
            try Systemd.call("sd_bus_call") { $0.sd_bus_call(bus, m, NotificationBus.callTimeout.microseconds, &busError, &reply) }
        } catch {
            // An error reply says more than its errno.
            if busError.name != nil { throw SystemError.bus(&busError) }
            throw error
        }
        guard let reply else { throw SystemError("sd_bus_call", errno: EBADMSG, detail: "no reply") }
        noteServer(reply)
        return try read(reply)
    }

    /// Sends a message and calls `done` with the reply read by `read`, on the loop's thread.
    func callAsync<T>(
        _ make: () throws(SystemError) -> OpaquePointer, _ read: @escaping (OpaquePointer) throws(SystemError) -> T,
        _ done: @escaping (Result<T, SystemError>) -> Void
    ) {
        let m: OpaquePointer
        do { m = try make() } catch { return done(.failure(error)) }
        defer { _ = Systemd.unchecked { $0.sd_bus_message_unref(m) } }
        let box = Unmanaged.passRetained(
            Callback { [unowned self] reply in
                if let error = NotificationBus.error(of: reply) { return done(.failure(error)) }
                self.noteServer(reply)
                done(Result { () throws(SystemError) in try read(reply) })
            })
        do {
            try Systemd.call("sd_bus_call_async") {
                $0.sd_bus_call_async(
                    bus, nil, m,
                    { reply, userdata, _ in
                        guard let userdata else { return 0 }
                        let box = Unmanaged<Callback>.fromOpaque(userdata)
                        if let reply { box.takeUnretainedValue().call(reply) }
                        box.release()
                        return 0
                    }, box.toOpaque(), NotificationBus.callTimeout.microseconds)
            }
        } catch {
            box.release()
            done(.failure(error))
        }
    }

    func match(path: String = path, interface: String = service, _ member: String, _ handler: @escaping (OpaquePointer) -> Void)
        throws(SystemError)
    {
        let box = Unmanaged.passRetained(Callback(handler))
        let slot: OpaquePointer
        do {
            slot = try Systemd.make("sd_bus_match_signal") {
                $0.sd_bus_match_signal(
                    bus, &$1, nil, path, interface, member,
                    { m, userdata, _ in
                        if let m, let userdata { Unmanaged<Callback>.fromOpaque(userdata).takeUnretainedValue().call(m) }
                        return 0
                    }, box.toOpaque())
            }
        } catch {
            box.release()
            throw error
        }
        // The bus keeps the slot; the handler is released with it. When either cannot be set, the
        // slot (and with it the match) is dropped and the handler released.
        do {
            try Systemd.call("sd_bus_slot_set_destroy_callback") {
                $0.sd_bus_slot_set_destroy_callback(slot) { userdata in userdata.map { Unmanaged<Callback>.fromOpaque($0).release() } }
            }
        } catch {
            _ = Systemd.unchecked { $0.sd_bus_slot_unref(slot) }
            box.release()
            throw error
        }
        do {
            try Systemd.call("sd_bus_slot_set_floating") { $0.sd_bus_slot_set_floating(slot, 1) }
        } catch {
            // Ours is the only reference: dropping it frees the slot, and its destroy callback the handler.
            _ = Systemd.unchecked { $0.sd_bus_slot_unref(slot) }
            throw error
        }
    }

    private final class Callback {
        let call: (OpaquePointer) -> Void
        init(_ call: @escaping (OpaquePointer) -> Void) { self.call = call }
    }
}
