import DawnletTestSupport
import Foundation
import Testing

/// Shell completions generated from the command table, run in the shells themselves:
/// bash's completion function with COMP_WORDS as bash sets them, fish's `complete -C`, and an
/// interactive zsh with compinit in a pseudo-terminal, TAB pressed, its listing read back.
@Suite struct CompletionsTests {
    let workspace: Workspace
    let scripts: TemporaryFolder
    init() throws {
        workspace = try Workspace()
        scripts = try TemporaryFolder()
        try workspace.cli(["todo", "add", "Renew passport"])
        try workspace.cli(["todo", "add", "Call: mum 'n' dad"])
        try workspace.cli(["debt", "add", "Car loan", "--balance", "100", "--minimum", "10", "--day", "5"])
    }

    func script(_ shell: String) throws -> String { try Self.script(shell, in: scripts) }
    var environment: [String: String] { Self.environment(scripts) }
    func bash(_ line: [String]) throws -> [String] { try Self.bash(line, scripts: scripts) }
    func fish(_ line: String) throws -> [String] { try Self.fish(line, scripts: scripts) }

    /// The script for `shell`, written into `folder`.
    static func script(_ shell: String, in folder: TemporaryFolder) throws -> String {
        let result = try CLIProcess.run(["completions", shell])
        #expect(result.status == 0, "\(result.stderr)")
        let path = folder.path("dawnlet-remind.\(shell)")
        try result.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The binary's folder first on PATH, as an installed one would be.
    static func environment(_ home: TemporaryFolder) -> [String: String] {
        ["PATH": CLIProcess.binary.deletingLastPathComponent().path + ":/usr/bin:/bin", "HOME": home.url.path, "LANG": "C.UTF-8"]
    }

    /// What bash's completion function offers for the words after the program's name, given as
    /// bash hands them over (split at colons too).
    static func bash(_ line: [String], scripts: TemporaryFolder) throws -> [String] {
        let words = line.map { "'\($0)'" }.joined(separator: " ")
        let program = """
            source "$1"; COMP_WORDS=(dawnlet-remind \(words)); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
            _dawnlet_remind; printf '%s\\n' "${COMPREPLY[@]}"
            """
        let (status, output) = try runTool("/bin/bash", ["-c", program, "bash", try script("bash", in: scripts)], environment: environment(scripts))
        #expect(status == 0, "\(output)")
        return output.split(separator: "\n").map(String.init)
    }

    static func fish(_ line: String, scripts: TemporaryFolder) throws -> [String] {
        try Repository.require("/usr/bin/fish", "fish")
        let (status, output) = try runTool(
            "/usr/bin/fish", ["--no-config", "-c", "source $argv[1]; complete -C $argv[2]", try script("fish", in: scripts), line],
            environment: environment(scripts))
        #expect(status == 0 && !output.contains("fish:"), "\(output)")
        return output.split(separator: "\n").map(String.init)
    }

    @Test("bash: complete -p names the function; nouns, verbs, each command's options, choices, and ids from the --db typed")
    func bashCompletes() throws {
        let (status, registered) = try runTool(
            "/bin/bash", ["-c", "source \"$1\"; complete -p dawnlet-remind", "bash", try script("bash")], environment: environment)
        #expect(status == 0 && registered.contains("complete -F _dawnlet_remind dawnlet-remind"), "\(registered)")
        #expect(try bash(["to"]) == ["todo", "today"])
        #expect(try bash(["todo", "d"]) == ["delete", "done"])
        #expect(try bash(["todo", "add", "Title", "--due", "fri", "--e"]) == ["--every"])
        #expect(Set(try bash(["preview", "--"])) == ["--from", "--to", "--days", "--tag", "--all", "--json", "--help"])
        #expect(try bash(["notify-test", "--channel", "e"]) == ["email"])
        #expect(try bash(["help", "sch"]) == ["schedules"])
        // Several ids: each listed with its title; one: the id alone, to be inserted.
        #expect(try bash(["--db", workspace.db, "todo", "done", ""]) == ["1  (Renew passport)", "2  (Call: mum 'n' dad)"])
        #expect(try bash(["--db", workspace.db, "todo", "done", "2"]) == ["2"])
        #expect(try bash(["--db", workspace.db, "debt", "log", ""]) == ["1"])
        #expect(try bash(["--color", ""]) == ["auto", "always", "never"])
        #expect(try bash(["--color", "always", "to"]) == ["todo", "today"], "--color's value is stepped over")
        #expect(try bash(["--c"]) == ["--config", "--color"])
        #expect(try bash(["man-page", ""]) == ["1", "5"])
        #expect(try bash(["completions", "z"]) == ["zsh"])
        #expect(try bash(["--db", workspace.db, "todo", "done", "1", ""]) == [], "one ID is enough")
        #expect(try bash(["--due", ""]) == [], "a value is not completed as a command")
    }

    @Test("fish: complete -C offers nouns with what they hold, verbs with their summaries, options with their meanings, ids with titles")
    func fishCompletes() throws {
        #expect(try fish("dawnlet-remind tod").contains { $0.hasPrefix("todo\tadd, list, skip") })
        #expect(try fish("dawnlet-remind todo d").map { $0.split(separator: "\t")[0] } == ["delete", "done"])
        let options = try fish("dawnlet-remind todo add x --")
        #expect(options.contains("--due\tthe day it is due, optionally with a time: 2026-12-24, fri, tomorrow 09:00"), "\(options)")
        #expect(!options.contains { $0.hasPrefix("--amount") }, "only todo add's own and the global ones")
        #expect(try fish("dawnlet-remind next --format ").map { $0.split(separator: "\t")[0] } == ["waybar"])
        #expect(try fish("dawnlet-remind --db \(workspace.db) todo done ") == ["1\tRenew passport", "2\tCall: mum 'n' dad"])
        #expect(try fish("dawnlet-remind --db \(workspace.db) todo done 2 ") == [])
        #expect(try fish("dawnlet-remind --color ").map { $0.split(separator: "\t")[0] } == ["always", "auto", "never"])
        #expect(try fish("dawnlet-remind man-page ") == ["1\tthe commands", "5\tthe config file"])
    }

    @Test("zsh: in an interactive zsh with compinit, TAB lists verbs and ids with their descriptions, --color's values, man-page's sections")
    func zshCompletes() throws {
        try Repository.require("/usr/bin/zsh", "zsh")
        let path = try script("zsh")
        #expect(try runTool("/usr/bin/zsh", ["-n", path], environment: environment).0 == 0)
        // Found on fpath under the name its #compdef line gives, as an installed one is.
        let functions = scripts.path("functions")
        try FileManager.default.createDirectory(atPath: functions, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: path, toPath: functions + "/_dawnlet-remind")
        let driver = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts/zsh-complete.zsh").path
        /// The lines zsh lists after TAB, trimmed, without the echoed command line and prompt.
        func zsh(_ words: String...) throws -> [String] {
            let (status, output) = try runTool("/usr/bin/zsh", ["-f", driver, functions, "dawnlet-remind"] + words, environment: environment)
            #expect(status == 0, "\(output)")
            return output.split(separator: "\n").map { String($0.reversed().drop { $0 == " " }.reversed()) }
                .filter { !$0.isEmpty && !$0.contains("dawnlet-remind") }
        }
        let verbs = try zsh("todo")
        #expect(verbs.contains("done     -- Mark one occurrence done (default: today's, or the one-off todo)."), "\(verbs)")
        #expect(try zsh("--db", workspace.db, "todo", "done") == ["1  -- Renew passport", "2  -- Call: mum 'n' dad"])
        #expect(try zsh("--color") == ["always  auto    never"])
        #expect(try zsh("man-page") == ["1  -- the commands", "5  -- the config file"])
    }

    @Test("ids of a noun that has none, a shell that is not one: exit 2 with the nearest")
    func refused() throws {
        CLIProcess.expectFailure(try CLIProcess.run(["completions", "bsh"]), status: 2, mentioning: ["(did you mean \"bash\"?)"])
        CLIProcess.expectFailure(try CLIProcess.run(["completions", "ids", "todos"]), status: 2, mentioning: ["(did you mean \"todo\"?)"])
        // No database yet: nothing to offer, and no error to print under a prompt.
        let none = try CLIProcess.run(["--db", scripts.path("none.sqlite"), "completions", "ids", "todo"])
        #expect(none.status == 0 && none.stdout.isEmpty && none.stderr.isEmpty)
    }
}
