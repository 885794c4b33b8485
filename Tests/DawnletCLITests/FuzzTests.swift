import DawnletTestSupport
import Foundation
import Testing

/// A bounded fuzz run against the real binary: mutated configs, databases and calendars, and
/// hostile command lines. Every run must end on its own within a time bound, by exit (never a
/// signal), with one of the documented exit codes (0, 1, 2, 65, 66, 78), without a crash message and
/// with no raw control, bidi or other format character on stdout or stderr; a database file that is
/// not ours must be left byte for byte as it was.
///
/// Deterministic: `DAWNLET_FUZZ_SEED` picks another sequence, `DAWNLET_FUZZ_CASES` another length.
@Suite(.serialized) final class FuzzTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let folder: TemporaryFolder
    var random: SeededRandom

    init() throws {
        folder = try TemporaryFolder()
        random = SeededRandom(seed: SeededRandom.fuzzSeed(12))
    }

    static var cases: Int { ProcessInfo.processInfo.environment["DAWNLET_FUZZ_CASES"].flatMap(Int.init) ?? 60 }

    /// How one run ended.
    struct Ending {
        let status: Int32
        let signalled: Bool
        let overran: Bool
        let stderr: String
        let stdout: String
    }

    /// Runs the binary with `arguments`; killed (and reported) past `seconds`.
    func run(_ arguments: [String], seconds: Double = 20) throws -> Ending {
        let process = Process()
        process.executableURL = CLIProcess.binary
        process.arguments = arguments
        process.environment = [
            "PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8", "HOME": folder.path("home"),
            "XDG_CONFIG_HOME": folder.path("xdg"),
        ]
        let errPath = folder.path("stderr")
        FileManager.default.createFile(atPath: errPath, contents: nil)
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        let outPath = folder.path("stdout")
        FileManager.default.createFile(atPath: outPath, contents: nil)
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        let overran = ended.wait(timeout: .now() + seconds) == .timedOut
        if overran {
            kill(process.processIdentifier, SIGKILL)
            ended.wait()
        }
        try err.close()
        try out.close()
        return Ending(
            status: process.terminationStatus, signalled: process.terminationReason == .uncaughtSignal, overran: overran,
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "",
            stdout: String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: outPath))) ?? Data(), as: UTF8.self))
    }

    func check(_ ending: Ending, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!ending.overran, "ran over its time bound: \(what)", sourceLocation: sourceLocation)
        #expect(!ending.signalled, "killed by signal \(ending.status): \(what)", sourceLocation: sourceLocation)
        #expect(
            [0, 1, 2, 65, 66, 78].contains(ending.status), "exit \(ending.status): \(what): \(ending.stderr.prefix(300))",
            sourceLocation: sourceLocation)
        for crash in ["Fatal error", "backtrace", "Illegal instruction", "Segmentation"] {
            #expect(!ending.stderr.contains(crash), "\(what): \(ending.stderr.prefix(300))", sourceLocation: sourceLocation)
        }
        // Nothing from a file, a config or an argument reaches the terminal raw: no control character
        // but the line feed, no bidi override or other format character, no line separator, on either stream.
        for (name, text) in [("stdout", ending.stdout), ("stderr", ending.stderr)] {
            let raw = TerminalTextTests.raw(in: text)
            #expect(raw.isEmpty, "\(what): raw \(raw) on \(name): \(text.prefix(300).debugDescription)", sourceLocation: sourceLocation)
        }
    }

    // MARK: - Mutations

    /// One of a few byte-level mutations of `bytes`.
    func mutate(_ bytes: [UInt8], tokens: [String]) -> [UInt8] {
        var out = bytes
        for _ in 0...random.below(4) {
            let at = out.isEmpty ? 0 : random.below(out.count)
            switch random.below(7) {
            case 0 where !out.isEmpty: out[at] = UInt8(truncatingIfNeeded: random.next())
            case 1: out.insert(contentsOf: Array(random.pick(tokens).utf8), at: at)
            case 2 where !out.isEmpty: out.removeSubrange(at..<min(out.count, at + random.below(64) + 1))
            case 3: out = Array(out.prefix(at))
            case 4 where !out.isEmpty:
                // A piece repeated: nesting, long values, many properties.
                let end = min(out.count, at + random.below(200) + 1)
                let piece = out[at..<end]
                let times = random.pick([2, 10, 500, 5_000])
                out.insert(contentsOf: Array(repeating: Array(piece), count: times).joined(), at: at)
            case 5: out.insert(contentsOf: Array(repeating: UInt8(ascii: random.pick(["{", "[", "x", "9"])), count: random.pick([20, 600])), at: at)
            default: out.insert(contentsOf: Array(random.pick(tokens).utf8), at: out.count)
            }
        }
        return out
    }

    static let configTokens = [
        "{", "}", "[", "]", ",", ":", "\"", "'", "//", "/*", "\n", "\u{1B}[31m", "null", "true", "1e400", "-1", "9999999999999",
        "\"366d\"", "\"0s\"", "\"25:61\"", "\"Mars/Olympus\"", "horizon: \"366d\", ", "graceWindow: \"7d\", ",
        "calendars: [{ name: \"a\", path: \"/dev/zero\" }], ",
        "route: { todo: [\"email\"] }, ", "channels: { email: { url: \"smtp://127.0.0.1.evil.com\", tls: \"none\", to: [\"a@b\"] } }, ",
        "command: { argv: [\"/bin/true\", \"{title}\"] }, ", "\u{0}", "\u{FEFF}", "é", "💶",
        "channels: { email: { url: \"smtp://0.0.0.0#@127.0.0.1:2525\", tls: \"none\", from: \"a@b\", to: [\"a@b\"] } }, ",
        "url: \"smtp://mail.example.com?@localhost\", ",
    ]

    static let calendarTokens = [
        "\r\n", "\r\n ", "RRULE:FREQ=SECONDLY\r\n", "RRULE:FREQ=MINUTELY;INTERVAL=1\r\n", "RRULE:FREQ=HOURLY;COUNT=999999999\r\n",
        "RDATE:20261201T090000Z,20261202T090000Z\r\n", "EXDATE:20261201\r\n", "BEGIN:VEVENT\r\n", "END:VEVENT\r\n", "BEGIN:VTIMEZONE\r\n",
        "DTSTART;TZID=Nowhere/Land:20261201T090000\r\n", "DTSTART:99991231T235959Z\r\n", "DTSTART:00010101\r\n",
        "TRIGGER:-P9999W\r\n", "BEGIN:VALARM\r\nTRIGGER:PT0S\r\nEND:VALARM\r\n", ";", ":", ",", "\\", "\u{1B}]0;x\u{07}",
        "SUMMARY:\u{1B}[2J\u{202E}x\u{07}\r\n", "\u{0}", "BEGIN:VEVENT\r\nSUMMARY:\u{0}\r\n", "\u{FFFD}",
    ]

    /// Pieces of hostile text: terminal sequences (7-bit and C1), controls, bidi overrides and
    /// isolates, line separators, format characters within and beyond the BMP, backslashes and
    /// escapes spelled out (which must not be taken for escapes), and text that is fine.
    static let hostileTokens = [
        "\u{1B}[2J", "\u{1B}]0;pwned\u{07}", "\u{1B}[31m", "\u{9B}31m", "\u{07}", "\u{08}", "\u{7F}", "\u{85}", "\u{01}", "\u{1F}", "\r", "\n",
        "\t", "\u{202E}", "\u{2066}", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{E0001}", "\\", "\\u{1B}", "\\n", "\"", "'", "é", "👩‍👩‍👧", "x", " ",
    ]

    /// One to six hostile pieces.
    func hostile() -> String { (0...random.below(6)).map { _ in random.pick(Self.hostileTokens) }.joined() }

    /// `text` as a JSON5 string literal: all but printable ASCII as `\uXXXX`.
    static func json5(_ text: String) -> String {
        var out = "\""
        for unit in text.utf16 {
            if (0x20..<0x7F).contains(unit) && unit != 0x22 && unit != 0x5C {
                out.append(Character(Unicode.Scalar(UInt8(unit))))
            } else {
                out += "\\u" + String(repeating: "0", count: 4 - String(unit, radix: 16).count) + String(unit, radix: 16)
            }
        }
        return out + "\""
    }

    // MARK: - Targets

    @Test("hostile UIDs, titles, config values and arguments: reminder list (and --json), reminder answers, doctor and usage errors print nothing raw")
    func reminders() throws {
        let vdir = folder.path("answers")
        let config = folder.path("answers.json5")
        let insert =
            "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); r=sys.argv[2:]; "
            + "[c.execute(\"INSERT INTO deliveries (key, channel, state, kind, title, fire_at, claimed_at, finished_at, snoozed_until) VALUES (?, 'desktop', 'delivered', 'calendar', ?, 1796129400, 1796129400, 1796129401, ?)\", "
            + "(r[i], r[i+1], None if r[i+2] == '' else int(r[i+2]))) for i in range(0, len(r), 3)]; c.commit()"
        for index in 0..<Self.cases {
            try? FileManager.default.removeItem(atPath: vdir)
            try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
            let db = folder.path("r\(index).sqlite")
            // A calendar whose name, items' UIDs and titles, and a TZID are hostile; so is the
            // config's command, its export folder and, now and then, a value it cannot read.
            let name = random.below(2) == 0 ? "cal" : hostile()
            var rows: [(key: String, title: String, snoozed: String)] = []
            var events = ""
            for n in 0...random.below(3) {
                let uid = hostile() + "\(n)@example.org"
                let title = hostile()
                let start = random.below(3) == 0 ? "DTSTART;TZID=\(hostile()):20261201T130000" : "DTSTART:20261201T130000Z"
                events +=
                    "BEGIN:VEVENT\r\nUID:\(uid)\r\nSUMMARY:\(title)\r\n\(start)\r\n"
                    + "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT10M\r\nDESCRIPTION:x\r\nEND:VALARM\r\nEND:VEVENT\r\n"
                rows.append(("ics:\(name):\(uid):alarm:2026-12-01T12:50:00", title, random.below(4) == 0 ? "1796140800" : ""))
            }
            try "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//fuzz//EN\r\n\(events)END:VCALENDAR\r\n"
                .write(toFile: vdir + "/\(hostile().filter { $0 != "/" }).ics", atomically: false, encoding: .utf8)
            // One config in four has a value it cannot read: a timeout, a key, a zone.
            let broken = random.below(4) == 0 ? random.below(3) : -1
            let timeout = broken == 0 ? ", timeout: \(Self.json5(hostile()))" : ""
            let unknown = broken == 1 ? ", \(Self.json5(hostile() + "k")): 1" : ""
            let zone = broken == 2 ? Self.json5(hostile()) : "\"UTC\""
            try """
            { timeZone: \(zone), calendars: [ { name: \(Self.json5(name)), path: \(Self.json5(vdir)), readOnly: \(random.below(2) == 0) } ],
              route: { todo: ["command"] }, channels: { command: { argv: [\(Self.json5("/nowhere/" + hostile()))]\(timeout) } },
              export: { to: \(Self.json5(folder.path("export" + hostile().filter { $0 != "/" }))) }\(unknown) }
            """.write(toFile: config, atomically: false, encoding: .utf8)
            #expect(try run(["--db", db, "todo", "add", "placeholder"]).status == 0)
            let (status, text) = try runTool("/usr/bin/python3", ["-c", insert, db] + rows.flatMap { [$0.key, $0.title, $0.snoozed] }, environment: [:])
            #expect(status == 0, "case \(index): \(text)")

            let verb = random.pick(["done", "skip", "dismiss", "paid", "log", "unsnooze"])
            let command = random.pick([
                ["reminder", "list"], ["reminder", "list", "--json"], ["reminder", "list", "--snoozed", "--json"], ["reminder", verb],
                ["reminder", verb, random.pick(rows).key], ["reminder", "snooze", random.pick(rows).key, "--for", "1h"],
                ["reminder", "snooze", "--for", hostile()],
                ["reminder", "done", hostile()], ["doctor"], ["--tz", hostile(), "today"], ["preview", "--from", hostile(), "--to", "2026-12-02"],
                ["todo", "add", "x", "--sound", hostile()], ["todo", "add", hostile()], ["habit", "add", "x", "--days", hostile()],
            ])
            let ending = try run(["--db", db, "--config", config, "--now", "2026-12-01T13:00Z"] + command)
            let what = "reminder case \(index) (\(command.map(\.debugDescription).joined(separator: " ")))"
            check(ending, what)
            // JSON stays JSON, and reads back as the keys and titles that went in.
            if command.contains("--json"), ending.status == 0 {
                let root = try #require(try JSONSerialization.jsonObject(with: Data(ending.stdout.utf8)) as? [String: Any], "\(what)")
                let listed = (root["waiting"] as? [[String: Any]] ?? []) + (root["snoozed"] as? [[String: Any]] ?? [])
                let wanted = command.contains("--snoozed") ? rows.filter { !$0.snoozed.isEmpty } : rows
                #expect(Set(listed.compactMap { $0["key"] as? String }) == Set(wanted.map(\.key)), "\(what): \(ending.stdout)")
                for entry in listed {
                    #expect(rows.contains { $0.key == entry["key"] as? String && $0.title == entry["title"] as? String }, "\(what): \(entry)")
                }
            }
        }
    }

    @Test("mutated configs: every command ends in bounded time with a documented exit code")
    func configs() throws {
        let example = try [UInt8](Data(contentsOf: Self.root.appendingPathComponent("config/config.example.json5")))
        let config = folder.path("config.json5")
        let db = folder.path("c.sqlite")
        // A calendar path that is a loop of symlinks.
        let loop = folder.path("loop.ics")
        #expect(symlink(loop, loop) == 0)
        let tokens = Self.configTokens + ["calendars: [{ name: \"loop\", path: \"\(loop)\" }], "]
        for index in 0..<Self.cases {
            let text = mutate(example, tokens: tokens)
            try Data(text).write(to: URL(fileURLWithPath: config))
            let command = random.pick([["today"], ["preview", "--days", "2"], ["todo", "list"], ["money", "month", "2026-12"]])
            let ending = try run(["--db", db, "--config", config] + command)
            check(ending, "config case \(index) (\(command.joined(separator: " ")))")
        }
    }

    @Test("mutated databases: bounded, a documented exit code, and a file not ours unchanged")
    func databases() throws {
        let seed = folder.path("seed.sqlite")
        for arguments in [
            ["todo", "add", "Call", "--due", "2026-12-01T09:00"], ["event", "add", "Meet", "--start", "2026-12-02T10:00"],
            ["habit", "add", "Walk", "--days", "mon,wed,fri"], ["money", "add", "Rent", "--amount", "-950", "--every", "monthly on day 1"],
        ] {
            let ending = try run(["--db", seed] + arguments)
            #expect(ending.status == 0, "\(arguments): \(ending.stderr)")
        }
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: seed)))
        let magic = Array("SQLite format 3\u{0}".utf8)
        for index in 0..<Self.cases {
            var bytes = original
            switch random.below(4) {
            case 0:
                // In the header: page size, versions, application id, user_version.
                for _ in 0...random.below(3) { bytes[random.below(100)] = UInt8(truncatingIfNeeded: random.next()) }
            case 1:
                for _ in 0...random.below(20) { bytes[100 + random.below(bytes.count - 100)] = UInt8(truncatingIfNeeded: random.next()) }
            case 2: bytes = Array(bytes.prefix(random.below(bytes.count)))
            default: bytes = mutate(bytes, tokens: ["\u{0}", "SQLite format 3\u{0}", "DWNL"])
            }
            let path = folder.path("case.sqlite")
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(path + suffix) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            // Ours only with SQLite's magic and dawnlet's application id ("DWNL") at byte 68.
            let ours = bytes.count >= 512 && Array(bytes.prefix(16)) == magic && Array(bytes[68..<72]) == Array("DWNL".utf8)
            let command = random.pick([["today"], ["todo", "list"], ["preview"], ["money", "month", "2026-12"], ["todo", "add", "x"]])
            let ending = try run(["--db", path] + command)
            check(ending, "database case \(index) (\(command.joined(separator: " ")))")
            if !ours {
                #expect(ending.status == 65, "database case \(index): \(ending.stderr)")
                #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == bytes, "database case \(index) was written")
                for suffix in ["-wal", "-shm", "-journal"] { #expect(!FileManager.default.fileExists(atPath: path + suffix)) }
            }
        }
    }

    @Test("mutated calendars from the corpus: preview and today end in bounded time with a documented exit code")
    func calendars() throws {
        let corpus = Self.root.appendingPathComponent("Tests/DawnletSystemTests/Corpus/calendars")
        let names = try FileManager.default.contentsOfDirectory(atPath: corpus.path).filter { $0.hasSuffix(".ics") }.sorted()
        let vdir = folder.path("vdir")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: true)
        let config = folder.path("calendars.json5")
        try "{ calendars: [{ name: \"fuzz\", path: \"\(vdir)\" }] }".write(toFile: config, atomically: true, encoding: .utf8)
        let db = folder.path("k.sqlite")
        for index in 0..<Self.cases {
            for old in try FileManager.default.contentsOfDirectory(atPath: vdir) { unlink(vdir + "/" + old) }
            for file in 0...random.below(3) {
                let source = try [UInt8](Data(contentsOf: corpus.appendingPathComponent(random.pick(names))))
                try Data(mutate(source, tokens: Self.calendarTokens)).write(to: URL(fileURLWithPath: "\(vdir)/\(file).ics"))
            }
            let command = random.pick([["preview", "--now", "2026-12-01T00:00Z", "--days", "14"], ["today", "--date", "2026-12-01"]])
            check(try run(["--db", db, "--config", config] + command), "calendar case \(index) (\(command.joined(separator: " ")))")
        }
    }

    @Test("hostile command lines: bounded, a documented exit code, nothing raw")
    func commandLines() throws {
        let db = folder.path("a.sqlite")
        let words = [
            "todo", "event", "habit", "money", "add", "list", "done", "skip", "delete", "preview", "today", "missed", "export",
            "occurrences", "--due", "--on", "--at", "--every", "--remind", "--amount", "--days", "--now", "--json", "--help", "--",
            "--tz", "Mars/Olympus", "9999-12-31T23:59Z", "0000-01-01", "2026-02-30", "25:00", "-1", "99999999999999999999",
            "9999999999999.99", "daily", "monthly on day 31", "every 0 weeks", "1e9m", "\n", "\u{1B}[2J", "💶", "", "\u{202E}",
            "--db", "/nonexistent/dir/x.sqlite", "find", "reminder", "doctor", "--tz", "\\", "\\u{1B}", "\u{07}", "\u{2028}", "\u{85}",
        ]
        for index in 0..<Self.cases {
            let arguments = (0...random.below(6)).map { _ in random.pick(words) }
            check(try run(["--db", db] + arguments), "command line case \(index): \(arguments)")
        }
    }
}

extension SeededRandom {
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}
