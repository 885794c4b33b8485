import DawnletCCall
import Glibc

/// A failed system, libsystemd or D-Bus call: which call, the errno it reported, and for a D-Bus
/// error reply its name (`org.freedesktop.DBus.Error.ServiceUnknown`), so a caller can match either.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    public let operation: String
    public let errno: Int32
    /// The D-Bus error name of an error reply, when there was one.
    public let busError: String?
    /// The words of whoever failed (a D-Bus error's message, why there is no connection), said
    /// instead of strerror's.
    public let detail: String?

    public init(_ operation: String, errno: Int32, busError: String? = nil, detail: String? = nil) {
        self.operation = operation
        self.errno = errno
        self.busError = busError
        self.detail = detail
    }

    public var description: String {
        if let busError { return detail.map { $0.isEmpty ? busError : "\(busError): \($0)" } ?? busError }
        return "\(operation): \(detail ?? String(cString: strerror(errno)))"
    }

    /// libsystemd returns a negative errno and never sets `errno`; this is the one place that
    /// convention becomes a thrown error. Returns the (non-negative) result otherwise.
    @discardableResult
    public static func check(_ result: Int32, _ operation: @autoclosure () -> String) throws(SystemError) -> Int32 {
        guard result >= 0 else { throw SystemError(operation(), errno: -result) }
        return result
    }

    /// A kernel call of the POSIX convention (-1 and `errno`), through `CCall.posix` (the failure a
    /// test asked for, the one EINTR policy): its result, or a thrown error naming `operation`
    /// (the function's name by default).
    @discardableResult
    public static func posix(_ function: StaticString, _ operation: @autoclosure () -> String? = nil, _ body: () -> Int32) throws(SystemError) -> Int32 {
        let result = CCall.posix(function, body)
        guard result != -1 else { throw SystemError(operation() ?? "\(function)", errno: Glibc.errno) }
        return result
    }

    /// A failure the same call may well not meet again, and that left nothing done: a connection
    /// reset or closed before the call went out, a shortage of the moment. Not: no bus, no server,
    /// refused; nor an error reply, a reply that never came or a bus gone after the call went out,
    /// when the server may have done it (trying again could show it twice).
    public var isTransient: Bool {
        guard busError == nil else { return false }
        return [ECONNRESET, EPIPE, ENOTCONN, ETIMEDOUT, EAGAIN, ENOBUFS, ENOMEM, EINTR].contains(errno)
    }
}
