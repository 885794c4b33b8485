import DawnletTestSupport
import Foundation
import Testing

/// A command that hangs delays nothing else, and SIGTERM does not wait for it past its bound:
/// the runner exits 0, the delivery stays claimed for the next start, and the command
/// is not left running. On the real clock: two todos due two minutes ago go out (late) at start.
extension ServeTests {
    @Test("a hanging command delays the other reminder nothing; SIGTERM exits 0 within its bound, killing it, its delivery left claimed")
    func hangingCommandAndShutdown() throws {
        let marker = folder.path("hang-pid")
        // A fixed script of the test's own; the title arrives as an argument, never as script text.
        try """
        { timeZone: "Europe/Berlin", route: { default: ["command"] },
          channels: { command: { argv: ["/bin/sh", "-c", "if [ \\"$1\\" = Hang ]; then echo $$ > \\"$2\\"; exec sleep 60; fi; echo \\"$1\\" >> \\"$0\\"",
                                        "\(fired)", "{title}", "\(marker)"], timeout: "50s" } } }
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let due = twoMinutesAgo().due
        try cli("--now", threeMinutesAgo(), "todo", "add", "Hang", "--due", due)
        try cli("--now", threeMinutesAgo(), "todo", "add", "Quick", "--due", due)
        let server = try Server(db: db, config: config, start: nil)
        #expect(waitForLines(1, seconds: 5) == ["Quick"])
        waitUntil(seconds: 5) { FileManager.default.fileExists(atPath: marker) }
        let hanging = try #require(Int32((try? String(contentsOfFile: marker, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""))
        #expect(kill(hanging, 0) == 0, "the hanging command runs")

        let stopping = Date()
        let (status, log) = try server.stop()
        let took = Date().timeIntervalSince(stopping)
        #expect(status == 0, "\(log)")
        #expect(took >= 14 && took < 20, "SIGTERM took \(took) s; the bound is 15 s")
        #expect(log.contains("stopping with deliveries in flight"), "\(log)")
        #expect(try count("SELECT count(*) FROM deliveries WHERE state = 'claimed' AND title = 'Hang'") == 1)
        #expect(try count("SELECT count(*) FROM deliveries WHERE state = 'delivered' AND title = 'Quick'") == 1)
        // Killed with its process group: gone (or a zombie of no one's, reaped by init).
        #expect(waitUntil(seconds: 3) { hasEnded(hanging) }, "the hanging command was left running")
    }

    @Test(
        "a stderr pipe nobody reads: reminders still go out on time, SIGTERM still stops serve at once, and a restart sends nothing twice"
    )
    func unreadStderr() throws {
        try writeConfig("route: { default: [\"command\"] },")
        for i in 1...3 { try cli("todo", "add", "Unread \(i)", "--due", "2026-12-01T09:00") }
        // Full before serve starts, through a description of the test's own: the one serve gets
        // stays blocking, as a parent's pipe would be.
        let pipe = Pipe()
        let filling = open("/proc/self/fd/\(pipe.fileHandleForWriting.fileDescriptor)", O_WRONLY | O_NONBLOCK)
        let block = [UInt8](repeating: UInt8(ascii: "."), count: 4096)
        while write(filling, block, block.count) > 0 {}
        close(filling)
        let server = try Server(db: db, config: config, start: "2026-12-01 07:59:58", stderr: pipe)
        let fired = waitForLines(3, seconds: 10)
        #expect(fired.count == 3, "\(fired)")
        // On time: each ran at 09:00 on the fake clock (the first second of it).
        let due = berlin("2026-12-01T09:00:00+01:00")
        for line in fired {
            let ran = Double(line.split(separator: " ").first ?? "") ?? 0
            #expect(ran >= due && ran < due + 1, "\(line)")
        }

        // SIGTERM with the pipe still full: serve ends within a second or two, not when someone reads.
        kill(try server.runnerPID(), SIGTERM)
        let stoppedInTime = waitUntil(seconds: 5) { !server.wrapper.isRunning }
        let (status, log) = try server.stop()
        #expect(stoppedInTime, "serve did not stop within 5 s with its stderr full")
        #expect(status == 0)
        #expect(log.allSatisfy { $0 == "." }, "every line was dropped while the pipe was full")
        #expect(try count("SELECT count(*) FROM deliveries WHERE state = 'delivered'") == 3)

        // A restart (its stderr read): its first plan decided, nothing was sent.
        let again = try Server(db: db, config: config, start: "2026-12-01 08:00:30")
        let (statusAgain, logAgain) = try stop(again, after: "planned (start)")
        #expect(statusAgain == 0 && !logAgain.contains(" delivered "), "\(logAgain)")
        #expect(lines().count == 3, "nothing was sent twice: \(lines())")
    }
}
