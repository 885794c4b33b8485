internal import CSystemd
import DawnletCCall
import Glibc

/// libsystemd, loaded on first use (see Sources/CSystemd/shim.h for why it is not linked). What
/// calls it first asks `require` (the event loop, the bus), so that a machine without it gets a
/// clear error from `serve`, not a crash. The table holds the event loop's and the bus's functions
/// (and sd_notify, no longer called: `ServiceNotify` speaks its protocol without waiting), the last
/// added being a match by rule, which can name a signal's first argument so that the bus sends only
/// what is asked for (shim.h says why this file changes with each one added).
enum Systemd {
    private struct Table: @unchecked Sendable {
        let functions: dawnlet_systemd
    }

    private static let loaded: Result<Table, SystemError> = {
        var problem: UnsafePointer<CChar>?
        guard let table = dawnlet_systemd_load(&problem) else {
            let why = problem.map { String(cString: $0) } ?? "unknown"
            return .failure(SystemError("dlopen", errno: ENOSYS, detail: "libsystemd.so.0 cannot be loaded (install libsystemd0): \(why)"))
        }
        return .success(Table(functions: table.pointee))
    }()

    /// Its functions, reached only through `call`, `make` and `unchecked`. Asking for them without
    /// `require` (or `isAvailable`) first is a programmer's error, and traps.
    private static var f: dawnlet_systemd {
        switch loaded {
        case .success(let table): return table.functions
        case .failure(let error): preconditionFailure("libsystemd used without Systemd.require: \(error)")
        }
    }

    static var isAvailable: Bool {
        if case .success = loaded { return true }
        return false
    }

    /// Throws, for `operation`, when libsystemd cannot be loaded.
    static func require(_ operation: String) throws(SystemError) {
        guard case .failure(let error) = loaded else { return }
        throw SystemError(operation, errno: ENOSYS, detail: error.detail)
    }

    /// The one path of a libsystemd call whose failure is handled: the failure a test asked for
    /// (`FailureInjection`), else the call; a negative errno becomes a thrown `SystemError`
    /// naming `function`. Returns the (non-negative) result.
    @discardableResult
    static func call(_ function: StaticString, _ body: (dawnlet_systemd) -> Int32) throws(SystemError) -> Int32 {
        let table = f
        return try SystemError.check(CCall.negativeErrno(function) { body(table) }, "\(function)")
    }

    /// A call with no failure to handle: a reference or an error freed in teardown, whose result
    /// is ignored on purpose, or an accessor of a message that cannot fail on a valid one (its
    /// sender, its error). A test cannot fail it; anything whose result is checked goes through
    /// `call` or `make`.
    static func unchecked<R>(_ body: (dawnlet_systemd) -> R) -> R {
        body(f)
    }

    /// `call` for a function that makes an object and hands it back through its second argument.
    static func make(_ function: StaticString, _ body: (dawnlet_systemd, inout OpaquePointer?) -> Int32) throws(SystemError) -> OpaquePointer {
        var made: OpaquePointer?
        try call(function) { body($0, &made) }
        guard let made else { throw SystemError("\(function)", errno: ENOMEM) }
        return made
    }
}
