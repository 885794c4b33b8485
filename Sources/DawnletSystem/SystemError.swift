import Glibc

/// A failed system or libsystemd call: which call, and the errno it reported.
public struct SystemError: Error, Hashable, Sendable, CustomStringConvertible {
    public let operation: String
    public let errno: Int32

    public init(_ operation: String, errno: Int32) {
        self.operation = operation
        self.errno = errno
    }

    public var description: String { "\(operation): \(String(cString: strerror(errno)))" }

    /// libsystemd returns a negative errno and never sets `errno`; this is the one place that
    /// convention becomes a thrown error. Returns the (non-negative) result otherwise.
    @discardableResult
    public static func check(_ result: Int32, _ operation: @autoclosure () -> String) throws(SystemError) -> Int32 {
        guard result >= 0 else { throw SystemError(operation(), errno: -result) }
        return result
    }

    /// The POSIX convention: -1 and `errno`.
    @discardableResult
    public static func checkPOSIX(_ result: Int32, _ operation: @autoclosure () -> String) throws(SystemError) -> Int32 {
        guard result != -1 else { throw SystemError(operation(), errno: Glibc.errno) }
        return result
    }
}
