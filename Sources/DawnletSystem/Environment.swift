import Glibc

/// This process's environment, read one variable at a time. `ProcessInfo.processInfo.environment`
/// builds a dictionary of every variable on each call, which a command that lives for a few
/// milliseconds paid four or five times over just to look up `HOME` or `XDG_RUNTIME_DIR`.
public enum Environment {
    /// The variable's value, or nil when it is not set.
    public static func variable(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The variable in `environment` when one is given (tests give theirs), else in this process's.
    public static func variable(_ name: String, in environment: [String: String]?) -> String? {
        guard let environment else { return variable(name) }
        return environment[name]
    }
}
