internal import CSystemd
import Glibc

/// Reading what the server sent: the values of a reply or a signal, and an error reply.
extension NotificationBus {
    /// Reads the next value, of D-Bus type `type`, into `value`: true when there was one, false at
    /// the end of the container; a failure (a value of another type) is thrown.
    static func read(_ m: OpaquePointer, _ type: Unicode.Scalar, _ value: UnsafeMutableRawPointer) throws(SystemError) -> Bool {
        try Systemd.call("sd_bus_message_read_basic") { $0.sd_bus_message_read_basic(m, CChar(type.value), value) } > 0
    }

    /// Enters the next value, a container of `type` holding `contents`: true when there was one,
    /// false at the end of the enclosing container.
    static func enter(_ m: OpaquePointer, _ type: Unicode.Scalar, _ contents: String) throws(SystemError) -> Bool {
        try Systemd.call("sd_bus_message_enter_container") { $0.sd_bus_message_enter_container(m, CChar(type.value), contents) } > 0
    }

    static func readID(_ m: OpaquePointer) throws(SystemError) -> UInt32 {
        var id: UInt32 = 0
        guard try read(m, "u", &id) else { throw SystemError("malformed reply", errno: EBADMSG, detail: "expected a notification id") }
        return id
    }

    static func readBoolean(_ m: OpaquePointer) throws(SystemError) -> Bool {
        var value: Int32 = 0
        guard try read(m, "b", &value) else { throw SystemError("malformed reply", errno: EBADMSG, detail: "expected a boolean") }
        return value != 0
    }

    static func readString(_ m: OpaquePointer) throws(SystemError) -> String {
        var text: UnsafePointer<CChar>?
        guard try read(m, "s", &text), let text else { throw SystemError("malformed reply", errno: EBADMSG, detail: "expected a string") }
        return String(cString: text)
    }

    static func readStrings(_ m: OpaquePointer) throws(SystemError) -> Set<String> {
        guard try enter(m, "a", "s") else { throw SystemError("malformed reply", errno: EBADMSG, detail: "expected a list of strings") }
        var result = Set<String>()
        var text: UnsafePointer<CChar>?
        while try read(m, "s", &text), let t = text { result.insert(String(cString: t)) }
        try Systemd.call("sd_bus_message_exit_container") { $0.sd_bus_message_exit_container(m) }
        return result
    }

    /// The boolean property `name` in a PropertiesChanged signal's changed properties (a{sv}), read
    /// after its interface name; nil when it is not among them, or when the signal is malformed.
    static func readBoolean(named name: String, in m: OpaquePointer) -> Bool? {
        do throws(SystemError) {
            guard try enter(m, "a", "{sv}") else { return nil }
            while try enter(m, "e", "sv") {
                if try readString(m) == name {
                    guard try enter(m, "v", "b") else { return nil }
                    return try readBoolean(m)
                }
                try Systemd.call("sd_bus_message_skip") { $0.sd_bus_message_skip(m, "v") }
                try Systemd.call("sd_bus_message_exit_container") { $0.sd_bus_message_exit_container(m) }
            }
            return nil
        } catch {
            return nil
        }
    }

    static func error(of reply: OpaquePointer) -> SystemError? {
        guard Systemd.unchecked({ $0.sd_bus_message_is_method_error(reply, nil) }) > 0, let e = Systemd.unchecked({ $0.sd_bus_message_get_error(reply) })
        else { return nil }
        return SystemError.bus(e)
    }
}

extension SystemError {
    /// An sd-bus error (an error reply, or a call that failed with one): its name, message and errno.
    static func bus(_ error: UnsafePointer<sd_bus_error>) -> SystemError {
        SystemError(
            "D-Bus call", errno: Systemd.unchecked { $0.sd_bus_error_get_errno(error) }, busError: error.pointee.name.map { String(cString: $0) } ?? "error",
            detail: error.pointee.message.map { String(cString: $0) } ?? "")
    }
}
