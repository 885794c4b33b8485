import DawnletTestSupport
import Foundation
import Testing

/// The runner end to end: the real binary under libfaketime (its clock starts a few seconds before
/// a reminder is due and runs at normal speed), delivering through a command that appends the
/// instant it ran, the reminder key and the title to a file.
@Suite(.serialized) struct ServeTests {
    let folder: TemporaryFolder
    let db: String
    let config: String
    let fired: String

    init() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/faketime") else {
            throw ServeTestError("faketime is missing: run `make deps`")
        }
        folder = try TemporaryFolder()
        db = folder.path("dawnlet.sqlite")
        config = folder.path("config.json5")
        fired = folder.path("fired.txt")
        let script =
            "import sys,time,os; open(sys.argv[1],'a').write('%.3f %s %s|%s\\\\n' % (time.time(), os.environ['DAWNLET_REMINDER_KEY'], sys.argv[2], sys.argv[3]))"
        command = """
            command: { argv: ["/usr/bin/env", "python3", "-c", "\(script)", "\(fired)", "{title}", "{late}"], timeout: "5s" }
            """
        try writeConfig("")
    }

    /// The command channel that appends to `fired`, for any config.
    let command: String

    /// The config: Berlin, a 12 h grace window, the `fired` command, and `extra` settings.
    func writeConfig(_ extra: String, channels: String = "") throws {
        try """
        { timeZone: "Europe/Berlin", graceWindow: "12h", \(extra)
          channels: { \(command), \(channels) } }
        """.write(toFile: config, atomically: true, encoding: .utf8)
    }

    struct ServeTestError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @discardableResult
    func cli(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> CLIResult {
        let result = try CLIProcess.run(["--db", db, "--config", config] + arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
        return result
    }

    /// `serve` under faketime, its clock starting at `start` (UTC).
    final class Server {
        let wrapper: Process
        let stderr: Pipe
        /// What the runner logged, read as it comes (as journald would), unless the test gave a
        /// pipe of its own to leave unread.
        private let logged: CollectedBytes?

        /// With `start`, under faketime from that instant; without, on the real clock. With
        /// `stderr`, the runner logs into that pipe and nothing reads it before `stop`.
        init(db: String, config: String, start: String?, environment: [String: String] = [:], stderr: Pipe? = nil) throws {
            wrapper = Process()
            let command = [CLIProcess.binary.path, "--db", db, "--config", config, "serve"]
            if let start {
                wrapper.executableURL = URL(fileURLWithPath: "/usr/bin/faketime")
                // "DATE TIME xN" runs the fake clock N times faster than the real one.
                // "+Ns" / "-Ns": the real clock moved by N s, alike in every process given it.
                wrapper.arguments = (start.contains(" x") ? ["-f", "@" + start] : start.hasSuffix("s") ? ["-f", start] : [start]) + command
            } else {
                // The same shape: a parent that waits for the runner, so runnerPID() works alike.
                wrapper.executableURL = URL(fileURLWithPath: "/bin/sh")
                wrapper.arguments = ["-c", "\"$@\"; exit $?", "sh"] + command
            }
            wrapper.environment = ["PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8", "HOME": "/nonexistent"]
                .merging(environment) { $1 }
            self.stderr = stderr ?? Pipe()
            wrapper.standardError = self.stderr
            try wrapper.run()
            logged = stderr == nil ? CollectedBytes(reading: self.stderr.fileHandleForReading) : nil
            guard let runner = childRunning(CLIProcess.binary.path, under: wrapper.processIdentifier) else {
                throw ServeTestError("the runner did not start")
            }
            self.runner = runner
        }

        /// The runner's pid, found once at start (it stays valid even if the runner were reparented).
        private(set) var runner: pid_t = 0

        func runnerPID() throws -> pid_t { runner }

        /// What the runner has logged so far (nothing when the test gave a pipe of its own).
        func logSoFar() -> String { String(decoding: logged?.soFar() ?? Data(), as: UTF8.self) }

        /// Waits until the runner has logged `text` at least `count` times.
        @discardableResult
        func waitForLog(_ text: String, count: Int = 1, seconds: Double = 10) -> Bool {
            waitUntil(seconds: seconds) { logSoFar().components(separatedBy: text).count - 1 >= count }
        }

        /// SIGTERM to the runner; its exit status and what it logged.
        func stop() throws -> (Int32, String) {
            kill(try runnerPID(), SIGTERM)
            let log = String(decoding: logged?.untilEnd() ?? stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            wrapper.waitUntilExit()
            return (wrapper.terminationStatus, log)
        }
    }

    /// Everything a file handle gives until its end, read on a thread of its own as it comes.
    final class CollectedBytes: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes = Data()
        private let ended = DispatchSemaphore(value: 0)

        init(reading handle: FileHandle) {
            Thread.detachNewThread { [self] in
                while case let chunk = handle.availableData, !chunk.isEmpty {
                    lock.withLock { bytes.append(chunk) }
                }
                ended.signal()
            }
        }

        /// What has come so far.
        func soFar() -> Data { lock.withLock { bytes } }

        /// All of it, once the writer has closed its end.
        func untilEnd() -> Data {
            ended.wait()
            return lock.withLock { bytes }
        }
    }

    /// Sets when the database began (it began when the test made it, on the real clock, which
    /// may be after the fake one): nothing due before it is recorded missed.
    func beganAt(_ iso: String) throws {
        let seconds = Int(ISO8601DateFormatter().date(from: iso)!.timeIntervalSince1970)
        let script =
            "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"UPDATE settings SET value=? WHERE key='created'\", (sys.argv[2],)); c.commit()"
        #expect(try runTool("/usr/bin/python3", ["-c", script, db, String(seconds)], environment: [:]).0 == 0)
    }

    func lines() -> [String] {
        ((try? String(contentsOfFile: fired, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func waitForLines(_ count: Int, seconds: Double) -> [String] {
        waitUntil(seconds: seconds) { lines().count >= count }
        return lines()
    }

    /// Stops `server` once it has logged each of `lines` (`count` times): the event that says the
    /// round a test waits for is over. The runner handles SIGTERM only after the round that logged
    /// the line, and lets what that round handed to a channel end first, so once this returns
    /// everything the runner decided to send by then is in `fired` and in the log ("stopping: …;
    /// N deliveries in flight" if any was still going). A test that must show that nothing more
    /// went out looks there, rather than sleeping a while and hoping.
    func stop(_ server: Server, after lines: String..., count: Int = 1, seconds: Double = 10, sourceLocation: SourceLocation = #_sourceLocation)
        throws -> (Int32, String)
    {
        for line in lines {
            #expect(server.waitForLog(line, count: count, seconds: seconds), "never logged \(line):\n\(server.logSoFar())", sourceLocation: sourceLocation)
        }
        return try server.stop()
    }

    /// Seconds since the epoch of a fake-clock wall time in Europe/Berlin.
    func berlin(_ text: String) -> Double {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text)!.timeIntervalSince1970
    }

    @Test("a reminder fires once, on time; a second runner is refused; a restart fires nothing again")
    func firesOnce() throws {
        try cli("todo", "add", "Call mum", "--due", "2026-12-01T09:00")
        let server = try Server(db: db, config: config, start: "2026-12-01 07:59:57")
        let got = waitForLines(1, seconds: 10)
        #expect(got.count == 1)
        let parts = try #require(got.first).split(separator: " ", maxSplits: 2)
        let at = try #require(Double(parts[0]))
        let due = berlin("2026-12-01T09:00:00+01:00")
        #expect(at >= due && at < due + 1.0, "fired \(at - due) s after the due instant")
        #expect(parts[1] == "todo:1:2026-12-01:0m")
        #expect(parts[2] == "Call mum|")

        let second = try CLIProcess.run(["--db", db, "--config", config, "serve"])
        CLIProcess.expectFailure(second, status: 1, mentioning: ["already running"])

        // Stopped once the delivery is recorded (the decision after it taken): nothing in flight,
        // and it went out once.
        let (status, log) = try stop(server, after: "delivered todo:1:2026-12-01:0m@desktop")
        #expect(lines().count == 1, "\(lines())")
        #expect(status == 0, "\(log)")
        #expect(log.contains("delivered todo:1:2026-12-01:0m@desktop [todo \"Call mum\" at 2026-12-01T09:00:00+01:00]: desktop: no session bus"), "\(log)")
        #expect(log.components(separatedBy: " delivered ").count == 2, "\(log)")
        #expect(log.contains("stopping: SIGTERM received\n") && log.hasSuffix("stopped (exit 0)\n"), "\(log)")

        // A restart: its first plan decided (what it would resend is handed over by then), it
        // sends nothing.
        let again = try Server(db: db, config: config, start: "2026-12-01 08:00:30")
        let (againStatus, againLog) = try stop(again, after: "planned (start)")
        #expect(lines().count == 1, "\(lines())")
        #expect(againStatus == 0 && !againLog.contains(" delivered ") && againLog.contains("stopping: SIGTERM received\n"), "\(againLog)")
    }

    @Test("a todo added while serve runs fires without a restart; a skip cancels another")
    func picksUpChanges() throws {
        let server = try Server(db: db, config: config, start: "2026-12-01 07:59:54")
        // Each write once the runner has planned what came before it: the first after its start,
        // the skip after Walk is in its plan (so the skip takes a planned reminder out).
        #expect(server.waitForLog("planned (start)"), "\(server.logSoFar())")
        try cli("todo", "add", "Water plants", "--due", "2026-12-01T09:00")
        #expect(server.waitForLog("planned (database changed"), "\(server.logSoFar())")
        try cli("todo", "add", "Walk", "--every", "daily from 2026-11-01 at 09:00")
        #expect(server.waitForLog("planned (database changed", count: 2), "\(server.logSoFar())")
        try cli("todo", "skip", "2", "--on", "2026-12-01")
        let got = waitForLines(1, seconds: 10)
        #expect(got.first?.hasSuffix("todo:1:2026-12-01:0m Water plants|") == true, "\(got)")
        // Walk was due with it, in the same round: stopped after that round, it would be in the file.
        let (status, log) = try stop(server, after: "delivered todo:1:2026-12-01:0m@")
        #expect(status == 0)
        #expect(lines().count == 1, "\(lines())")
        #expect(!log.contains("todo:2:2026-12-01:0m@"), "\(log)")
    }

    @Test("after downtime: due within the grace window goes out once, marked late; older is recorded missed")
    func downtime() throws {
        try cli("todo", "add", "Recent", "--due", "2026-12-01T09:00")
        try cli("todo", "add", "Old", "--due", "2026-11-30T09:00")
        try beganAt("2026-11-01T00:00:00Z")
        let server = try Server(db: db, config: config, start: "2026-12-01 08:30:00")
        // Today's 08:00 digest (listing the overdue "Old") and "Recent" are inside the 12 h grace window.
        let got = waitForLines(2, seconds: 10).sorted { $0.split(separator: " ")[1] < $1.split(separator: " ")[1] }
        #expect(got.first?.hasSuffix(" digest:2026-12-01 Tuesday 2026-12-01: 1 item|late") == true, "\(got)")
        #expect(got.last?.hasSuffix(" todo:1:2026-12-01:0m Recent|late") == true, "\(got)")
        #expect(try stop(server, after: "delivered digest:2026-12-01@", "delivered todo:1:2026-12-01:0m@").0 == 0)
        #expect(lines().count == 2, "\(lines())")
        let missed = try cli("missed", "--json").stdout
        #expect(
            missed.contains(
                #""key":"todo:2:2026-11-30:0m","channel":"desktop","kind":"todo","title":"Old","due":"2026-11-30T09:00:00+01:00","why":"outside the grace window""#
            ),
            "\(missed)")
        #expect(!missed.contains("Recent"))
        // Nothing of it goes out on the next start: its first plan decided, nothing was sent.
        let again = try Server(db: db, config: config, start: "2026-12-01 08:31:00")
        let (againStatus, againLog) = try stop(again, after: "planned (start)")
        #expect(againStatus == 0 && !againLog.contains(" delivered "), "\(againLog)")
        #expect(lines().count == 2, "\(lines())")
    }

    @Test("missed lists nothing due before the database began; --clear acknowledges, all or by key")
    func missedSinceCreation() throws {
        try cli("todo", "add", "Water", "--every", "daily from 2026-11-25 at 09:00")
        try cli("todo", "add", "Call", "--due", "2026-12-01T10:00")
        try beganAt("2026-12-01T07:00:00Z")
        // Dec 2, 10:30 in Berlin, a 12 h grace window: Dec 1's 09:00 and 10:00 were missed; the
        // days before Dec 1 came before the database did.
        let server = try Server(db: db, config: config, start: "2026-12-02 09:30:00")
        // Recorded at the first plan: wait for the delivery log to say so.
        let deadline = Date().addingTimeInterval(10)
        var missed = ""
        while Date() < deadline, missed.components(separatedBy: ":2026-12-01:0m").count < 3 {
            missed = try CLIProcess.run(["--db", db, "missed"]).stdout
            usleep(50_000)
        }
        #expect(try server.stop().0 == 0)
        missed = try cli("missed").stdout
        #expect(missed.contains("todo:1:2026-12-01:0m") && missed.contains("todo:2:2026-12-01:0m"), "\(missed)")
        // Each says why it was missed.
        #expect(missed.contains("→ desktop  (todo:2:2026-12-01:0m): outside the grace window\n"), "\(missed)")
        #expect(!missed.contains("2026-11-"), "\(missed)")
        #expect(try cli("missed", "--clear", "todo:2:2026-12-01:0m").stdout == "1 missed reminder acknowledged\n")
        #expect(!(try cli("missed").stdout.contains("todo:2:")))
        #expect(try cli("missed", "--clear").stdout == "1 missed reminder acknowledged\n")
        #expect(try cli("missed").stdout == "nothing missed\n")
        CLIProcess.expectFailure(try CLIProcess.run(["--db", db, "missed", "--clear", "not-a-key"]), status: 2, mentioning: ["is not a reminder key"])
    }

    @Test("more than three late at once go out as one summary, each recorded once")
    func lateSummary() throws {
        for minute in 0..<5 { try cli("todo", "add", "Task \(minute)", "--due", "2026-12-01T08:0\(minute)") }
        let server = try Server(db: db, config: config, start: "2026-12-01 08:30:00")
        let got = waitForLines(1, seconds: 10)
        // Five late reminders, one message (the todos have times, so no digest holds them).
        #expect(got.first?.contains(" summary:todo:1:2026-12-01:0m,todo:2:2026-12-01:0m,") == true, "\(got)")
        #expect(got.first?.hasSuffix(" 5 reminders you missed|late") == true, "\(got)")
        let (status, log) = try stop(server, after: "in one summary of 5", count: 5)
        #expect(status == 0)
        #expect(lines().count == 1, "\(lines())")
        #expect(log.components(separatedBy: "in one summary of 5").count - 1 == 5, "\(log)")
        let again = try Server(db: db, config: config, start: "2026-12-01 08:31:00")
        let (againStatus, againLog) = try stop(again, after: "planned (start)")
        #expect(againStatus == 0 && !againLog.contains(" delivered "), "\(againLog)")
        #expect(lines().count == 1, "\(lines())")
    }

    @Test("300 late todos with 400-character titles: one summary of bounded size reaches the command, all 300 recorded delivered")
    func hugeSummary() throws {
        try cli("todo", "add", "First", "--due", "2026-12-01T08:00")
        // The other 299 straight into the table, as a sync or a script would leave them.
        let insert = """
            import sqlite3,sys; c=sqlite3.connect(sys.argv[1])
            c.executemany("INSERT INTO todos (title, due_date, due_time, reminders, created) VALUES (?, '2026-12-01', ?, '', '2026-11-30')",
                          [('Task %d ' % i + 'x' * 400, '08:%02d' % (i % 60)) for i in range(299)]); c.commit()
            """
        #expect(try runTool("/usr/bin/python3", ["-c", insert, db], environment: [:]).0 == 0)
        let script = "import sys; open(sys.argv[1],'a').write('%d %d %s\\\\n' % (len(sys.argv[3]), sys.argv[3].count(chr(10)) + 1, sys.argv[2]))"
        try """
        { timeZone: "Europe/Berlin", graceWindow: "12h",
          channels: { command: { argv: ["/usr/bin/env", "python3", "-c", "\(script)", "\(fired)", "{key}", "{body}"], timeout: "5s" } } }
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let server = try Server(db: db, config: config, start: "2026-12-01 09:30:00")
        let got = waitForLines(1, seconds: 15)
        let (status, log) = try server.stop()
        #expect(status == 0)
        let fields = try #require(got.first, "\(log)").split(separator: " ")
        #expect(got.count == 1, "\(got)")
        #expect(try #require(Int(fields[0])) < 2_000, "the body is \(fields[0]) bytes")
        #expect(fields[1] == "11")
        #expect(fields[2].hasSuffix(",+290"))
        #expect(log.components(separatedBy: "in one summary of 300").count - 1 == 300)
        #expect(!log.contains("Argument list too long"))
        #expect(try cli("missed").stdout.contains("nothing missed"))
    }

    @Test("the database deleted under serve: it says so and exits 1 (systemd starts it again on the new file); replaced: the same")
    func databaseDeleted() throws {
        let data = folder.path("data")
        let path = folder.path("data/dawnlet.sqlite")
        for (attempt, lose) in ["was deleted or moved away", "was replaced by another file"].enumerated() {
            // Due a second after serve starts (09:00, then 09:01 in Berlin).
            let due = "2026-12-01T09:0\(attempt)"
            try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            #expect(try CLIProcess.run(["--db", path, "--config", config, "todo", "add", "Due", "--due", due]).status == 0)
            let server = try Server(db: path, config: config, start: ["2026-12-01 07:59:59", "2026-12-01 08:00:59"][attempt])
            // It runs its loop: the reminder went out.
            #expect(waitForLines(attempt + 1, seconds: 15).count == attempt + 1)
            if attempt == 0 {
                #expect(try runTool("/bin/rm", ["-rf", data], environment: [:]).0 == 0)
            } else {
                try CLIProcess.createDatabase(path + ".new")
                #expect(rename(path + ".new", path) == 0)
            }
            waitUntil { !server.wrapper.isRunning }
            #expect(!server.wrapper.isRunning, "serve kept running on a \(lose) database")
            let (status, log) = try server.stop()
            #expect(status == 1, "\(log)")
            #expect(log.contains("database \(path) \(lose) while serve ran"), "\(log)")
            #expect(log.contains("stopping: the database \(lose)\n") && log.contains("stopped (exit 1)\n"), "\(log)")
        }
    }

    @Test("SIGHUP reads the config again: a new command takes over; an invalid config is logged and the one in use kept")
    func reloadsConfig() throws {
        for (minute, title) in ["First", "Second", "Third"].enumerated() {
            try cli("todo", "add", title, "--due", "2026-12-01T09:0\(minute)")
        }
        // The fake clock runs 20 times faster: a minute passes in 3 s.
        let server = try Server(db: db, config: config, start: "2026-12-01 07:59:58 x20")
        #expect(waitForLines(1, seconds: 10).last?.hasSuffix(" First|") == true, "\(lines())")
        // The same command, with a marker before the title.
        let marked = command.replacingOccurrences(of: "\"{title}\"", with: "\"B:{title}\"")
        try "{ timeZone: \"Europe/Berlin\", graceWindow: \"12h\", channels: { \(marked) } }".write(toFile: config, atomically: true, encoding: .utf8)
        kill(try server.runnerPID(), SIGHUP)
        #expect(waitForLines(2, seconds: 10).last?.hasSuffix(" B:Second|") == true, "\(lines())")
        try "{ timeZone: \"Europe/Berlin\", horizon: \"a while\" }".write(toFile: config, atomically: true, encoding: .utf8)
        kill(try server.runnerPID(), SIGHUP)
        #expect(waitForLines(3, seconds: 10).last?.hasSuffix(" B:Third|") == true, "\(lines())")
        let (status, log) = try server.stop()
        #expect(status == 0)
        #expect(log.contains("config read again"))
        #expect(log.contains("config not read again: \(config):1:30: horizon:"), "\(log)")
        #expect(log.contains("keeping the one in use"))
    }

    @Test("a failing command is retried with backoff inside the grace window")
    func retries() throws {
        let marker = folder.path("failed-once")
        let script = "import sys,os; m=sys.argv[1]; (open(m,'w'), sys.exit(3)) if not os.path.exists(m) else open(sys.argv[2],'a').write(sys.argv[3] + '\\\\n')"
        try """
        { timeZone: "Europe/Berlin", channels: { command: { argv: ["/usr/bin/env", "python3", "-c", "\(script)", "\(marker)", "\(fired)", "{title}"] } } }
        """.write(toFile: config, atomically: true, encoding: .utf8)
        try cli("todo", "add", "Retry me", "--due", "2026-12-01T09:00")
        let server = try Server(db: db, config: config, start: "2026-12-01 07:59:58")
        let got = waitForLines(1, seconds: 10)
        #expect(got == ["Retry me"])
        let (status, log) = try server.stop()
        #expect(status == 0)
        #expect(
            log.contains("delivered todo:1:2026-12-01:0m@desktop [todo \"") && log.contains("]: desktop: no session bus")
                && log.contains("sent through the command fallback; after 2 attempts"), "\(log)")
    }

    @Test("a command starts with no signal blocked or ignored (but glibc's own), though serve blocks SIGTERM, SIGINT and SIGHUP and ignores SIGPIPE")
    func commandSignals() throws {
        // cp copies its own /proc/self/status: what the child was given, before it ran anything else.
        let status = folder.path("status")
        try """
        { timeZone: "Europe/Berlin", route: { default: ["command"] }, channels: { command: { argv: ["/bin/cp", "/proc/self/status", "\(status)"] } } }
        """.write(toFile: config, atomically: true, encoding: .utf8)
        try cli("todo", "add", "Pills", "--due", "2026-12-01T09:00")
        let server = try Server(db: db, config: config, start: "2026-12-01 07:59:58")
        func field(_ name: String, of text: String) -> UInt64? {
            text.split(separator: "\n").first { $0.hasPrefix(name + ":") }.flatMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) }
        }
        #expect(server.waitForLog("delivered todo:1:2026-12-01:0m@command"), "\(server.logSoFar())")
        // The runner's own, as the child's were before the spawn reset them (bit N - 1 is signal N).
        let runner = try String(contentsOfFile: "/proc/\(try server.runnerPID())/status", encoding: .utf8)
        let blocked: UInt64 = 1 << (UInt64(SIGHUP) - 1) | 1 << (UInt64(SIGINT) - 1) | 1 << (UInt64(SIGTERM) - 1)
        #expect(field("SigBlk", of: runner).map { $0 & blocked } == blocked, "\(runner)")
        #expect(field("SigIgn", of: runner).map { $0 & 1 << (UInt64(SIGPIPE) - 1) != 0 } == true, "\(runner)")
        let (code, log) = try server.stop()
        #expect(code == 0, "\(log)")
        let child = try String(contentsOfFile: status, encoding: .utf8)
        #expect(field("SigBlk", of: child) == 0, "\(child)")
        // Nothing ignored but glibc's own two real-time signals (32 and 33), which its posix_spawn
        // leaves ignored in every child, whatever it is asked.
        let glibcOwn: UInt64 = 0b11 << 31
        #expect(field("SigIgn", of: child).map { $0 & ~glibcOwn } == 0, "\(child)")
        // The leader of a process group of its own.
        func number(_ name: String) -> Int? {
            child.split(separator: "\n").first { $0.hasPrefix(name + ":") }.flatMap { Int($0.split(separator: "\t").last ?? "") }
        }
        #expect(number("NSpgid") != nil && number("NSpgid") == number("Pid"), "\(child)")
    }

    @Test("kill -9 at random points of a burst of 200: nothing lost; repeats only for claims in flight at a kill")
    func killBurst() throws {
        // A fixed script of the test's own: the key is ours, no user text reaches the shell.
        try """
        { timeZone: "Europe/Berlin", channels: { command: { argv: ["/bin/sh", "-c", "sleep 0.1; echo \\"$0\\" >> \\"$1\\"", "{key}", "\(fired)"] } } }
        """.write(toFile: config, atomically: true, encoding: .utf8)
        var statements: [String] = []
        for i in 1...200 {
            statements.append("INSERT INTO todos (title, due_date, due_time, reminders, created) VALUES ('T\(i)', '2026-12-01', '09:00', '', '2026-11-01')")
        }
        try CLIProcess.createDatabase(db)
        try sql(statements)
        var rng = SeededRandom(seed: 99)
        var mayRepeat = 0
        var kills = 0
        for round in 0..<8 {
            let server = try Server(db: db, config: config, start: round == 0 ? "2026-12-01 07:59:59" : "2026-12-01 08:00:05")
            let pid = try server.runnerPID()
            // The first run: once the burst has begun (its first claims written, a second in).
            if round == 0 { #expect(waitUntil { (try? count("SELECT count(*) FROM deliveries")) ?? 0 > 0 }, "the burst never began") }
            // The kill point: a random instant of the burst (not a wait for anything: the input).
            usleep(UInt32.random(in: 20_000...250_000, using: &rng))
            kill(pid, SIGKILL)
            server.wrapper.waitUntilExit()
            kills += 1
            // What was claimed and not recorded when it died may have been handed over: it may repeat.
            mayRepeat += try count("SELECT count(*) FROM deliveries WHERE state = 'claimed'")
            if try count("SELECT count(*) FROM deliveries WHERE state = 'delivered'") == 200 { break }
        }
        // Then let one run finish.
        let last = try Server(db: db, config: config, start: "2026-12-01 08:00:10")
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, try count("SELECT count(*) FROM deliveries WHERE state = 'delivered'") < 200 { usleep(100_000) }
        #expect(try last.stop().0 == 0)
        let keys = lines()
        let distinct = Set(keys)
        #expect(distinct.count == 200, "lost: \(200 - distinct.count)")
        let repeats = keys.count - distinct.count
        #expect(repeats <= mayRepeat, "\(repeats) repeats, but only \(mayRepeat) claims were in flight across \(kills) kills")
        print("kill -9 burst: \(kills) kills, \(mayRepeat) claims in flight at the kills, \(repeats) repeated deliveries, 0 lost")
    }

    func sql(_ statements: [String]) throws {
        let p = try Process.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            arguments: [
                "python3", "-c",
                """
                import sqlite3, sys
                c = sqlite3.connect(sys.argv[1])
                for s in sys.argv[2:]: c.execute(s)
                c.commit()
                """, db,
            ] + statements)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
    }

    func count(_ query: String) throws -> Int {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])", db, query]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// A config whose command writes the (fake) time it ran and the key; the timeout is long
    /// because under a sped-up fake clock the command's own start-up takes fake minutes.
    func writeFastClockConfig() throws {
        let script = "import sys,time,os; open(sys.argv[1],'a').write('%.3f %s\\\\n' % (time.time(), os.environ['DAWNLET_REMINDER_KEY']))"
        try """
        { timeZone: "Europe/Berlin", channels: { command: { argv: ["/usr/bin/env", "python3", "-c", "\(script)", "\(fired)"], timeout: "1h" } } }
        """.write(toFile: config, atomically: true, encoding: .utf8)
    }

    @Test("spring forward in Europe/Berlin, crossed live: the 02:30 reminder fires once, at 03:30 CEST")
    func springForward() throws {
        try writeFastClockConfig()
        try cli("habit", "add", "Meds", "--days", "sun,mon", "--at", "02:30", "--from", "2026-03-29")
        // 01:59:30 CET, 120 times faster: the clocks jump at 0.25 s, the reminder is due 15 s in.
        let server = try Server(db: db, config: config, start: "2026-03-29 00:59:30 x120")
        let got = waitForLines(1, seconds: 30)
        #expect(got.first?.hasSuffix(" habit:1:2026-03-29:0m") == true)
        let (status, log) = try stop(server, after: "delivered habit:1:2026-03-29:0m@")
        #expect(status == 0)
        #expect(lines().count == 1, "\(lines())")
        // The runner's own clock (a child restarts the fake clock, so its stamp cannot tell).
        #expect(log.contains("planned (start): next: Meds (habit:1:2026-03-29:0m) at 2026-03-29T03:30:00+02:00"), "\(log)")
        #expect(
            log.split(separator: "\n").contains { $0.hasPrefix("2026-03-29T03:30:") && $0.contains("+02:00 delivered habit:1:2026-03-29:0m@desktop") },
            "\(log)")
    }

    @Test("fall back in Europe/Berlin, crossed live: the 02:30 reminder fires once, at the first 02:30")
    func fallBack() throws {
        try writeFastClockConfig()
        try cli("habit", "add", "Meds", "--days", "sun", "--at", "02:30", "--from", "2026-10-01")
        // 25 minutes before 03:00 CET, exactly: at the second 02:35, after the second 02:30. Its
        // going out shows the clock passed the second 02:30 without Meds going out again.
        // (An event: an undone todo would be listed in the next morning's digest.)
        try cli("event", "add", "After the second 02:30", "--start", "2026-10-25T03:00", "--remind", "25m")
        // 02:29:30 CEST, 240 times faster: due at once; the second 02:30 (CET) passes 15 s later.
        let server = try Server(db: db, config: config, start: "2026-10-25 00:29:30 x240")
        #expect(waitUntil(seconds: 40) { lines().contains { $0.hasSuffix(" event:1:2026-10-25:25m") } }, "\(lines())")
        let (status, log) = try stop(server, after: "delivered event:1:2026-10-25:25m@")
        let got = lines()
        #expect(got.count == 2, "\(got)")
        #expect(got.first?.hasSuffix(" habit:1:2026-10-25:0m") == true, "\(got)")
        #expect(status == 0)
        #expect(log.contains("delivered event:1:2026-10-25:25m@desktop [event \"After the second 02:30\" at 2026-10-25T02:35:00+01:00]"), "\(log)")
        #expect(
            log.split(separator: "\n").contains { $0.hasPrefix("2026-10-25T02:30:") && $0.contains("+02:00 delivered habit:1:2026-10-25:0m@desktop") },
            "\(log)")
        #expect(log.contains("next: Meds (habit:1:2026-11-01:0m)"), "after it, the next is a week on: \(log)")
    }

    @Test("suspended across the due time (SIGSTOP, then SIGCONT): delivered once, marked late")
    func suspend() throws {
        try writeFastClockConfig()
        try cli("todo", "add", "Call mum", "--due", "2026-12-01T09:00")
        // 08:59:00 CET, 30 times faster: due in 2 s (time to start and be stopped even on a busy
        // machine); stopped for 6 s, so the runner wakes two minutes after the due time: late.
        let server = try Server(db: db, config: config, start: "2026-12-01 07:59:00 x30")
        let pid = try server.runnerPID()
        // Stopped only once it runs (its database open): stopped earlier, before libfaketime has
        // started its clock, the fake clock would start at 08:59 after SIGCONT, and nothing be late.
        #expect(waitUntil { hasOpen(pid, db) }, "the runner never opened its database")
        kill(pid, SIGSTOP)
        // Not a wait for an event: how long it stays stopped is what the test does (six seconds,
        // three fake minutes: the due time and the 60 s "late" line pass meanwhile).
        usleep(6_000_000)
        #expect(lines().isEmpty, "fired before it was stopped")
        kill(pid, SIGCONT)
        let got = waitForLines(1, seconds: 10)
        #expect(got.first?.hasSuffix(" todo:1:2026-12-01:0m") == true)
        let (status, log) = try stop(server, after: "delivered todo:1:2026-12-01:0m@")
        #expect(status == 0)
        #expect(lines().count == 1, "\(lines())")
        #expect(log.contains("delivered todo:1:2026-12-01:0m@desktop [todo \"") && log.contains("] (late)"), "\(log)")
    }

    /// Runs one of Scripts/ as root in a private mount namespace (`unshare -m`), with a folder and
    /// the binary as its arguments, and returns what it printed; nil (an issue recorded) without root.
    func inPrivateMountNamespace(_ script: String, _ folder: String, needing what: String) throws -> String? {
        guard getuid() == 0 else {
            Issue.record("needs root for a private mount namespace with \(what)")
            return nil
        }
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scripts/\(script)").path
        return try runTool(
            "/usr/bin/timeout", ["60", "unshare", "-m", "--propagation", "private", path, folder, CLIProcess.binary.path],
            environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"]
        ).1
    }

    @Test("the system time zone changes under a running serve: it re-plans, and the reminder fires at the new zone's 09:00")
    func systemZoneChange() throws {
        guard let text = try inPrivateMountNamespace("system-zone.sh", folder.path("zone"), needing: "an overlay on /etc") else { return }
        #expect(text.contains("fired=1\n"), "\(text)")
        #expect(text.contains("at 2026-12-01T09:00:00-05:00"), "planned first in New York: \(text)")
        #expect(text.contains("time zone changed from America/New_York to Europe/London"), "\(text)")
        #expect(text.contains("at 2026-12-01T09:00:00+00:00"), "re-planned in London: \(text)")
        #expect(text.contains("delivered todo:1:2026-12-01:0m@desktop"), "\(text)")
    }

    @Test("the zone's own file replaced (a tzdata update, on a bind-mounted /usr/share/zoneinfo): commands and a running serve follow it")
    func zoneFileChange() throws {
        guard let text = try inPrivateMountNamespace("zone-file.sh", folder.path("zonefile"), needing: "a bind mount on /usr/share/zoneinfo") else { return }
        #expect(text.contains("before={\"occurrences\":[\"2027-07-01\"],\"instants\":[\"2027-07-01T12:00:00+02:00\"]}\n"), "\(text)")
        #expect(text.contains("nodst={\"occurrences\":[\"2027-07-01\"],\"instants\":[\"2027-07-01T12:00:00+01:00\"]}\n"), "\(text)")
        #expect(text.contains("at 2026-12-01T09:00:00+01:00"), "planned first in CET: \(text)")
        #expect(text.contains("time zone Europe/Berlin: its rules changed on disk"), "\(text)")
        #expect(text.contains("at 2026-12-01T09:00:00+05:00"), "re-planned at +05:00: \(text)")
        #expect(text.contains("fired=1\n"), "\(text)")
    }

    // In this serialized suite, not beside it: a user manager started while another runner test
    // is running is the one suspect of a runner that vanished once in CI.
    @Test(
        "under a real systemd --user: starts (Type=notify), reports status, reloads, stops with 0, logs to the journal; a config error fails it at once, not restarted, and doctor says why"
    )
    func userManager() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/lib/systemd/systemd") else {
            Issue.record("needs root and systemd (run `make deps`)")
            return
        }
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let root = here.deletingLastPathComponent().deletingLastPathComponent()
        let folder = try TemporaryFolder()
        let (_, text) = try runTool(
            "/usr/bin/timeout",
            [
                "90", "unshare", "-m", "--propagation", "private", here.appendingPathComponent("Scripts/systemd-user.sh").path,
                folder.path("m"), CLIProcess.binary.deletingLastPathComponent().path,
                root.appendingPathComponent("systemd/dawnlet-remind.service").path,
            ], environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
        let lines = text.split(separator: "\n").map(String.init)
        for expected in [
            "start=0", "active=active", "reload=0", "after-reload=active", "stop=0", "Result=success", "ExecMainStatus=0",
            "DAWNLET_KEY=todo:1:", "DAWNLET_OUTCOME=delivered", "DAWNLET_CHANNEL=command",
            // A config error: failed at once, never restarted (RestartPreventExitStatus=), and doctor says why.
            "bad-start=1", "failed-ActiveState=failed", "failed-Result=exit-code", "failed-ExecMainStatus=78", "failed-NRestarts=0",
            "doctor-FAIL service: dawnlet-remind.service failed: its config cannot be used (exit 78; not restarted",
        ] {
            #expect(lines.contains { $0.hasPrefix(expected) }, "\(expected) in:\n\(text)")
        }
        #expect(lines.contains { $0.hasPrefix("StatusText=nothing due before") || $0.hasPrefix("StatusText=next: ") }, "\(text)")
        #expect(lines.contains { $0.hasPrefix("MESSAGE=planned (start)") }, "\(text)")
        #expect(lines.contains { $0.hasPrefix("MESSAGE=planned (SIGHUP)") }, "\(text)")
        #expect(lines.contains { $0.hasPrefix("MESSAGE=delivered todo:1:") }, "\(text)")
    }

    @Test("systemd notifications: READY after the first plan, STATUS with the next reminder, RELOADING on SIGHUP, STOPPING")
    func notifications() throws {
        try cli("todo", "add", "Far ahead", "--due", "2099-01-01T09:00")
        let socket = try NotifySocket(path: folder.path("notify.sock"))
        let server = try Server(db: db, config: config, start: nil, environment: ["NOTIFY_SOCKET": socket.path])
        var messages = socket.receive(until: { $0.contains("READY=1") }, seconds: 10)
        #expect(messages.contains("READY=1"))
        #expect(messages.contains { $0.hasPrefix("STATUS=") })
        kill(try server.runnerPID(), SIGHUP)
        messages = socket.receive(until: { $0.contains("READY=1") }, seconds: 10)
        #expect(messages.first == "RELOADING=1")
        #expect(messages.last == "READY=1")
        let (status, log) = try server.stop()
        #expect(status == 0)
        #expect(socket.receive(until: { $0.contains("STOPPING=1") }, seconds: 5).contains("STOPPING=1"))
        #expect(log.contains("planned (SIGHUP)"))
    }

    @Test("the wall clock being set re-plans at once")
    func clockSet() throws {
        let server = try Server(db: db, config: config, start: nil)
        // Its clock watch is set up before its first plan.
        #expect(server.waitForLog("planned (start)"), "\(server.logSoFar())")
        // Setting the clock to the value just read raises a real "clock was set" event without
        // moving time (root only).
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        #expect(clock_settime(CLOCK_REALTIME, &now) == 0, "needs root")
        let (status, log) = try stop(server, after: "planned (the clock was set)")
        #expect(status == 0)
        #expect(log.contains("planned (the clock was set)"), "\(log)")
    }

    @Test("next reads what serve published: the same answer as planning; a write, a delivery and a stop are followed; a dead runner's file is not read")
    func nextFromServe() throws {
        try cli("todo", "add", "First", "--due", "2026-12-01T09:00")
        try cli("todo", "add", "Second", "--due", "2026-12-01T10:00")
        try cli("todo", "add", "Left undone", "--due", "2026-11-20")
        let runtime = folder.path("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        // One fake clock for the runner and each `next`: the real one moved to 3 s before 09:00.
        let shift = "\(Int((berlin("2026-12-01T08:59:57+01:00") - Date().timeIntervalSince1970).rounded()))s"
        let server = try Server(db: db, config: config, start: shift.hasPrefix("-") ? shift : "+" + shift, environment: ["XDG_RUNTIME_DIR": runtime])
        /// `next --json` on the fake clock, with the runner's state (or, without, planned).
        func next(published: Bool = true) throws -> [String: Any] {
            let (status, out) = try runTool(
                "/usr/bin/faketime",
                ["-f", shift.hasPrefix("-") ? shift : "+" + shift, CLIProcess.binary.path, "--db", db, "--config", config, "next", "--json"],
                environment: ["PATH": "/usr/bin:/bin", "TZ": "UTC", "LANG": "C.UTF-8"].merging(published ? ["XDG_RUNTIME_DIR": runtime] : [:]) { $1 })
            #expect(status == 0, "\(out)")
            return try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any], "\(out)")
        }
        func title(_ answer: [String: Any]) -> String? { (answer["next"] as? [String: Any])?["title"] as? String }
        /// Waits (up to 10 s) for `next` to answer from the runner as `wanted` says.
        func waitForServe(_ wanted: ([String: Any]) -> Bool) throws -> [String: Any] {
            let deadline = Date().addingTimeInterval(10)
            var answer = try next()
            while !(answer["from"] as? String == "serve" && wanted(answer)) && Date() < deadline {
                usleep(20_000)
                answer = try next()
            }
            return answer
        }

        let first = try waitForServe { title($0) == "First" }
        #expect(first["from"] as? String == "serve" && first["overdue"] as? Int == 1, "\(first)")
        let planned = try next(published: false)
        #expect(planned["from"] as? String == "plan")
        // Byte for byte the reminder the plan gives, and the same counts.
        for key in ["overdue", "missed", "failed"] { #expect(first[key] as? Int == planned[key] as? Int, "\(key)") }
        #expect(NSDictionary(dictionary: first["next"] as? [String: Any] ?? [:]).isEqual(to: planned["next"] as? [String: Any] ?? [:]), "\(first) \(planned)")
        let state = try #require(try FileManager.default.contentsOfDirectory(atPath: runtime + "/dawnlet-remind").first)
        let statePath = runtime + "/dawnlet-remind/" + state
        #expect((try FileManager.default.attributesOfItem(atPath: statePath)[.posixPermissions] as? Int) == 0o600)
        #expect((try FileManager.default.attributesOfItem(atPath: runtime + "/dawnlet-remind")[.posixPermissions] as? Int) == 0o700)

        // A write is seen at once (the stamps no longer match: planned), then published.
        try cli("todo", "done", "3")
        #expect(try next()["overdue"] as? Int == 0)
        #expect(try waitForServe { $0["overdue"] as? Int == 0 }["from"] as? String == "serve")

        // Once First has gone out, the runner says Second.
        // (The morning digest, late, went out at the start.)
        #expect(waitForLines(2, seconds: 10).contains { $0.contains(" First|") }, "\(lines())")
        let second = try waitForServe { title($0) == "Second" }
        #expect(title(second) == "Second" && second["from"] as? String == "serve", "\(second)")

        // A runner that died without withdrawing its state: its file is not read.
        let saved = try Data(contentsOf: URL(fileURLWithPath: statePath))
        #expect(try server.stop().0 == 0)
        #expect(!FileManager.default.fileExists(atPath: statePath), "the state is withdrawn when serve stops")
        try saved.write(to: URL(fileURLWithPath: statePath))
        let after = try next()
        #expect(after["from"] as? String == "plan" && title(after) == "Second", "\(after)")
    }
}
