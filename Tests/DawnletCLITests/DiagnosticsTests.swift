import DawnletTestSupport
import Foundation
import Testing

/// Honest diagnostics: `doctor` prints every check, pass or fail, one line each, with
/// what to do about each failure.
@Suite struct DiagnosticsTests {
    let workspace: Workspace
    init() throws { workspace = try Workspace() }

    @Test("doctor: every check is a line, a failed one says how to fix it; a config it cannot read is one of them")
    func doctorEveryCheck() throws {
        let config = workspace.folder.path("config.json5")
        try #"{ channels: { command: { argv: ["no-such-program-here"] } }, route: { default: ["command"] } }"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        try workspace.cli(["todo", "add", "Something"])
        let r = try CLIProcess.run(["--db", workspace.db, "--config", config, "doctor"])
        #expect(r.status == 1)
        #expect(r.stderr == "dawnlet-remind: 1 problem found\n", "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        for check in [
            "ok   config: ", "ok   time zone: ", "ok   time zone rules: ", "ok   database: \(workspace.db): 1 item definitions",
            "FAIL command: no-such-program-here is not found in PATH; to fix: install it, or name another program in channels.command.argv",
        ] {
            #expect(lines.contains { $0.hasPrefix(check) }, "no \(check) in:\n\(r.stdout)")
        }
        #expect(lines.last?.contains("service: ") == true, "the last check ran too: \(r.stdout)")

        // A config that cannot be read: said among the checks, the rest checked on the defaults.
        try "{ horizon: \"2d\" ".write(toFile: config, atomically: true, encoding: .utf8)
        let broken = try CLIProcess.run(["--db", workspace.db, "--config", config, "doctor"])
        #expect(broken.status == 1)
        let first = broken.stdout.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("FAIL config: \(config):1:") && first.contains("never closed") && first.contains("; to fix: "), "\(broken.stdout)")
        #expect(broken.stdout.contains("ok   database: "), "\(broken.stdout)")
        // Every other command still refuses it.
        CLIProcess.expectFailure(try CLIProcess.run(["--db", workspace.db, "--config", config, "today"]), status: 78, mentioning: [config])
    }

    @Test("doctor counts exactly what missed lists: none once missed --clear acknowledged them, one after one key of two")
    func doctorCountsMissed() throws {
        try workspace.cli(["todo", "add", "Something"])
        let script = """
            import sqlite3, sys; c = sqlite3.connect(sys.argv[1])
            for key in ("todo:1:2026-11-30:0m", "todo:1:2026-11-29:0m"):
                c.execute("INSERT INTO deliveries (key, channel, state, kind, title, fire_at, claimed_at, detail) VALUES (?, 'desktop', 'missed', 'todo', 'Something', 1796000000, 1796000000, 'outside the grace window')", (key,))
            c.commit()
            """
        #expect(try runTool("/usr/bin/python3", ["-c", script, workspace.db], environment: [:]).0 == 0)
        func deliveries() throws -> String? {
            let lines = try CLIProcess.run(["--db", workspace.db, "doctor"]).stdout.split(separator: "\n").map(String.init)
            return lines.first { $0.hasPrefix("note deliveries: ") }
        }
        func listed() throws -> Int {
            let text = try workspace.cli(["missed"]).stdout
            return text == "nothing missed\n" ? 0 : text.split(separator: "\n").count
        }
        #expect(try listed() == 2)
        #expect(try deliveries() == "note deliveries: 2 missed (2 outside the grace window; `dawnlet-remind missed` lists them)")
        try workspace.cli(["missed", "--clear", "todo:1:2026-11-30:0m"])
        #expect(try listed() == 1)
        #expect(try deliveries() == "note deliveries: 1 missed (1 outside the grace window; `dawnlet-remind missed` lists them)")
        try workspace.cli(["missed", "--clear"])
        #expect(try listed() == 0)
        #expect(try deliveries() == nil, "nothing missed is left to count")
    }

    @Test("doctor checks the export folder: its files counted; a file where the folder should be is a failure")
    func doctorExport() throws {
        let config = workspace.folder.path("config.json5"), vdir = workspace.folder.path("vdir")
        try "{ export: { to: \"\(vdir)\" } }".write(toFile: config, atomically: true, encoding: .utf8)
        try workspace.cli(["todo", "add", "Something"])
        try workspace.cli(["export", "--to", vdir])
        let r = try CLIProcess.run(["--db", workspace.db, "--config", config, "doctor"])
        #expect(r.stdout.contains("ok   export: \(vdir): 1 file of your todos and events, kept by serve\n"), "\(r.stdout)")
        try FileManager.default.removeItem(atPath: vdir)
        try "".write(toFile: vdir, atomically: true, encoding: .utf8)
        let file = try CLIProcess.run(["--db", workspace.db, "--config", config, "doctor"])
        #expect(file.status == 1)
        #expect(
            file.stdout.contains("FAIL export: \(vdir) is not a folder this user can write; to fix: point export.to at a folder of yours"), "\(file.stdout)")
    }

    @Test("the example config copied as it is, where the config belongs: doctor passes, nothing failed, and the example's defaults are in force")
    func exampleConfigAsItIs() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let home = workspace.folder.path("home")
        try FileManager.default.createDirectory(atPath: home + "/.config/dawnlet", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: root.appendingPathComponent("config/config.example.json5").path, toPath: home + "/.config/dawnlet/config.json5")
        let environment = ["HOME": home, "XDG_CONFIG_HOME": home + "/.config"]
        try CLIProcess.run(["--db", workspace.db, "todo", "add", "Water the plants", "--due", "2026-12-01T09:00"], environment: environment).expectSuccess()
        let r = try CLIProcess.run(["--db", workspace.db, "doctor"], environment: environment)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(!r.stdout.contains("FAIL"), "\(r.stdout)")
        #expect(r.stdout.contains("ok   config: \(home)/.config/dawnlet/config.json5 (read)"), "\(r.stdout)")
        // The system's zone, no mail server, no calendar: nothing of the example's own people.
        #expect(r.stdout.contains("(the system's; followed when it changes)") && !r.stdout.contains("email") && !r.stdout.contains("calendar"), "\(r.stdout)")
    }

    @Test("doctor names the config it reads, and a config under the program's name, never read, is a failure saying where it belongs")
    func misplacedConfig() throws {
        let home = workspace.folder.path("xdg")
        try FileManager.default.createDirectory(atPath: home + "/dawnlet-remind", withIntermediateDirectories: true)
        try "{ timeZone: 'Asia/Tokyo' }".write(toFile: home + "/dawnlet-remind/config.json5", atomically: true, encoding: .utf8)
        let r = try CLIProcess.run(["--db", workspace.db, "doctor"], environment: ["XDG_CONFIG_HOME": home])
        #expect(r.status == 1, "\(r.stdout)")
        #expect(r.stdout.contains("ok   config: \(home)/dawnlet/config.json5 (absent: defaults)\n"), "\(r.stdout)")
        #expect(
            r.stdout.contains(
                "FAIL config: \(home)/dawnlet-remind/config.json5 is not read: the config is \(home)/dawnlet/config.json5; to fix: move it there"),
            "\(r.stdout)")
        // With the real one there too, a note.
        try FileManager.default.createDirectory(atPath: home + "/dawnlet", withIntermediateDirectories: true)
        try "{}".write(toFile: home + "/dawnlet/config.json5", atomically: true, encoding: .utf8)
        let both = try CLIProcess.run(["--db", workspace.db, "doctor"], environment: ["XDG_CONFIG_HOME": home])
        #expect(both.stdout.contains("note config: \(home)/dawnlet-remind/config.json5 is not read"), "\(both.stdout)")
    }
}
