import DawnletTestSupport
import Foundation
import Testing

/// Runs the built `dawnlet-remind` binary as a person would, and captures what it says.
struct CLIResult {
    let status: Int32
    let stdout: String
    let stderr: String
}

enum CLIProcess {
    /// The binary next to the test bundle (`swift build` puts both in one folder), or $DAWNLET_BIN.
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["DAWNLET_BIN"] { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("dawnlet-remind")
    }()

    /// Runs the binary with `arguments` and a small fixed environment; the test waits for it.
    /// (Foundation's Process is fine here: the child is never signalled.)
    /// With `within`, `timeout` ends it after so many seconds (exit 124): for a run that must end by itself.
    static func run(_ arguments: [String], environment: [String: String] = [:], as user: String? = nil, within seconds: Int? = nil) throws -> CLIResult {
        let process = Process()
        if let seconds {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
            process.arguments = [String(seconds), binary.path] + arguments
        } else if let user {
            // setpriv drops root, so permission checks apply (tests run as root).
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        var env = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8"]
        env.merge(environment) { $1 }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes to the end before waiting, so a large output cannot fill a pipe and stall.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIResult(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// An empty database at `db`, made the only way a person can: a write (a todo added, then
    /// deleted). Commands that only read never create one.
    /// A database with nothing in it, begun at `began` (`--now`; default the clock's now).
    static func createDatabase(_ db: String, began: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for arguments in [["todo", "add", "placeholder"], ["todo", "delete", "1"]] {
            let result = try run(["--db", db] + (began.map { ["--now", $0] } ?? []) + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        }
    }

    /// Asserts a failure as every command must fail: the exit code, one clear message line (plus
    /// the usage line for usage errors), and no crash or backtrace.
    static func expectFailure(
        _ result: CLIResult, status: Int32, mentioning words: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == status, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.first?.hasPrefix("dawnlet-remind: ") == true, sourceLocation: sourceLocation)
        #expect(lines.count <= 2, "\(result.stderr)", sourceLocation: sourceLocation)
        for word in words {
            #expect(lines.first?.contains(word) == true, "\(word) in \(result.stderr)", sourceLocation: sourceLocation)
        }
        for crash in ["Fatal error", "backtrace", "Illegal instruction", "Segmentation"] {
            #expect(!result.stderr.contains(crash), sourceLocation: sourceLocation)
        }
    }
}

/// A database in a fresh folder, and the binary run on it with fixed global options: what most
/// command suites start from.
struct Workspace {
    let folder: TemporaryFolder
    let db: String
    /// Global options every run gets (`--now …`, `--config …`).
    var globals: [String] = []

    init(globals: [String] = []) throws {
        folder = try TemporaryFolder()
        db = folder.path("dawnlet.sqlite")
        self.globals = globals
    }

    /// Runs the binary and expects `status` (0 by default).
    @discardableResult
    func cli(_ arguments: [String], expect status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        let result = try CLIProcess.run(["--db", db] + globals + arguments)
        #expect(result.status == status, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result
    }
}
