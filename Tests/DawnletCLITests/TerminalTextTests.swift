import DawnletTestSupport
import Foundation
import Testing

/// Text from outside (a calendar's SUMMARY or UID, a row another program wrote, a config value, an
/// argument) shown in a terminal: every human-readable line writes its control and bidi characters
/// as escapes, once; JSON writes them as `\uXXXX` and reads back exactly; and a person cannot type
/// a bidi override into a title.
@Suite struct TerminalTextTests {
    let workspace: Workspace
    var db: String { workspace.db }
    /// A title that would set the terminal's title, clear the screen and reverse the rest of the line.
    static let hostile = "Call \u{1B}]0;pwned\u{07}\u{1B}[2J back \u{202E}evil"
    static let shown = #"Call \u{1B}]0;pwned\u{7}\u{1B}[2J back \u{202E}evil"#

    init() throws {
        var workspace = try Workspace()
        let config = workspace.folder.path("config.json5")
        let vdir = workspace.folder.path("cal")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        try """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n\
        BEGIN:VEVENT\r\nUID:hostile@example.org\r\nSUMMARY:\(Self.hostile)\r\nDTSTART:20261201T130000Z\r\n\
        BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT10M\r\nDESCRIPTION:x\r\nEND:VALARM\r\nEND:VEVENT\r\n\
        END:VCALENDAR\r\n
        """.write(toFile: vdir + "/hostile.ics", atomically: true, encoding: .utf8)
        try "{ timeZone: \"UTC\", calendars: [ { name: \"cal\", path: \"\(vdir)\" } ] }".write(toFile: config, atomically: true, encoding: .utf8)
        workspace.globals = ["--config", config, "--now", "2026-12-01T08:00Z"]
        self.workspace = workspace
    }

    @discardableResult
    func cli(_ arguments: String..., expect status: Int32 = 0, sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        try workspace.cli(arguments, expect: status, sourceLocation: sourceLocation)
    }

    /// Sets a title the way another program could: the CLI itself refuses these characters.
    func setTitle(_ title: String, table: String, id: Int) throws {
        let (status, text) = try runTool(
            "/usr/bin/python3",
            [
                "-c",
                "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(f'UPDATE {sys.argv[4]} SET title=? WHERE id=?', (sys.argv[2], int(sys.argv[3]))); c.commit()",
                db, title, "\(id)", table,
            ], environment: [:])
        #expect(status == 0, "\(text)")
    }

    @Test("a hostile title from a calendar and from another program: escaped in today, agenda, preview, todo list, event list and find; exact in JSON")
    func escapedEverywhere() throws {
        try cli("todo", "add", "placeholder", "--due", "2026-12-01T09:00")
        try cli("event", "add", "placeholder", "--start", "2026-12-01T10:00")
        try setTitle(Self.hostile, table: "todos", id: 1)
        try setTitle(Self.hostile, table: "events", id: 1)
        for command in [["today"], ["agenda", "--days", "2"], ["preview", "--days", "1"], ["todo", "list"], ["event", "list"], ["find", "call"]] {
            let out = try workspace.cli(command).stdout
            #expect(!out.contains("\u{1B}") && !out.contains("\u{07}") && !out.contains("\u{202E}"), "\(command): \(out)")
            #expect(out.contains(Self.shown), "\(command): \(out)")
        }
        // The calendar's event too, where it is listed.
        #expect(try cli("agenda", "--days", "1").stdout.components(separatedBy: Self.shown).count == 4)
        let json = try cli("todo", "list", "--json").stdout
        #expect(json.contains(#""title":"Call \u001b]0;pwned\u0007\u001b[2J back \u202eevil""#), "\(json)")
    }

    @Test("add and edit refuse a bidi override or isolate in a title (exit 2); right-to-left text itself is welcome")
    func bidiRefused() throws {
        for title in ["invoice \u{202E}fdp.exe", "a \u{2066}b\u{2069}"] {
            let added = try cli("todo", "add", title, expect: 2)
            #expect(added.stderr.contains("bidi override"), "\(added.stderr)")
        }
        try cli("todo", "add", "שלום עולם")
        try cli("todo", "edit", "1", "--title", "\u{202D}x", expect: 2)
        #expect(try cli("todo", "list").stdout.contains("#1  שלום עולם"))
    }

    /// Runs one SQL statement on the database, as another program could, `values` bound to its `?`s.
    func execute(_ statement: String, _ values: String...) throws {
        let (status, text) = try runTool(
            "/usr/bin/python3",
            ["-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2], sys.argv[3:]); c.commit()", db, statement] + values,
            environment: [:])
        #expect(status == 0, "\(text)")
    }

    /// No raw control, format (bidi) or line-separating character, a line feed aside.
    static func raw(in text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            guard scalar != "\n", scalar != "\u{200D}", scalar != "\u{200C}" else { return false }
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: return true
            default: return false
            }
        }.map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    // MARK: - Usage errors

    @Test(
        "a usage error quotes the argument escaped once: \\u{1B}, never \\\\u{1B}",
        arguments: [
            (["reminder", "done", "a\\b\u{1B}[31m\u{202E}"], #""a\b\u{1B}[31m\u{202E}" is not a reminder key"#),
            (["today", "--tz", "\u{1B}]0;x\u{07}"], #"--tz: "\u{1B}]0;x\u{7}" is not a time zone name"#),
            (["preview", "--from", "\u{1B}[2J"], #"--from "\u{1B}[2J" is not a date or time"#),
            (["todo", "add", "x", "--sound", "\u{1B}[2J"], #"--sound "\u{1B}[2J" is not a sound name"#),
            (["todo", "add", "x", "--channel", "desktop,\u{1B}[2J"], #"--channel "desktop,\u{1B}[2J": "\u{1B}[2J" is not a channel"#),
            (["habit", "add", "x", "--days", "mon\u{1B}[2J"], #"--days "mon\u{1B}[2J" is not a list of weekdays"#),
            (["todo", "add", "x", "--due", "a\\b\u{2028}"], #"--due "a\b\u{2028}" is not a date"#),
        ])
    func usageEscapedOnce(_ arguments: [String], _ message: String) throws {
        try cli("todo", "add", "placeholder")
        let result = try CLIProcess.run(["--db", db] + arguments)
        CLIProcess.expectFailure(result, status: 2, mentioning: [message])
        #expect(Self.raw(in: result.stderr).isEmpty, "\(result.stderr)")
        #expect(!result.stderr.contains(#"\\u{"#), "escaped twice: \(result.stderr)")
    }

    // MARK: - Reminder keys

    /// A UID that would set the terminal's title and reverse the rest of the line.
    static let hostileUID = "uid\u{1B}]0;pwned\u{07}\u{202E}@example.org"
    static let shownUID = #"uid\u{1B}]0;pwned\u{7}\u{202E}@example.org"#

    /// A writable calendar `work` whose one event has `hostileUID`, in a file whose name clears the
    /// screen, and its alarm's reminder delivered at 12:50 as serve records it (waiting for an
    /// answer at 13:00). Returns the reminder's key, the config, and the file.
    func deliveredCalendarReminder() throws -> (key: String, config: String, file: String) {
        let vdir = workspace.folder.path("work")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        let file = vdir + "/item\u{1B}[2J.ics"
        try """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n\
        BEGIN:VEVENT\r\nUID:\(Self.hostileUID)\r\nSUMMARY:Standup\r\nDTSTART:20261201T130000Z\r\n\
        BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT10M\r\nDESCRIPTION:x\r\nEND:VALARM\r\nEND:VEVENT\r\n\
        END:VCALENDAR\r\n
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let config = workspace.folder.path("work.json5")
        try "{ timeZone: \"UTC\", calendars: [ { name: \"work\", path: \"\(vdir)\", readOnly: false } ] }"
            .write(toFile: config, atomically: true, encoding: .utf8)
        try cli("todo", "add", "placeholder")
        // The key the plan gives the alarm: the one serve would deliver under.
        let preview = try cli("--config", config, "preview", "--json", "--days", "1").stdout
        let root = try #require(try JSONSerialization.jsonObject(with: Data(preview.utf8)) as? [String: Any])
        let reminders = try #require(root["reminders"] as? [[String: Any]])
        let key = try #require(reminders.first { $0["kind"] as? String == "calendar" }?["key"] as? String)
        #expect(key == "ics:work:\(Self.hostileUID):alarm:2026-12-01T12:50:00")
        // 2026-12-01T12:50Z.
        try execute(
            "INSERT INTO deliveries (key, channel, state, kind, title, fire_at, claimed_at, finished_at) VALUES (?, 'desktop', 'delivered', 'calendar', 'Standup', 1796129400, 1796129400, 1796129401)",
            key)
        return (key, config, file)
    }

    @Test("reminder list shows a calendar reminder's key (its item's UID) escaped; --json writes it as \\u escapes that read back whole")
    func reminderListKey() throws {
        let (key, config, _) = try deliveredCalendarReminder()
        let list = try cli("--config", config, "--now", "2026-12-01T13:00Z", "reminder", "list")
        #expect(Self.raw(in: list.stdout).isEmpty, "\(list.stdout)")
        #expect(list.stdout == "2026-12-01 12:50  calendar  Standup  → desktop  (ics:work:\(Self.shownUID):alarm:2026-12-01T12:50:00)\n")

        let json = try cli("--config", config, "--now", "2026-12-01T13:00Z", "reminder", "list", "--json").stdout
        #expect(Self.raw(in: json).isEmpty, "\(json)")
        #expect(json.contains(#""key":"ics:work:uid\u001b]0;pwned\u0007\u202e@example.org:alarm:2026-12-01T12:50:00""#), "\(json)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect((root["waiting"] as? [[String: Any]])?.first?["key"] as? String == key)
    }

    @Test("reminder dismiss and done: the key chosen (stderr) and what came of it (stdout, the calendar file's name too) escaped once")
    func reminderVerbKey() throws {
        let (key, config, file) = try deliveredCalendarReminder()
        let shownFile = file.replacingOccurrences(of: "\u{1B}", with: #"\u{1B}"#)
        let dismissed = try cli("--config", config, "--now", "2026-12-01T13:00Z", "reminder", "dismiss")
        #expect(Self.raw(in: dismissed.stdout + dismissed.stderr).isEmpty, "\(dismissed)")
        #expect(dismissed.stderr == "dismiss: ics:work:\(Self.shownUID):alarm:2026-12-01T12:50:00 \"Standup\"\n", "\(dismissed.stderr)")
        #expect(dismissed.stdout == "dismissed in \(shownFile): ics:work:\(Self.shownUID):alarm:2026-12-01T12:50:00\n", "\(dismissed.stdout)")

        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("ACKNOWLEDGED:20261201T130000Z"), "written back to the file")

        // A second answer is refused, and the refusal names the key and the file escaped once too.
        let done = try cli("--config", config, "--now", "2026-12-01T13:00Z", "reminder", "done", key, expect: 65)
        #expect(Self.raw(in: done.stdout + done.stderr).isEmpty, "\(done)")
        #expect(done.stdout == "")
        #expect(
            done.stderr
                == "dawnlet-remind: ics:work:\(Self.shownUID):alarm:2026-12-01T12:50:00 was answered already (dismissed in \(shownFile))\n",
            "\(done.stderr)")
    }

    @Test("missed and preview: a calendar reminder's key and why a delivery failed (what a command or a server said) escaped")
    func deliveryDetails() throws {
        try cli("todo", "add", "Broken", "--due", "2026-12-01T09:00", "--remind", "0m")
        // 2026-12-01T09:00Z, failed; the calendar's alarm at 12:50Z, missed.
        try execute(
            "INSERT INTO deliveries (key, channel, state, kind, title, fire_at, claimed_at, finished_at, detail) VALUES ('todo:1:2026-12-01:0m', 'desktop', 'failed', 'todo', 'Broken', 1796115600, 1796115600, 1796115602, ?)",
            "exited 3: \u{1B}[2J\u{202E}x")
        try execute(
            "INSERT INTO deliveries (key, channel, state, kind, title, fire_at, claimed_at, finished_at, detail) VALUES (?, 'desktop', 'missed', 'calendar', 'Standup', 1796129400, 1796129400, 1796129400, ?)",
            "ics:cal:\(Self.hostileUID):alarm:2026-12-01T12:50:00", "outside the grace window\u{07}")
        let preview = try cli("preview", "--all", "--now", "2026-12-01T10:00Z", "--from", "2026-12-01T00:00Z", "--to", "2026-12-01T12:00Z").stdout
        #expect(Self.raw(in: preview).isEmpty, "\(preview)")
        #expect(preview.contains(#"  Broken  → desktop  [failed on desktop at 09:00:02: exited 3: \u{1B}[2J\u{202E}x]"#), "\(preview)")
        let missed = try cli("missed").stdout
        #expect(Self.raw(in: missed).isEmpty, "\(missed)")
        #expect(
            missed
                == "2026-12-01T12:50:00+00:00  calendar  Standup  → desktop  (ics:cal:\(Self.shownUID):alarm:2026-12-01T12:50:00): outside the grace window\\u{7}\n",
            "\(missed)")
    }

    // MARK: - doctor

    @Test("doctor: config values (a calendar's name, a command, a folder, a timeout, an unknown key) and a calendar's problem text escaped")
    func doctorValues() throws {
        let vdir = workspace.folder.path("zones")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        try """
        BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n\
        BEGIN:VEVENT\r\nUID:a@b\r\nSUMMARY:Meet\r\nDTSTART;TZID=Bad\u{1B}[2J\u{202E}Zone:20261201T130000\r\nEND:VEVENT\r\n\
        END:VCALENDAR\r\n
        """.write(toFile: vdir + "/zone.ics", atomically: true, encoding: .utf8)
        let config = workspace.folder.path("doctor.json5")
        let folder = workspace.folder.path("x\u{1B}[2Jy")
        // JSON5 escapes: the file itself is plain text; its values are not.
        try #"""
        { timeZone: "UTC", calendars: [ { name: "c\u001b[31mal\u202e", path: "\#(vdir)" } ], route: { todo: ["command"] },
          channels: { command: { argv: ["/no/such\u001b]0;x\u0007"] } }, export: { to: "\#(folder.replacingOccurrences(of: "\u{1B}", with: "\\u001b"))" } }
        """#.write(toFile: config, atomically: true, encoding: .utf8)
        let doctor = try cli("--config", config, "doctor", expect: 1)
        #expect(Self.raw(in: doctor.stdout + doctor.stderr).isEmpty, "\(doctor)")
        let lines = doctor.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                #"FAIL command: /no/such\u{1B}]0;x\u{7} is not found in PATH; to fix: install it, or name another program in channels.command.argv"#),
            "\(doctor.stdout)")
        #expect(
            lines.contains {
                $0.hasPrefix(#"FAIL calendar c\u{1B}[31mal\u{202E}: 0 item instances"#) && $0.contains(#"unknown time zone "Bad\u{1B}[2J\u{202E}Zone""#)
            },
            "\(doctor.stdout)")
        #expect(
            lines.contains("note export: \(folder.replacingOccurrences(of: "\u{1B}", with: #"\u{1B}"#)) does not exist yet (serve makes it at start)"),
            "\(doctor.stdout)")

        for (text, shown) in [
            (#"{ channels: { command: { argv: ["x"], timeout: "5\u001b[2J\u202e" } } }"#, #"channels.command.timeout: "5\u{1B}[2J\u{202E}" is not a duration"#),
            (#"{ "unk\u001b]0;x\u0007nown": 1 }"#, #"unk\u{1B}]0;x\u{7}nown: unknown key"#),
        ] {
            try text.write(toFile: config, atomically: true, encoding: .utf8)
            let broken = try cli("--config", config, "doctor", expect: 1)
            #expect(Self.raw(in: broken.stdout + broken.stderr).isEmpty, "\(broken)")
            #expect(broken.stdout.hasPrefix("FAIL config: \(config):1:"), "\(broken.stdout)")
            #expect(broken.stdout.split(separator: "\n").first?.contains(shown) == true, "\(broken.stdout)")
        }
    }

    // MARK: - JSON

    @Test("JSON writes control, bidi, separator and other format characters as \\u escapes (a pair beyond U+FFFF), and reads back whole")
    func jsonEscapes() throws {
        let title = "a\u{1B}\u{07}\u{7F}\u{85}\u{202E}\u{2028}\u{2029}\u{2066}\u{FEFF}\u{E0001}\\\"👩‍👩‍👧é"
        try cli("todo", "add", "placeholder")
        try setTitle(title, table: "todos", id: 1)
        let json = try cli("todo", "list", "--json").stdout
        #expect(Self.raw(in: json).isEmpty, "\(json)")
        #expect(
            json.contains(#""title":"a\u001b\u0007\u007f\u0085\u202e\u2028\u2029\u2066\ufeff\udb40\udc01\\\"👩‍👩‍👧é""#), "\(json)")
        let file = workspace.folder.path("todos.json")
        try json.write(toFile: file, atomically: true, encoding: .utf8)
        let hex = title.utf8.map { String(format: "%02x", $0) }.joined()
        let (status, text) = try runTool(
            "/usr/bin/python3",
            [
                "-c",
                "import json,sys; t=json.load(open(sys.argv[1]))['todos'][0]['title']; sys.exit(0 if t == bytes.fromhex(sys.argv[2]).decode() else repr(t))",
                file, hex,
            ], environment: [:])
        #expect(status == 0, "python3 read back another title: \(text)")
    }

    // MARK: - Help

    @Test("help: every option's value as its usage line names it, with no bracket of the usage line's (--on DATE, not --on DATE))")
    func helpPlaceholders() throws {
        let money = try cli("money", "add", "--help").stdout
        #expect(money.contains("  --on DATE ") && money.contains("  --every SCHEDULE "), "\(money)")
        // Every command's help, through the nouns the overview lists and the usage lines each gives.
        let overview = try cli("--help").stdout
        let nouns = overview.components(separatedBy: "\ncommands:\n")[1].components(separatedBy: "\n\n")[0]
            .split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        var commands: Set<[String]> = []
        for noun in nouns {
            // A noun's usage lines, or a lone command's own usage line (not its examples).
            let help = try cli(noun, "--help").stdout
            for line in help.hasPrefix("usage: ") ? [help.prefix { $0 != "\n" }] : help.split(separator: "\n") {
                let words = line.split(separator: " ").drop { $0 == "usage:" }
                guard words.first == "dawnlet-remind" else { continue }
                commands.insert(words.dropFirst().prefix { !$0.hasPrefix("-") && $0.allSatisfy { $0.isLowercase || $0 == "-" } }.map(String.init))
            }
        }
        #expect(commands.count > 50, "\(commands)")
        for command in commands {
            let help = try workspace.cli(["help"] + command).stdout
            let options = try #require(help.components(separatedBy: "\noptions:\n").dropFirst().first, "\(command)").components(separatedBy: "\n\n")[0]
            for line in options.split(separator: "\n") {
                let option = line.split(separator: " ").prefix(2).joined(separator: " ")
                let balanced = [("[", "]"), ("(", ")")].allSatisfy { open, close in
                    option.filter { String($0) == open }.count == option.filter { String($0) == close }.count
                }
                #expect(balanced && !option.hasSuffix(" VALUE"), "\(command): \(line)")
            }
        }
    }
}
