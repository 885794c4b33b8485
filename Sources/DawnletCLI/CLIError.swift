/// The exit codes every command ends with (sysexits where one fits).
public enum ExitCode: Int32, Sendable {
    case success = 0
    case failure = 1
    case usage = 2
    case dataError = 65
    /// EX_NOINPUT: a command that only reads found no database to read.
    case noInput = 66
    /// EX_TEMPFAIL: worth trying again later (`mail-send`).
    case tempFail = 75
    case configError = 78
}

/// An error the command line reports as one line on stderr and an exit code.
struct CLIError: Error, CustomStringConvertible {
    let code: ExitCode
    let message: String
    /// The usage line to print after a usage error.
    var usage: String?

    static func usage(_ message: String, _ usage: String? = nil) -> CLIError {
        CLIError(code: .usage, message: message, usage: usage)
    }

    static func data(_ message: String) -> CLIError { CLIError(code: .dataError, message: message) }

    var description: String { message }
}
