import DawnletTestSupport
import Foundation
import Testing

/// A command that hangs delays nothing else, and SIGTERM does not wait for it past its bound
/// (issue 11): the runner exits 0, the delivery stays claimed for the next start, and the command
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
        try cli("todo", "add", "Hang", "--due", due)
        try cli("todo", "add", "Quick", "--due", due)
        let server = try Server(db: db, config: config, start: nil)
        #expect(waitForLines(1, seconds: 5) == ["Quick"])
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline && !FileManager.default.fileExists(atPath: marker) { usleep(50_000) }
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
        let gone = Date().addingTimeInterval(3)
        while Date() < gone && kill(hanging, 0) == 0 && !isZombie(hanging) { usleep(50_000) }
        #expect(kill(hanging, 0) != 0 || isZombie(hanging), "the hanging command was left running")
    }

    func isZombie(_ pid: pid_t) -> Bool {
        ((try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? "").split(separator: " ").dropFirst(2).first == "Z"
    }
}
