internal import CSystemd
import Glibc

/// libsystemd, loaded on first use (see Sources/CSystemd/shim.h for why it is not linked). What
/// calls it first asks `require` (the event loop, the bus) or `isAvailable` (sd_notify), so that
/// a machine without it gets a clear error from `serve`, not a crash.
enum Systemd {
    private static let loaded: (table: dawnlet_systemd, problem: String?) = {
        var table = dawnlet_systemd()
        let missing = dawnlet_systemd_load(&table).map { String(cString: $0) }
        return (table, missing)
    }()

    /// Its functions: every field is there once `require` has not thrown.
    static var f: dawnlet_systemd { loaded.table }

    static var isAvailable: Bool { loaded.problem == nil }

    /// Throws, for `operation`, when libsystemd cannot be loaded.
    static func require(_ operation: String) throws(SystemError) {
        guard let problem = loaded.problem else { return }
        throw SystemError(operation, errno: ENOSYS, detail: "libsystemd.so.0 cannot be loaded (install libsystemd0): \(problem)")
    }
}
