import DawnletTestSupport
import Foundation
import Testing

/// What a person or another program can put where dawnlet-remind reads: each case its file or
/// command, its exit code and its one line, and files that are not ours left as they were.
@Suite struct HostileInputTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    func run(_ arguments: String..., environment: [String: String] = [:], as user: String? = nil) throws -> CLIResult {
        try CLIProcess.run(arguments, environment: environment, as: user)
    }

    /// The bytes of a file and of its -wal, -shm and -journal (nil where absent).
    func snapshot(_ path: String) -> [Data?] {
        ["", "-wal", "-shm", "-journal"].map { FileManager.default.contents(atPath: path + $0) }
    }

    @Test(
        "database files that are not ours: 65, one line naming why, every byte as it was",
        arguments: [
            ("empty", "it is empty"), ("one byte", "too short"), ("/dev/zero", "not a regular file"),
            ("foreign WAL", "another program"), ("version -1", "schema version -1"), ("no tables", "has no tables"),
        ])
    func databases(_ name: String, _ why: String) throws {
        var path = folder.path("d.sqlite")
        switch name {
        case "empty": FileManager.default.createFile(atPath: path, contents: Data())
        case "one byte": FileManager.default.createFile(atPath: path, contents: Data([0]))
        case "/dev/zero": path = "/dev/zero"
        case "foreign WAL":
            // Another program's database, its last transaction only in its -wal (the writer was killed).
            let script = """
                import sqlite3,os,sys; c=sqlite3.connect(sys.argv[1]); c.execute('pragma journal_mode=wal'); c.execute('pragma wal_autocheckpoint=0')
                c.execute('create table photos(name)'); c.execute("insert into photos values ('cat')"); c.commit(); os._exit(0)
                """
            #expect(try runTool("/usr/bin/python3", ["-c", script, path], environment: [:]).0 == 0)
            #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        default:
            let pragma = name == "version -1" ? "create table todos(id); pragma user_version=-1" : "pragma user_version=3"
            let script =
                "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('pragma application_id=1146572364'); [c.execute(s) for s in sys.argv[2].split(';')]; c.commit()"
            #expect(try runTool("/usr/bin/python3", ["-c", script, path, pragma], environment: [:]).0 == 0)
        }
        let before = snapshot(path)
        for command in [["todo", "list"], ["today"], ["preview"]] {
            CLIProcess.expectFailure(
                try CLIProcess.run(["--db", path] + command), status: 65, mentioning: ["is not a dawnlet database: ", why, "(left untouched)"])
        }
        if path != "/dev/zero" { #expect(snapshot(path) == before) }
    }

    @Test(
        "configs that cannot be used: 78, one line",
        arguments: [
            ("deep", "nested deeper than 16 levels"), ("fifo", "not a regular file"), ("dangling", "a symbolic link to nothing"),
            ("loop", "Too many levels of symbolic links"), ("folder", "not a regular file"), ("unsearchable folder", "Permission denied"),
        ])
    func configs(_ name: String, _ why: String) throws {
        let home = folder.path("xdg")
        let dawnlet = home + "/dawnlet"
        let config = dawnlet + "/config.json5"
        try FileManager.default.createDirectory(atPath: dawnlet, withIntermediateDirectories: true)
        var user: String?
        switch name {
        case "deep":
            // 10 keys a level, 505 levels: once 34 s before "unknown key".
            let level = (1..<10).map { "k\($0): 1" }.joined(separator: ", ")
            try (String(repeating: "{ \(level), x: ", count: 505) + "1" + String(repeating: " }", count: 505)).write(
                toFile: config, atomically: false, encoding: .utf8)
        case "fifo": #expect(mkfifo(config, 0o600) == 0)
        case "dangling": #expect(symlink(folder.path("nothing"), config) == 0)
        case "loop": #expect(symlink(config, config) == 0)
        case "folder": try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: false)
        default:
            try "{}".write(toFile: config, atomically: false, encoding: .utf8)
            #expect(chmod(folder.path(""), 0o755) == 0 && chmod(home, 0o755) == 0 && chmod(dawnlet, 0o000) == 0)
            user = "65534"
        }
        let db = user == nil ? folder.path("d.sqlite") : "/nonexistent/d.sqlite"
        let result = try run("--db", db, "today", environment: ["XDG_CONFIG_HOME": home], as: user)
        CLIProcess.expectFailure(result, status: 78, mentioning: [config, why])
    }

    @Test("user text in an error is escaped onto one line: no line break, no terminal escape reaches stderr")
    func escaped() throws {
        let result = try run("--db", folder.path("d.sqlite"), "todo", "done", "7\n\u{1B}[31mred\u{1B}]0;title\u{07}")
        CLIProcess.expectFailure(result, status: 2, mentioning: [#""7\n\u{1B}[31mred\u{1B}]0;title\u{7}" is not an id"#])
        #expect(!result.stderr.contains("\u{1B}"))
    }

    @Test("preview at the end of time: refused past 9999-12-30 with 2; just before it, no date past 9999")
    func endOfTime() throws {
        let db = folder.path("d.sqlite")
        #expect(try run("--db", db, "todo", "add", "Daily", "--every", "daily").status == 0)
        CLIProcess.expectFailure(
            try run("--db", db, "preview", "--now", "9999-12-31T23:59Z", "--days", "366"), status: 2,
            mentioning: ["--now is after 9999-12-30T00:00:00+00:00"])
        let near = try run("--db", db, "preview", "--now", "9999-12-28T08:30Z", "--days", "366", "--json")
        #expect(near.status == 0, "\(near.stderr)")
        #expect(near.stdout.contains(#""key":"digest:9999-12-29""#))
        #expect(!near.stdout.contains("10000-"))
        #expect(!near.stdout.contains("digest:9999-12-30"), "past the last instant planned")
    }

    @Test("doctor names the zone file reminders follow and its next change: the system's Berlin, and one compiled without DST into TZDIR")
    func doctorZoneRules() throws {
        let source = folder.path("berlin.zi")
        try "Zone Europe/Berlin 1:00 - CET\n".write(toFile: source, atomically: true, encoding: .utf8)
        #expect(try runTool("/usr/sbin/zic", ["-d", folder.path("zoneinfo"), source], environment: [:]).0 == 0)
        let db = folder.path("d.sqlite")
        let own = try CLIProcess.run(["--db", db, "--tz", "Europe/Berlin", "--now", "2026-12-01", "doctor"], environment: ["TZDIR": folder.path("zoneinfo")])
        #expect(own.stdout.contains("ok   time zone rules: \(folder.path("zoneinfo"))/Europe/Berlin; no change in the next 400 days\n"), "\(own.stdout)")
        let system = try CLIProcess.run(["--db", db, "--tz", "Europe/Berlin", "--now", "2026-12-01", "doctor"])
        #expect(
            system.stdout.contains(
                #/ok   time zone rules: /usr/share/zoneinfo/Europe/Berlin \(tzdata 20\d\d[a-z]\); next change 2027-03-28T03:00:00\+02:00\n/#),
            "\(system.stdout)")
    }
}
