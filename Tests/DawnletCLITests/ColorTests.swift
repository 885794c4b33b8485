import DawnletTestSupport
import Foundation
import Testing

/// Colour and layout: overdue and failed red, late yellow, done and skipped dim, ids
/// padded; `--color auto|always|never`, NO_COLOR and TERM=dumb honoured, never into a pipe or JSON.
/// A terminal is made with script(1), so `auto` meets a real tty.
@Suite struct ColorTests {
    let workspace: Workspace
    init() throws {
        workspace = try Workspace(globals: ["--tz", "Europe/Berlin", "--now", "2026-12-03T10:00"])
        for i in 1...11 { try workspace.cli(["todo", "add", "Todo \(i)", "--due", "2026-12-0\(i % 3 + 1)T0\(i % 9):00"]) }
        try workspace.cli(["todo", "done", "2"])
    }

    static let escape = "\u{1B}["

    /// The command run on a terminal (script's pty), its output as the terminal got it.
    func onTerminal(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let command = ([CLIProcess.binary.path, "--db", workspace.db] + workspace.globals + arguments).map { "'\($0)'" }.joined(separator: " ")
        let (status, output) = try runTool(
            "/usr/bin/script", ["-q", "-e", "-c", command, "/dev/null"],
            environment: ["PATH": "/usr/bin:/bin", "TERM": "xterm", "LANG": "C.UTF-8"].merging(environment) { $1 })
        #expect(status == 0, "\(output)")
        return output.replacingOccurrences(of: "\r\n", with: "\n")
    }

    @Test("on a terminal: overdue red, done dim, the day bold; ids padded so titles line up")
    func colours() throws {
        let list = try onTerminal(["todo", "list"])
        #expect(list.contains("#1   Todo 1  due 2026-12-02 01:00  \(Self.escape)31m[overdue]\(Self.escape)0m\n"), "\(list)")
        #expect(list.contains("\(Self.escape)2m#2   Todo 2  due 2026-12-03 02:00  [done]\(Self.escape)0m\n"), "\(list)")
        #expect(list.contains("\n#11  Todo 11"), "\(list)")
        let today = try onTerminal(["today"])
        #expect(today.hasPrefix("\(Self.escape)1m2026-12-03 Thursday\(Self.escape)0m\n"), "\(today)")
        #expect(today.contains("  01:00  [ ] todo  #10  Todo 10  \(Self.escape)31mOVERDUE since 2026-12-02\(Self.escape)0m\n"), "\(today)")
        #expect(today.contains("  00:00  [ ] todo  #9   Todo 9  "), "\(today)")
        #expect(today.contains("\(Self.escape)2m  02:00  [x] todo  #2   Todo 2\(Self.escape)0m"), "\(today)")
    }

    @Test("never colour into a pipe, into JSON, under NO_COLOR or TERM=dumb, or with --color=never; --color always into a pipe too")
    func whenNot() throws {
        #expect(!(try workspace.cli(["todo", "list"]).stdout.contains(Self.escape)), "a pipe")
        #expect(!(try onTerminal(["todo", "list", "--json"]).contains(Self.escape)), "JSON on a terminal")
        #expect(!(try onTerminal(["today"], environment: ["NO_COLOR": "1"]).contains(Self.escape)), "NO_COLOR")
        #expect(try onTerminal(["today"], environment: ["NO_COLOR": ""]).contains(Self.escape), "an empty NO_COLOR is not set")
        #expect(!(try onTerminal(["today"], environment: ["TERM": "dumb"]).contains(Self.escape)), "TERM=dumb")
        #expect(!(try onTerminal(["--color=never", "today"]).contains(Self.escape)), "--color=never")
        #expect(try workspace.cli(["today", "--color", "always"]).stdout.contains("\(Self.escape)31mOVERDUE"), "--color always, after the command")
        CLIProcess.expectFailure(try CLIProcess.run(["--color", "sometimes", "today"]), status: 2, mentioning: ["--color \"sometimes\""])
    }
}
