import DawnletTestSupport
import Foundation
import Testing

/// A locked screen holds desktop reminders back, against GNOME Shell's own lock
/// (org.gnome.ScreenSaver.Lock, allowed by the stand-in display manager on its system bus):
/// learned from ActiveChanged, never polled; on unlock what still waits is one summary.
extension ServeTests {
    @Test(
        "GNOME Shell locked: reminders due are held (next and preview say since when), serve sleeps (no wake-up in 20 s); unlocked, what still waits is one summary, without the one done in a terminal meanwhile"
    )
    func gnomeShellLocked() throws {
        let session = try GnomeShellSession()
        let runtime = folder.path("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        func tool(_ arguments: String...) throws -> String {
            let result = try CLIProcess.run(["--db", db, "--config", config] + arguments, environment: ["XDG_RUNTIME_DIR": runtime])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout
        }
        let (due, _) = twoMinutesAgo()
        for title in ["Feed the cat", "Take the pills", "Post the letter"] { try cli("--now", threeMinutesAgo(), "todo", "add", title, "--due", due) }
        // Locked before serve starts: it asks as it starts, and shows nothing.
        try session.lock()
        #expect(try session.isLocked())
        let server = try Server(db: db, config: config, start: nil, environment: session.environment.merging(["XDG_RUNTIME_DIR": runtime]) { $1 })
        #expect(server.waitForLog("the screen is locked: desktop reminders are held until it unlocks"), "\(server.logSoFar())")
        var next = ""
        _ = waitUntil {
            next = (try? tool("next")) ?? ""; return next.contains("(held: ")
        }
        let since = try #require(next.firstMatch(of: /\(held: screen locked since (\d\d:\d\d)\)\n/)?.1, "\(next)\n\(server.logSoFar())")
        let preview = try tool("preview")
        #expect(preview.contains("Feed the cat  → desktop  [held: screen locked since \(since)]\n"), "\(preview)")
        #expect(try session.notifications().isEmpty, "held, not shown")

        // Answered in a terminal while locked: not shown at the unlock.
        let splices = server.logSoFar().components(separatedBy: "planned (database changed").count - 1
        try cli("todo", "done", "2")
        #expect(server.waitForLog("planned (database changed", count: splices + 1), "\(server.logSoFar())")

        // Locked and nothing due: serve sleeps, woken by nothing.
        let pid = try server.runnerPID()
        // Counted from when serve has gone back to sleep after the last splice (its count still
        // for half a second), not while it finishes that round.
        var before = voluntarySwitches(pid)
        _ = waitUntil {
            usleep(500_000)
            let now = voluntarySwitches(pid)
            defer { before = now }
            return now == before
        }
        usleep(20_000_000)
        let during = voluntarySwitches(pid) - before
        #expect(during == 0, "\(during) wake-ups in 20 s while locked")
        print("screen locked: \(during) voluntary context switches of serve in 20 s")

        try session.unlock()
        #expect(server.waitForLog("the screen is unlocked: desktop reminders held meanwhile go out"), "\(server.logSoFar())")
        var shown: [[String: Any]] = []
        _ = waitUntil {
            shown = (try? session.notifications()) ?? []; return !shown.isEmpty
        }
        #expect(shown.count == 1, "one summary: \(shown)")
        #expect(shown.first?["title"] as? String == "2 reminders while you were away", "\(shown)")
        let body = shown.first?["body"] as? String ?? ""
        #expect(body.contains("Feed the cat") && body.contains("Post the letter") && !body.contains("Take the pills"), "\(shown)")
        let (status, log) = try server.stop()
        #expect(status == 0, "\(log)")
        #expect(log.components(separatedBy: "in one summary of 2").count - 1 == 2, "\(log)")
        #expect(!log.contains("delivered todo:2:"), "the one done is not shown:\n\(log)")
    }

    @Test(
        "logind's LockedHint (a stand-in on a private system bus) holds a nag's return due while locked, learned from PropertiesChanged; unlocked, it shows, alone, as itself"
    )
    func logindLocked() throws {
        let session = try DesktopSession(notificationServer: true)
        let logind = try LogindStandIn()
        let runtime = folder.path("runtime")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        try writeConfig("nagFor: \"1m\",")
        let (due, _) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "todo", "add", "Stretch", "--due", due, "--nag", "5s")
        let environment = session.environment.merging(logind.environment) { $1 }.merging(["XDG_RUNTIME_DIR": runtime]) { $1 }
        let server = try Server(db: db, config: config, start: nil, environment: environment)
        #expect(session.waitForDisplayed(1, seconds: 10) == 1)
        try logind.setLocked(true)
        #expect(server.waitForLog("the screen is locked: desktop reminders are held until it unlocks"), "\(server.logSoFar())")
        // The return due five seconds on is held, not shown.
        let held = waitUntil(seconds: 15) {
            let next = (try? CLIProcess.run(["--db", db, "--config", config, "next"], environment: ["XDG_RUNTIME_DIR": runtime]).stdout) ?? ""
            return next.contains("(held: screen locked since ")
        }
        #expect(held, "\(server.logSoFar())")
        #expect(!server.logSoFar().contains(", replacing "), "not shown while locked:\n\(server.logSoFar())")

        try logind.setLocked(false)
        #expect(server.waitForLog("the screen is unlocked: desktop reminders held meanwhile go out"), "\(server.logSoFar())")
        #expect(server.waitForLog(", replacing "), "\(server.logSoFar())")
        #expect(session.displayed() == 1, "replaced in place")
        let (status, log) = try server.stop()
        #expect(status == 0, "\(log)")
        #expect(!log.contains("while you were away"), "one alone goes out as itself:\n\(log)")
    }

    @Test(
        "org.freedesktop.ScreenSaver (as KDE and Xfce speak it) active as serve starts: the reminder is held; the screen saver gone from the bus, it no longer holds, and the reminder shows"
    )
    func freedesktopScreenSaverGone() throws {
        let session = try DesktopSession(notificationServer: true)
        guard (try? runTool("/usr/bin/python3", ["-c", "import dbus, gi"], environment: [:]))?.0 == 0 else {
            throw ServeTestError("python3-dbus or python3-gi is missing: run `make deps`")
        }
        var saver: Daemon? = try Daemon(
            "/usr/bin/python3", [Repository.scripts.appendingPathComponent("fake-screensaver.py").path, session.address, "true"])
        #expect(saver?.firstLine() == "ready")
        let (due, _) = twoMinutesAgo()
        try cli("--now", threeMinutesAgo(), "todo", "add", "Stretch", "--due", due)
        let server = try Server(db: db, config: config, start: nil, environment: session.environment)
        #expect(server.waitForLog("the screen is locked: desktop reminders are held until it unlocks"), "\(server.logSoFar())")
        #expect(server.waitForLog("planned (start)"), "\(server.logSoFar())")
        #expect(session.displayed() == 0, "held")
        saver = nil
        #expect(server.waitForLog("the screen is unlocked: desktop reminders held meanwhile go out"), "\(server.logSoFar())")
        #expect(session.waitForDisplayed(1, seconds: 10) == 1)
        let (status, log) = try server.stop()
        #expect(status == 0, "\(log)")
        #expect(log.components(separatedBy: "delivered todo:1:").count - 1 == 1, "\(log)")
    }
}
