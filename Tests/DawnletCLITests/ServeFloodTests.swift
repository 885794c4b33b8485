import DawnletTestSupport
import Foundation
import Testing

/// Other programs writing into the folders serve watches, without pause: a file not ours
/// rewritten in the database's folder or the export folder, a script committing to the database
/// one row at a time, and a tracer whose log in the database's folder grows with each thing serve
/// does (its every read of the folder's events is one more event). None holds a due reminder
/// back, none keeps a change made meanwhile from being seen for longer than the settle's ceiling,
/// and SIGTERM ends serve within a second or two whatever the folder does.
extension ServeTests {
    /// A program that keeps writing until stopped (killed at the end of the test whatever happens).
    final class Writer {
        let process = Process()

        init(_ executable: String, _ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
        }

        /// A Python loop, `script` with `arguments`.
        convenience init(python script: String, _ arguments: String...) throws {
            try self.init("/usr/bin/python3", ["-c", script] + arguments)
        }

        func stop() {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }

        deinit { stop() }
    }

    /// Rewrites a file from the top, as fast as it can, for ever.
    static let rewriter = "import sys\nwhile True:\n    with open(sys.argv[1], 'w') as f: f.write('not ours\\n')"

    /// Waits for `path` to hold something (the writer is at work), or says it never did.
    func waitForContent(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let started = waitUntil(seconds: 10) { ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) > 0 }
        #expect(started, "nothing was written to \(path)", sourceLocation: sourceLocation)
    }

    /// Each fired line's instant less the due instant, by key, for the five reminders due at
    /// 09:00 in Berlin; and the lines themselves (to say what went wrong).
    func lateness() -> [String: Double] {
        let due = berlin("2026-12-01T09:00:00+01:00")
        var late: [String: Double] = [:]
        for line in lines() {
            let parts = line.split(separator: " ", maxSplits: 2)
            guard parts.count == 3, let at = Double(parts[0]) else { continue }
            late[String(parts[1])] = at - due
        }
        return late
    }

    /// Five todos due at 09:00: `before` of them added before serve starts, the rest while
    /// `writer` runs (serve must see the database change to send them: with none before, nothing
    /// else wakes it at 09:00). All five go out once, each within a second of 09:00.
    func fiveOnTime(
        before: Int = 0, extra: String = "", writer start: (Server) throws -> Writer, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (Server, Writer) {
        try writeConfig(extra)
        for i in 0..<before { try cli("todo", "add", "Before \(i)", "--due", "2026-12-01T09:00") }
        // Berlin 08:59:52: eight seconds before they are due.
        let server = try Server(db: db, config: config, start: "2026-12-01 07:59:52")
        #expect(server.waitForLog("planned (start)"), "\(server.logSoFar())", sourceLocation: sourceLocation)
        let writer = try start(server)
        for i in before..<5 { try cli("todo", "add", "During \(i)", "--due", "2026-12-01T09:00") }
        let fired = waitForLines(5, seconds: 15)
        #expect(fired.count == 5, "\(fired)\n\(server.logSoFar().suffix(3000))", sourceLocation: sourceLocation)
        let late = lateness()
        #expect(late.count == 5, "\(fired)", sourceLocation: sourceLocation)
        for (key, seconds) in late.sorted(by: { $0.key < $1.key }) {
            #expect(seconds >= 0 && seconds < 1, "\(key) fired \(seconds) s after it was due", sourceLocation: sourceLocation)
        }
        print("lateness: \(late.sorted { $0.key < $1.key }.map { "\($0.key) \(String(format: "%.3f", $0.value)) s" })")
        return (server, writer)
    }

    /// Stops serve once each of the five went out, and checks each went out once.
    func stopAfterFive(_ server: Server, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let keys = lateness().keys.map { "delivered \($0)@" }
        for key in keys {
            #expect(server.waitForLog(key, seconds: 5), "never logged \(key)", sourceLocation: sourceLocation)
        }
        let (status, log) = try server.stop()
        #expect(status == 0, "\(log)", sourceLocation: sourceLocation)
        #expect(lines().count == 5, "each once: \(lines())", sourceLocation: sourceLocation)
        for key in keys {
            #expect(log.components(separatedBy: key).count == 2, "\(key) once:\n\(log)", sourceLocation: sourceLocation)
        }
        return log
    }

    @Test("a file not ours rewritten without pause in the database's folder: five due reminders go out on time, once; the writer's events cost no plan")
    func foreignWriterInDatabaseFolder() throws {
        let notes = folder.path("notes.txt")
        let (server, writer) = try fiveOnTime { _ in
            let writer = try Writer(python: Self.rewriter, notes)
            waitForContent(notes)
            return writer
        }
        writer.stop()
        let log = try stopAfterFive(server)
        // The five todos are the only changes: a plan for each at most, none for the writer's
        // thousands of events.
        let plans = log.components(separatedBy: "planned (database changed").count - 1
        #expect(plans >= 1 && plans <= 5, "\(plans) plans for five changes:\n\(log)")
        // Nor a line: what serve said is about its plans and deliveries, a few dozen lines at most.
        #expect(log.split(separator: "\n").count < 40, "\(log)")
    }

    @Test("a file not ours rewritten without pause in the export folder: five due reminders go out on time, once, and are exported")
    func foreignWriterInExportFolder() throws {
        let vdir = folder.path("vdir")
        try FileManager.default.createDirectory(atPath: vdir, withIntermediateDirectories: false)
        let notes = vdir + "/notes.txt"
        let (server, writer) = try fiveOnTime(extra: "export: { to: \"\(vdir)\" },") { _ in
            let writer = try Writer(python: Self.rewriter, notes)
            waitForContent(notes)
            return writer
        }
        // The two added meanwhile reached the folder too.
        let exported = waitUntil(seconds: 5) { ((try? FileManager.default.contentsOfDirectory(atPath: vdir)) ?? []).filter { $0.hasSuffix(".ics") }.count == 5 }
        #expect(exported, "\((try? FileManager.default.contentsOfDirectory(atPath: vdir)) ?? [])")
        writer.stop()
        let log = try stopAfterFive(server)
        #expect(!log.contains("notes.txt"), "\(log)")
    }

    @Test("a script committing to the database without pause: a change made meanwhile is seen within the settle's ceiling, and its reminder goes out on time")
    func committerKeepsTheDatabaseBusy() throws {
        // One row at a time, each its own commit, a few milliseconds apart: never 100 ms of quiet.
        let script = """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], timeout=30)
            i = 0
            while True:
                c.execute("INSERT INTO todos (title, due_date, due_time, reminders, created) VALUES (?, '2027-06-01', '10:00', '', '2026-11-30')", ('Imported %d' % i,))
                c.commit()
                i += 1
                time.sleep(0.005)
            """
        var committing = Date()
        let (server, writer) = try fiveOnTime { _ in
            let writer = try Writer(python: script, db)
            #expect(waitUntil(seconds: 10) { (try? count("SELECT count(*) FROM todos WHERE title LIKE 'Imported %'")) ?? 0 > 0 }, "the script never committed")
            committing = Date()
            return writer
        }
        writer.stop()
        let seconds = Date().timeIntervalSince(committing)
        let log = try stopAfterFive(server)
        // Acted on while the commits went on, once a second (the ceiling), not once per commit
        // and not only once they stopped.
        let plans = log.components(separatedBy: "planned (database changed").count - 1
        let commits = try count("SELECT count(*) FROM todos WHERE title LIKE 'Imported %'")
        #expect(Double(plans) >= seconds - 2 && Double(plans) <= seconds + 3, "\(plans) plans in \(seconds) s of \(commits) commits:\n\(log)")
        print("\(plans) plans in \(String(format: "%.1f", seconds)) s of \(commits) commits")
    }

    @Test(
        "a tracer logging into the database's folder (each read of its events one more event): five due reminders go out on time, once; SIGTERM ends serve within 2 s"
    )
    func feedbackWriter() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else {
            throw ServeTestError("strace is missing: run `make deps`")
        }
        let trace = folder.path("trace.log")
        var tracer: Writer?
        let (server, _) = try fiveOnTime(before: 3) { server in
            // Attached to the running serve, logging each of its system calls into the folder it
            // watches: serve's read of an event is written there, which is the next event.
            let attached = try Writer("/usr/bin/strace", ["-o", trace, "-p", String(try server.runnerPID())])
            tracer = attached
            waitForContent(trace)
            return attached
        }
        let runner = try server.runnerPID()
        let stopping = Date()
        kill(runner, SIGTERM)
        let ended = waitUntil(seconds: 10) { hasEnded(runner) }
        let took = Date().timeIntervalSince(stopping)
        // Whatever happened, the feedback ends with the tracer (and a stuck serve with it).
        tracer?.stop()
        let (status, log) = try server.stop()
        print("SIGTERM to exit under the tracer: \(String(format: "%.3f", took)) s")
        #expect(ended && took < 2, "SIGTERM took \(took) s to end serve under the tracer")
        #expect(status == 0, "\(log.suffix(3000))")
        #expect(lines().count == 5, "each once: \(lines())")
        for key in lateness().keys {
            #expect(log.components(separatedBy: "delivered \(key)@").count == 2, "\(key) once:\n\(log.suffix(3000))")
        }
    }
}
